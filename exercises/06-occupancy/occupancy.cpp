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

#include "common/check.hpp"
#include "common/todo.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lesson06 {

// ---- Given: the per-SM limits of the GPUs the course knows ------------------------------------

namespace {
constexpr std::size_t kKiB = 1024;

// The allocation rules shared by compute capability 8.0 and later.
SmLimits ampere_and_later(int major, int minor) {
  SmLimits s;
  s.name = "CC " + std::to_string(major) + "." + std::to_string(minor);
  s.cc_major = major;
  s.cc_minor = minor;
  s.warp_size = 32;
  s.max_threads_per_block = 1024;
  s.regs_per_sm = 65536;
  s.max_regs_per_block = 65536;
  s.max_regs_per_thread = 255;
  s.reg_alloc_unit = 256;
  s.reg_partitions = 4;
  s.smem_reserved_per_block_bytes = 1 * kKiB;
  s.smem_alloc_unit_bytes = 128;
  return s;
}
}  // namespace

SmLimits sm_limits_for(int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  SmLimits s = ampere_and_later(cc_major, cc_minor);
  switch (cc) {
    case 75:  // Turing: half the threads, 64 KiB of shared memory, no reserve, 256-byte units
      s.max_threads_per_sm = 1024;
      s.max_blocks_per_sm = 16;
      s.smem_per_sm_bytes = 64 * kKiB;
      s.smem_per_block_optin_bytes = 64 * kKiB;
      s.smem_reserved_per_block_bytes = 0;
      s.smem_alloc_unit_bytes = 256;
      s.smem_capacities_kib = {32, 64};
      break;
    case 80:  // A100
      s.max_threads_per_sm = 2048;
      s.max_blocks_per_sm = 32;
      s.smem_per_sm_bytes = 164 * kKiB;
      s.smem_per_block_optin_bytes = 163 * kKiB;
      s.smem_capacities_kib = {0, 8, 16, 32, 64, 100, 132, 164};
      break;
    case 86:  // GA10x: RTX 30, A10, A40
      s.max_threads_per_sm = 1536;
      s.max_blocks_per_sm = 16;
      s.smem_per_sm_bytes = 100 * kKiB;
      s.smem_per_block_optin_bytes = 99 * kKiB;
      s.smem_capacities_kib = {0, 8, 16, 32, 64, 100};
      break;
    case 89:  // Ada: RTX 40, L4, L40
      s.max_threads_per_sm = 1536;
      s.max_blocks_per_sm = 24;
      s.smem_per_sm_bytes = 100 * kKiB;
      s.smem_per_block_optin_bytes = 99 * kKiB;
      s.smem_capacities_kib = {0, 8, 16, 32, 64, 100};
      break;
    case 90:  // Hopper: H100, H200
      s.max_threads_per_sm = 2048;
      s.max_blocks_per_sm = 32;
      s.smem_per_sm_bytes = 228 * kKiB;
      s.smem_per_block_optin_bytes = 227 * kKiB;
      s.smem_capacities_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
      break;
    default:
      throw std::invalid_argument("sm_limits_for: compute capability " + s.name.substr(3) +
                                  " is not in the table (7.5, 8.0, 8.6, 8.9, 9.0)");
  }
  s.max_warps_per_sm = s.max_threads_per_sm / s.warp_size;
  return s;
}

SmLimits h100_limits() {
  SmLimits s = sm_limits_for(9, 0);
  s.name = "H100 (CC 9.0)";
  return s;
}
SmLimits a100_limits() {
  SmLimits s = sm_limits_for(8, 0);
  s.name = "A100 (CC 8.0)";
  return s;
}
SmLimits cc86_limits() {
  return sm_limits_for(8, 6);
}
SmLimits cc89_limits() {
  return sm_limits_for(8, 9);
}

std::string limit_name(Limit limit) {
  switch (limit) {
    case Limit::kThreads:
      return "threads";
    case Limit::kRegisters:
      return "registers";
    case Limit::kSharedMemory:
      return "shared memory";
    case Limit::kBlocks:
      return "blocks";
  }
  return "?";
}

bool Occupancy::binds(Limit l) const {
  switch (l) {
    case Limit::kThreads:
      return by_threads == blocks_per_sm;
    case Limit::kRegisters:
      return by_registers == blocks_per_sm;
    case Limit::kSharedMemory:
      return by_shared_memory == blocks_per_sm;
    case Limit::kBlocks:
      return by_blocks == blocks_per_sm;
  }
  return false;
}

//! [capacity]
std::size_t smem_capacity_bytes(const SmLimits& sm, int carveout_percent, std::size_t alloc_bytes) {
  if (sm.smem_capacities_kib.empty()) return sm.smem_per_sm_bytes;
  // The smallest configurable size that holds `bytes` (the largest if none does).
  auto config_at_least = [&sm](std::size_t bytes) {
    for (int kib : sm.smem_capacities_kib) {
      if (static_cast<std::size_t>(kib) * kKiB >= bytes)
        return static_cast<std::size_t>(kib) * kKiB;
    }
    return static_cast<std::size_t>(sm.smem_capacities_kib.back()) * kKiB;
  };
  // No preference: as much shared memory as the SM has. A preference: that share of it, up to
  // the next size the hardware can be set to.
  const std::size_t preferred = carveout_percent < 0
                                    ? sm.smem_per_sm_bytes
                                    : config_at_least(static_cast<std::size_t>(carveout_percent) *
                                                      sm.smem_per_sm_bytes / 100);
  // A preference is only a preference: a block that needs more gets a larger configuration.
  return preferred >= alloc_bytes ? preferred : config_at_least(alloc_bytes);
}
//! [capacity]

namespace {
// The checks every calculator function starts with: a usage and limits that make sense.
void validate(const SmLimits& sm, const KernelUsage& k, const char* who) {
  const std::string where = std::string(who) + ": ";
  if (sm.warp_size < 1 || sm.max_threads_per_sm < 1 || sm.max_warps_per_sm < 1 ||
      sm.max_blocks_per_sm < 1 || sm.regs_per_sm < 1 || sm.reg_alloc_unit < 1 ||
      sm.reg_partitions < 1 || sm.smem_alloc_unit_bytes < 1) {
    throw std::invalid_argument(where + "the SmLimits '" + sm.name +
                                "' were never filled in (a zero limit or unit)");
  }
  if (k.threads_per_block < 1) {
    throw std::invalid_argument(where + "threads_per_block must be at least 1, got " +
                                std::to_string(k.threads_per_block));
  }
  if (k.regs_per_thread < 0) {
    throw std::invalid_argument(where + "regs_per_thread cannot be negative, got " +
                                std::to_string(k.regs_per_thread));
  }
  if (k.carveout_percent < -1 || k.carveout_percent > 100) {
    throw std::invalid_argument(where + "carveout_percent must be -1 (none) or 0..100, got " +
                                std::to_string(k.carveout_percent));
  }
}
}  // namespace

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
