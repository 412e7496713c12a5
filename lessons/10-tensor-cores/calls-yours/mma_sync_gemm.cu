// Lesson 10: the mma.sync GEMM's table of configurations, the choice among them and the headline.
// The kernel and its launcher are calls-yours/mma_sync_kernel.cuh, compiled with your
// mma_sync_parts.cuh by the build, a file for each line of LESSON10_CONFIGS (calls-yours/
// mma_sync_config.cuh); this one does not include yours, and a change to yours does not recompile
// it.
#include "mma_sync_config.cuh"

#include "built_configs.hpp"

#include "common/device.hpp"
#include "common/fit.hpp"

namespace lesson10 {

// The entry of one configuration in the table, and its kernel: defined in
// calls-yours/mma_sync_kernel.cuh and compiled, with the kernel, by the build's file of the
// configuration's line (LESSON10_CONFIG). A configuration missing there is an undefined reference
// when linking.
template <class T>
MmaConfig make_config(int ladder_step = 0);
template <class T>
const void* kernel_of();

// The ladder's steps and the tiles mma_sync_gemm chooses from, by name (LESSON10_CONFIGS lists
// them with the others).
using Step1 = Tile<128, 128, 32, 2, 2, 2, false>;  // mma.sync + ldmatrix, 2 stages, plain tiles
using Step2 = Tile<128, 128, 32, 2, 2, 2, true>;   // + swizzled tiles
using Step3 = Tile<128, 128, 32, 2, 2, 4, true>;   // + 4 stages
using Large = Tile<128, 128, 64, 2, 2, 3, true>;   // + 64 k a stage (128-byte rows): the headline
using LargePlain = Tile<128, 128, 64, 2, 2, 3, false>;  // its twin without the swizzle
using Middle = Tile<64, 128, 32, 2, 2, 4, true>;        // for grids too small for Large
using Small = Tile<64, 64, 32, 2, 2, 4, true>;          // for grids too small for Middle
// Large's tile in half the shared memory (3 stages of 32 k, 48 KiB): two blocks on an SM that
// cannot hold two of Large's 96 KiB (164 KiB on 8.0, 100 KiB on 8.6, 8.9 and 12.0).
using LargeShallow = Tile<128, 128, 32, 2, 2, 3, true>;

// The table: the lines of LESSON10_CONFIGS this library compiled (built_configs.hpp, written by
// the build: every line, or a save's grader's quick ones), in their order.
#define LESSON10_ENTRY(tag, step, ...) make_config<__VA_ARGS__>(step),

const std::vector<MmaConfig>& mma_configs() {
  static const std::vector<MmaConfig> list = {COURSE_BUILT_CONFIGS(LESSON10_ENTRY)};
  return list;
}

namespace {

template <class T>
int index_of() {
  return course::variant_index(mma_configs(), kernel_of<T>());
}

}  // namespace

void config_gemm(int index, int M, int N, int K, float alpha, const bf16* A, const bf16* B,
                 float beta, bf16* C) {
  course::variant_at(mma_configs(), index, "config_gemm").run(M, N, K, alpha, A, B, beta, C);
}

std::vector<lesson09::SharedAccess> config_shared_accesses(int index) {
  return course::variant_at(mma_configs(), index, "config_shared_accesses").shared_accesses();
}

int headline_config_index(bool swizzled) {
  return swizzled ? index_of<Large>() : index_of<LargePlain>();
}

//! [choice]
// The largest tile whose grid still gives (nearly) every SM a block: an SM without a block idles
// for the whole kernel, which costs more than smaller tiles do.
template <class T>
long grid_blocks(int M, int N) {
  return ((M + T::BM - 1L) / T::BM) * ((N + T::BN - 1L) / T::BN);
}

int mma_config_for(int M, int N, const course::DeviceLimits& device) {
  const int sms = device.sm_count;
  const long enough = (9L * sms) / 10;
  // The largest tile whose grid is enough, and the smaller ones after it, for a GPU it does not
  // fit (common/fit.hpp): the first that fits and holds the blocks per SM it was tuned for. Where
  // an SM holds only one block of Large, its tile in less shared memory holds two.
  std::vector<int> candidates = {index_of<Large>(), index_of<LargeShallow>(), index_of<Middle>(),
                                 index_of<Small>()};
  if (grid_blocks<Large>(M, N) < enough) candidates = {index_of<Middle>(), index_of<Small>()};
  if (grid_blocks<Middle>(M, N) < enough) candidates = {index_of<Small>()};
  const int chosen = course::choose_fitting(mma_configs(), candidates, device);
  if (chosen < 0) {
    throw std::runtime_error("mma_sync_gemm: no configuration fits this GPU: " +
                             course::why_none_fits(mma_configs(), candidates, device));
  }
  return chosen;
}
//! [choice]

void mma_sync_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                   bf16* C) {
  course::require_bf16_gemm_shape("mma_sync_gemm", M, N, K, 8, A, B, C);
  config_gemm(mma_config_for(M, N, course::current_device_info().limits), M, N, K, alpha, A, B,
              beta, C);
}

}  // namespace lesson10
