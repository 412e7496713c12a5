// Lesson 07, given code: the lesson's three kernels as a table of variants (register_tiling.hpp),
// for the lesson program and for the check that each fits a GPU (common/fit.hpp). Compiled once
// and linked into both the exercise and the solution library.
#include "register_tiling.hpp"

#include <string>
#include <vector>

namespace lesson07 {

namespace {

// A kernel of the ladder: a BM x BN tile of C per block, BK along K a step, a TM x TN tile per
// thread; a tile of A and one of B staged in shared memory.
template <int BM, int BN, int BK, int TM, int TN>
TilingKernel tiling_kernel(const std::string& name, const void* kernel,
                           course::GemmLauncher<course::Fp32> run) {
  TilingKernel k;
  k.name = name;
  k.kernel = kernel;
  k.run = run;
  k.threads = (BM / TM) * (BN / TN);
  k.static_smem_bytes = sizeof(float) * (BM * BK + BK * BN);
  // FLOP per byte loaded from global memory: 2 BM BN BK FLOP for 4 (BM + BN) BK bytes.
  k.intensity = static_cast<double>(BM) * BN / (2.0 * (BM + BN));
  k.bm = BM, k.bn = BN, k.tm = TM, k.tn = TN;
  return k;
}

}  // namespace

const std::vector<TilingKernel>& register_tiling_kernels() {
  static const std::vector<TilingKernel> kernels = {
      tiling_kernel<64, 64, 8, 8, 1>("thread_tile_1d_sgemm<64,64,8,8>",
                                     thread_tile_1d_sgemm_kernel<64, 64, 8, 8>(),
                                     &thread_tile_1d_sgemm<64, 64, 8, 8>),
      tiling_kernel<128, 128, 8, 8, 8>("thread_tile_2d_sgemm<128,128,8,8,8>",
                                       thread_tile_2d_sgemm_kernel<128, 128, 8, 8, 8>(),
                                       &thread_tile_2d_sgemm<128, 128, 8, 8, 8>),
      tiling_kernel<128, 128, 8, 8, 8>("vectorized_2d_sgemm<128,128,8,8,8>",
                                       vectorized_2d_sgemm_kernel<128, 128, 8, 8, 8>(),
                                       &vectorized_2d_sgemm<128, 128, 8, 8, 8>),
  };
  return kernels;
}

}  // namespace lesson07
