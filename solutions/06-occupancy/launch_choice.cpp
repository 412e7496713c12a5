// Lesson 06: occupancy, tasks 6 and 7. The calculator's inputs for the GPU at hand, from the
// driver, and the choice of a launch configuration that tuned_tiled_sgemm makes with them.
//
// exercises/06-occupancy/launch_choice.cpp is yours: fill in each region between "BEGIN EXERCISE"
// and "END EXERCISE"; everything outside the regions is given and the same as in the reference
// solution (solutions/06-occupancy/). The calculator itself (tasks 1 to 5) is in occupancy.cpp;
// the kernels and the planner that call these functions are given
// (lessons/06-occupancy/calls-yours/occupancy_sgemm.cu). The contract is
// lessons/06-occupancy/occupancy.hpp.
#include "occupancy.hpp"
#include "occupancy_given.hpp"  // ampere_and_later (given: occupancy_given.cpp)

#include "common/check.hpp"
#include "common/todo.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson06 {

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
