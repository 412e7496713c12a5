// Lesson 06: occupancy, tasks 1 to 5. The calculator declared in occupancy.hpp: how many blocks of
// a kernel fit on one SM and which resource runs out first, then how many waves a grid takes.
//
// exercises/06-occupancy/occupancy.cpp is yours: fill in each region between "BEGIN EXERCISE" and
// "END EXERCISE"; everything outside the regions is given and the same as in the reference
// solution (solutions/06-occupancy/). Tasks 6 and 7 are in launch_choice.cpp. The contract, with
// worked examples, is lessons/06-occupancy/occupancy.hpp; the chapter,
// lessons/06-occupancy/README.md, explains each limit with the H100's numbers.
//
// `make grade-6` grades it (tasks 1-5 and 7 on the CPU, without a GPU; task 6 and the comparison
// with the CUDA runtime's own calculator on the GPU), `make lesson-6` runs it, `make hint-6`
// gives the next hint.
#include "occupancy.hpp"
#include "occupancy_given.hpp"  // validate (given: occupancy_given.cpp)

#include "common/todo.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lesson06 {

// ---- Task 1: warp slots ----------------------------------------------------------------------

//! [by_threads]
int blocks_limited_by_threads(const SmLimits& sm, const KernelUsage& k) {
  validate(sm, k, "blocks_limited_by_threads");
  // BEGIN EXERCISE: blocks_limited_by_threads
  // TODO: 0 when the block has more than sm.max_threads_per_block threads. Otherwise count the
  // block's warps (a partial warp takes a whole slot: round up) and divide the SM's warp slots,
  // sm.max_warps_per_sm, by them (rounding down).
  course::not_implemented("blocks_limited_by_threads (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
}
//! [by_threads]

// ---- Task 2: registers -----------------------------------------------------------------------

//! [by_registers]
int blocks_limited_by_registers(const SmLimits& sm, const KernelUsage& k) {
  validate(sm, k, "blocks_limited_by_registers");
  // BEGIN EXERCISE: blocks_limited_by_registers
  // TODO: 0 over sm.max_regs_per_thread, kNoLimit for 0 registers. Registers per warp: the
  // thread's count x warp size, rounded up to sm.reg_alloc_unit. 0 if one block needs more than
  // sm.max_regs_per_block. Each of sm.reg_partitions quarters of sm.regs_per_sm holds a whole
  // number of warps; all partitions together, divided by the block's warps, is the answer.
  course::not_implemented("blocks_limited_by_registers (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
}
//! [by_registers]

// ---- Task 3: shared memory -------------------------------------------------------------------

//! [by_shared_memory]
int blocks_limited_by_shared_memory(const SmLimits& sm, const KernelUsage& k) {
  validate(sm, k, "blocks_limited_by_shared_memory");
  // BEGIN EXERCISE: blocks_limited_by_shared_memory
  // TODO: the block's allocation is k.smem_per_block_bytes() plus the per-block reserve, rounded
  // up to sm.smem_alloc_unit_bytes. 0 if it exceeds the per-block maximum (opt-in) plus the
  // reserve; kNoLimit if it is 0. Otherwise divide smem_capacity_bytes(sm, k.carveout_percent,
  // allocation) by it.
  course::not_implemented("blocks_limited_by_shared_memory (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
}
//! [by_shared_memory]

// ---- Task 4: all four together ---------------------------------------------------------------

//! [occupancy]
Occupancy occupancy(const SmLimits& sm, const KernelUsage& k) {
  validate(sm, k, "occupancy");
  Occupancy o;
  // BEGIN EXERCISE: occupancy
  // TODO: fill o.by_threads, o.by_registers, o.by_shared_memory (your three functions) and
  // o.by_blocks (the hardware limit); blocks_per_sm is the smallest; the limit is the first of
  // threads, registers, shared memory, blocks that gives it (o.binds helps); then the warps per
  // block, the active warps per SM and the occupancy fraction.
  course::not_implemented("occupancy (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
  return o;
}
//! [occupancy]

// ---- Task 5: waves ---------------------------------------------------------------------------

//! [waves]
Waves waves(int sm_count, int blocks_per_sm, long long grid_blocks) {
  if (sm_count < 1 || blocks_per_sm < 1 || grid_blocks < 1) {
    throw std::invalid_argument(
        "waves: sm_count, blocks_per_sm and grid_blocks must be >= 1, got " +
        std::to_string(sm_count) + ", " + std::to_string(blocks_per_sm) + ", " +
        std::to_string(grid_blocks));
  }
  Waves w;
  w.grid_blocks = grid_blocks;
  // BEGIN EXERCISE: waves
  // TODO: blocks per wave = SMs x blocks per SM; the waves (rounded up), the full waves (rounded
  // down), the blocks of the last wave, how full it is, the efficiency and the exact ratio.
  course::not_implemented("waves (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
  return w;
}
//! [waves]

}  // namespace lesson06
