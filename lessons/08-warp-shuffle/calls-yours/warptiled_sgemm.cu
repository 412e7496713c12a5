// Lesson 08: the warp-tiled SGEMM's table of configurations, the choice among them and the
// headline. The kernel and its launcher are calls-yours/warptiled_kernel.cuh, compiled with your
// warptiled_parts.cuh by the build, a file for each line of LESSON08_CONFIGS; this one does not
// include yours, and a change to yours does not recompile it.
#include "warptiled_sgemm.hpp"

#include "built_configs.hpp"

#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace lesson08 {

// The entry of one configuration in the table: defined in calls-yours/warptiled_kernel.cuh and
// compiled, with the configuration's kernel, by the build's file of its line (LESSON08_CONFIG). A
// configuration missing there is an undefined reference when linking.
template <int BM, int BN, int BK, int WM, int WN, int WM_ITER, int WN_ITER, int TM, int TN,
          int MIN_BLOCKS>
WarpTiledConfig make_config();

// The table: the lines of LESSON08_CONFIGS this library compiled (built_configs.hpp, written by
// the build: every line, or a save's grader's quick ones), in their order.
#define LESSON08_ENTRY(tag, ...) make_config<__VA_ARGS__>(),
const std::vector<WarpTiledConfig>& warptiled_configs() {
  static const std::vector<WarpTiledConfig> list = {COURSE_BUILT_CONFIGS(LESSON08_ENTRY)};
  return list;
}

//! [choose]
int choose_warptiled_config(int M, int N, const course::DeviceLimits& device) {
  const int sm_count = device.sm_count;
  const WarpTileShape& big = warptiled_configs()[0].shape;
  const long long blocks = ((static_cast<long long>(M) + big.bm - 1) / big.bm) *
                           ((static_cast<long long>(N) + big.bn - 1) / big.bn);
  // A block runs on one SM: a grid of fewer blocks than SMs leaves SMs idle for the whole run.
  // Below 90% of the SMs busy, smaller tiles (less reuse, but work for every SM) win. Either way,
  // only a configuration that fits this GPU (common/fit.hpp).
  const std::vector<int> candidates =
      10 * blocks >= 9LL * sm_count ? std::vector<int>{0, 1} : std::vector<int>{1};
  const int chosen = course::choose_fitting(warptiled_configs(), candidates, device);
  if (chosen < 0) {
    throw std::runtime_error("tuned_warptiled_sgemm: no configuration fits this GPU: " +
                             course::why_none_fits(warptiled_configs(), candidates, device));
  }
  return chosen;
}
//! [choose]

void tuned_warptiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                           float beta, float* C) {
  course::require_gemm_shape("tuned_warptiled_sgemm", M, N, K, 0);
  const course::DeviceLimits& device = course::current_device_info().limits;
  warptiled_configs()[choose_warptiled_config(M, N, device)].run(M, N, K, alpha, A, B, beta, C);
}

}  // namespace lesson08
