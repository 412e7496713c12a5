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
  // TODO: the compute capability (cudaDevAttrComputeCapabilityMajor/Minor), the table's limits
  // for it (sm_limits_for; catch std::invalid_argument for a GPU the table lacks), then every
  // field the driver knows from cudaDeviceGetAttribute (wrap each call in CUDA_CHECK), the
  // reserve from cudaDevAttrReservedSharedMemoryPerBlock, and the name from
  // cudaGetDeviceProperties.
  course::not_implemented("query_sm_limits (exercises/06-occupancy/launch_choice.cpp)");
  // END EXERCISE
  return s;
}

KernelUsage kernel_usage(const void* kernel, int threads_per_block,
                         std::size_t dynamic_smem_bytes) {
  KernelUsage k;
  // BEGIN EXERCISE: kernel_usage
  // TODO: cudaFuncGetAttributes(&attributes, kernel), then the block size and dynamic shared
  // memory from the arguments, numRegs, sharedSizeBytes and preferredShmemCarveout from it.
  course::not_implemented("kernel_usage (exercises/06-occupancy/launch_choice.cpp)");
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
  course::not_implemented("choose_launch (exercises/06-occupancy/launch_choice.cpp)");
  // END EXERCISE
  if (best < 0) {
    throw std::invalid_argument("choose_launch: no candidate fits on an SM of " + sm.name);
  }
  return best;
}
//! [choose]

}  // namespace lesson06
