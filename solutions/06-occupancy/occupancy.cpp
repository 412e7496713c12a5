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

// ---- Task 6: the limits and the usage from the driver (GPU) ----------------------------------

//! [query]
SmLimits query_sm_limits(int device) {
  SmLimits s;
  // BEGIN EXERCISE: query_sm_limits
  auto attr = [device](cudaDeviceAttr a) {
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, a, device));
    return v;
  };
  const int major = attr(cudaDevAttrComputeCapabilityMajor);
  const int minor = attr(cudaDevAttrComputeCapabilityMinor);
  // The allocation rules come from the table; a GPU newer than the table gets those of CC 8.0+.
  try {
    s = sm_limits_for(major, minor);
  } catch (const std::invalid_argument&) {
    s = ampere_and_later(major, minor);
    s.smem_capacities_kib.clear();
  }
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  s.name = prop.name;
  // Everything the driver knows, from the driver: it is the authority on the GPU at hand.
  s.warp_size = attr(cudaDevAttrWarpSize);
  s.max_threads_per_block = attr(cudaDevAttrMaxThreadsPerBlock);
  s.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
  s.max_warps_per_sm = s.max_threads_per_sm / s.warp_size;
  s.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor);
  s.regs_per_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor);
  s.max_regs_per_block = attr(cudaDevAttrMaxRegistersPerBlock);
  s.smem_per_sm_bytes = static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  s.smem_per_block_optin_bytes =
      static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  s.smem_reserved_per_block_bytes =
      static_cast<std::size_t>(attr(cudaDevAttrReservedSharedMemoryPerBlock));
  // END EXERCISE
  return s;
}

KernelUsage kernel_usage(const void* kernel, int threads_per_block,
                         std::size_t dynamic_smem_bytes) {
  KernelUsage k;
  // BEGIN EXERCISE: kernel_usage
  cudaFuncAttributes a{};
  CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  k.threads_per_block = threads_per_block;
  k.regs_per_thread = a.numRegs;
  k.static_smem_bytes = a.sharedSizeBytes;
  k.dynamic_smem_bytes = dynamic_smem_bytes;
  k.carveout_percent = a.preferredShmemCarveout;
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
  // Evaluate every candidate once: its occupancy, and the waves of its grid.
  struct Score {
    int warps = 0;  // active warps per SM; 0 when it cannot launch
    double efficiency = 0;
    long long tile = 0;
  };
  std::vector<Score> scores;
  for (const LaunchCandidate& c : candidates) {
    Score s;
    const Occupancy o = occupancy(sm, c.usage);
    if (o.blocks_per_sm > 0) {
      const long long grid = ceil_div(M, c.tile_m) * ceil_div(N, c.tile_n);
      s.warps = o.active_warps;
      s.efficiency = waves(sm_count, o.blocks_per_sm, grid).efficiency;
      s.tile = 1LL * c.tile_m * c.tile_n;
    }
    scores.push_back(s);
  }
  // Rule 1: the most warps per SM. Rule 2: the best efficiency among those, give or take the tie.
  int most_warps = 0;
  for (const Score& s : scores) most_warps = std::max(most_warps, s.warps);
  double best_efficiency = 0;
  for (const Score& s : scores) {
    if (s.warps == most_warps) best_efficiency = std::max(best_efficiency, s.efficiency);
  }
  // Rule 3: the largest tile among the finalists; rule 4: the first of equal tiles (strict >).
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const Score& s = scores[i];
    const bool finalist =
        s.warps > 0 && s.warps == most_warps && s.efficiency >= best_efficiency - kEfficiencyTie;
    if (finalist && (best < 0 || s.tile > scores[best].tile)) best = static_cast<int>(i);
  }
  // END EXERCISE
  if (best < 0) {
    throw std::invalid_argument("choose_launch: no candidate fits on an SM of " + sm.name);
  }
  return best;
}
//! [choose]

}  // namespace lesson06
