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
  if (k.threads_per_block > sm.max_threads_per_block) return 0;  // such a block cannot launch
  // The SM schedules warps, not threads: a block of 96 threads takes 3 warp slots, one of 100
  // takes 4 (the last one a quarter full).
  const int warps_per_block = static_cast<int>(ceil_div(k.threads_per_block, sm.warp_size));
  return sm.max_warps_per_sm / warps_per_block;
  // END EXERCISE
}
//! [by_threads]

// ---- Task 2: registers -----------------------------------------------------------------------

//! [by_registers]
int blocks_limited_by_registers(const SmLimits& sm, const KernelUsage& k) {
  validate(sm, k, "blocks_limited_by_registers");
  // BEGIN EXERCISE: blocks_limited_by_registers
  if (k.regs_per_thread > sm.max_regs_per_thread) return 0;  // the compiler never does this
  if (k.regs_per_thread == 0) return kNoLimit;
  const long long warps_per_block = ceil_div(k.threads_per_block, sm.warp_size);
  // A warp's registers are allocated together, in units of 256: 33 registers per thread cost as
  // much as 40.
  const long long regs_per_warp =
      round_up(1LL * k.regs_per_thread * sm.warp_size, sm.reg_alloc_unit);
  if (regs_per_warp * warps_per_block > sm.max_regs_per_block) return 0;  // one block is too big
  // Each warp scheduler (partition) has its own quarter of the register file, and a warp lives
  // in one partition: each quarter holds a whole number of warps.
  const long long warps_per_partition = (sm.regs_per_sm / sm.reg_partitions) / regs_per_warp;
  return static_cast<int>(warps_per_partition * sm.reg_partitions / warps_per_block);
  // END EXERCISE
}
//! [by_registers]

// ---- Task 3: shared memory -------------------------------------------------------------------

//! [by_shared_memory]
int blocks_limited_by_shared_memory(const SmLimits& sm, const KernelUsage& k) {
  validate(sm, k, "blocks_limited_by_shared_memory");
  // BEGIN EXERCISE: blocks_limited_by_shared_memory
  // What the kernel declares plus what the driver keeps for itself in every block (1 KiB from
  // CC 8.0 on), in whole allocation units.
  const std::size_t alloc = static_cast<std::size_t>(
      round_up(static_cast<long long>(k.smem_per_block_bytes() + sm.smem_reserved_per_block_bytes),
               static_cast<long long>(sm.smem_alloc_unit_bytes)));
  if (alloc > sm.smem_per_block_optin_bytes + sm.smem_reserved_per_block_bytes) return 0;
  if (alloc == 0) return kNoLimit;
  const std::size_t capacity = smem_capacity_bytes(sm, k.carveout_percent, alloc);
  return static_cast<int>(capacity / alloc);
  // END EXERCISE
}
//! [by_shared_memory]

// ---- Task 4: all four together ---------------------------------------------------------------

//! [occupancy]
Occupancy occupancy(const SmLimits& sm, const KernelUsage& k) {
  validate(sm, k, "occupancy");
  Occupancy o;
  // BEGIN EXERCISE: occupancy
  o.by_threads = blocks_limited_by_threads(sm, k);
  o.by_registers = blocks_limited_by_registers(sm, k);
  o.by_shared_memory = blocks_limited_by_shared_memory(sm, k);
  o.by_blocks = sm.max_blocks_per_sm;
  o.blocks_per_sm = std::min({o.by_threads, o.by_registers, o.by_shared_memory, o.by_blocks});
  // The first limit, in the order of the Limit enum, that gives the minimum.
  for (Limit l : {Limit::kThreads, Limit::kRegisters, Limit::kSharedMemory, Limit::kBlocks}) {
    if (o.binds(l)) {
      o.limit = l;
      break;
    }
  }
  o.warps_per_block = static_cast<int>(ceil_div(k.threads_per_block, sm.warp_size));
  o.active_warps = o.blocks_per_sm * o.warps_per_block;
  o.occupancy = static_cast<double>(o.active_warps) / sm.max_warps_per_sm;
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
  w.blocks_per_wave = 1LL * sm_count * blocks_per_sm;
  w.full_waves = grid_blocks / w.blocks_per_wave;
  w.waves = ceil_div(grid_blocks, w.blocks_per_wave);
  w.tail_blocks = grid_blocks - (w.waves - 1) * w.blocks_per_wave;  // 1 .. blocks_per_wave
  w.last_wave_fill = static_cast<double>(w.tail_blocks) / w.blocks_per_wave;
  w.efficiency = static_cast<double>(grid_blocks) / (w.waves * w.blocks_per_wave);
  w.exact = static_cast<double>(grid_blocks) / w.blocks_per_wave;
  // END EXERCISE
  return w;
}
//! [waves]

}  // namespace lesson06
