// Lesson 06: occupancy. The calculator declared in occupancy.hpp: how many blocks of a kernel fit
// on one SM, which resource runs out first, how many waves a grid takes, and a launch planner.
//
// exercises/06-occupancy/occupancy.cpp is yours: fill in each region between "BEGIN EXERCISE" and
// "END EXERCISE"; everything outside the regions is given and the same as in the reference
// solution (solutions/06-occupancy/). The contract, with worked examples, is
// lessons/06-occupancy/occupancy.hpp; the chapter, lessons/06-occupancy/README.md, explains
// each limit with the H100's numbers.
//
// `make grade-6` grades it (tasks 1-5 and 7 on the CPU, without a GPU; task 6 and the comparison
// with the CUDA runtime's own calculator on the GPU), `make lesson-6` runs it, `make hint-6`
// gives the next hint.
#include "occupancy.hpp"
#include "occupancy_given.hpp"  // validate, ampere_and_later (given: occupancy_given.cpp)

#include "common/check.hpp"
#include "common/todo.hpp"

#include <cuda_runtime.h>

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

// ---- Task 6: the limits and the usage from the driver (GPU) ----------------------------------

//! [query]
SmLimits query_sm_limits(int device) {
  SmLimits s;
  // BEGIN EXERCISE: query_sm_limits
  // TODO: the compute capability (cudaDevAttrComputeCapabilityMajor/Minor), the table's limits
  // for it (sm_limits_for; catch std::invalid_argument for a GPU the table lacks), then every
  // field the driver knows from cudaDeviceGetAttribute (wrap each call in CUDA_CHECK), the
  // reserve from cudaDevAttrReservedSharedMemoryPerBlock, and the name from
  // cudaGetDeviceProperties.
  course::not_implemented("query_sm_limits (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
  return s;
}

KernelUsage kernel_usage(const void* kernel, int threads_per_block,
                         std::size_t dynamic_smem_bytes) {
  KernelUsage k;
  // BEGIN EXERCISE: kernel_usage
  // TODO: cudaFuncGetAttributes(&attributes, kernel), then the block size and dynamic shared
  // memory from the arguments, numRegs, sharedSizeBytes and preferredShmemCarveout from it.
  course::not_implemented("kernel_usage (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
  return k;
}
//! [query]

// ---- Task 7: choose a launch configuration ---------------------------------------------------

//! [choose]
int choose_launch(const SmLimits& sm, int sm_count, int M, int N,
                  const std::vector<LaunchCandidate>& candidates) {
  if (candidates.empty()) throw std::invalid_argument("choose_launch: no candidates");
  if (M < 1 || N < 1 || sm_count < 1) {
    throw std::invalid_argument("choose_launch: M, N and sm_count must be >= 1");
  }
  int best = -1;
  // BEGIN EXERCISE: choose_launch
  // TODO: for each candidate, its occupancy and the wave efficiency of its grid
  // (ceil(M / tile_m) x ceil(N / tile_n) blocks). Keep those with the most active warps per SM
  // (never one with 0 blocks), then those within kEfficiencyTie of the best efficiency among
  // them, then take the largest tile, the earliest on a tie. Set best to its index.
  course::not_implemented("choose_launch (exercises/06-occupancy/occupancy.cpp)");
  // END EXERCISE
  if (best < 0) {
    throw std::invalid_argument("choose_launch: no candidate fits on an SM of " + sm.name);
  }
  return best;
}
//! [choose]

}  // namespace lesson06
