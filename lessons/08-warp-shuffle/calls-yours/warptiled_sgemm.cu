// Lesson 08: the warp-tiled SGEMM's configurations, the choice among them and the headline. The
// kernel and its launcher are calls-yours/warptiled_kernel.cuh, compiled with your
// warptiled_parts.cuh by calls-yours/warptiled_sgemm_part1.cu and warptiled_sgemm_part2.cu, two
// files that compile side by side, each some of the configurations; this one does not include
// yours, and a change to yours does not recompile it.
#include "warptiled_sgemm.hpp"

#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace lesson08 {

// The entry of one configuration in the table: defined in calls-yours/warptiled_kernel.cuh and
// compiled, with the configuration's kernel, by the calls-yours/warptiled_sgemm_part*.cu file that
// lists it (LESSON08_CONFIG). A configuration missing there is an undefined reference when linking.
template <int BM, int BN, int BK, int WM, int WN, int WM_ITER, int WN_ITER, int TM, int TN,
          int MIN_BLOCKS>
WarpTiledConfig make_config();

//! [configs]
const std::vector<WarpTiledConfig>& warptiled_configs() {
  static const std::vector<WarpTiledConfig> list = {
      // [0] the H100 choice for large problems: 128 x 256 block tiles, 8 warps of 64 x 64, each
      //     lane 16 x 8 results as 4 x 2 steps of 4 x 4; one block (8 warps) per SM.
      make_config<128, 256, 8, 64, 64, 4, 2, 4, 4, 1>(),
      // [1] the fallback for small problems: 64 x 64 tiles, 4 warps, 8 x 4 results per lane.
      make_config<64, 64, 8, 32, 32, 2, 1, 4, 4, 4>(),
      // The alternatives the chapter's tuning table compares.
      make_config<128, 128, 8, 32, 64, 2, 2, 4, 4, 2>(),
      make_config<64, 128, 8, 32, 64, 2, 2, 4, 4, 4>(),
      make_config<256, 128, 8, 64, 64, 2, 4, 4, 4, 1>(),
      make_config<128, 256, 16, 64, 64, 4, 2, 4, 4, 1>(),
      make_config<128, 128, 16, 64, 64, 1, 4, 8, 4, 2>(),
  };
  return list;
}
//! [configs]

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
