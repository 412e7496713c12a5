// Lesson 09: the final FP32 SGEMM's table of configurations, the choice among them and the
// headline. The kernel and its launcher are calls-yours/swizzled_kernel.cuh, compiled with your
// swizzle_parts.cuh by the build, a file for each line of LESSON09_CONFIGS (calls-yours/
// swizzled_config.cuh); this one does not include yours, and a change to yours does not
// recompile it.
#include "swizzled_config.cuh"

#include "built_configs.hpp"

#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm.hpp"
#include "common/variants.hpp"

#include <vector>

namespace lesson09 {

// The entry of one configuration in the table, and its kernel: defined in
// calls-yours/swizzled_kernel.cuh and compiled, with the kernel, by the
// build's file of the configuration's line (LESSON09_CONFIG). A configuration missing there is
// an undefined reference when linking.
template <class T>
SgemmConfig make_config(int ladder_step = 0);
template <class T>
const void* kernel_of();

const char* layout_name(ALayout layout) {
  switch (layout) {
    case ALayout::kPlain:
      return "plain";
    case ALayout::kPadded:
      return "padded";
    case ALayout::kSwizzled:
      return "swizzled";
  }
  return "?";
}

using P = ALayout;
// The ladder's steps and the configurations final_sgemm chooses from, by name (LESSON09_CONFIGS
// lists them with the others).
using Step1 = Tile<128, 128, 8, 4, 2, 1, P::kPlain>;         // 8 x 8 register tiles, no overlap
using Step2 = Tile<128, 128, 8, 4, 2, 2, P::kPlain>;         // + double buffering
using Step3 = Tile<128, 256, 8, 4, 2, 2, P::kPlain>;         // + 8 x 16 register tiles
using Step4 = Tile<128, 256, 8, 4, 2, 4, P::kPlain>;         // + 4 stages
using FinalPadded = Tile<128, 256, 8, 4, 2, 4, P::kPadded>;  // + padding (step 5)
using Final = Tile<128, 256, 8, 4, 2, 4, P::kSwizzled>;      // the swizzle instead (step 6)
using FinalPlain = Step4;
using Middle = Tile<128, 128, 8, 4, 2, 2, P::kSwizzled>;  // for grids too small for 128 x 256
using Small = Tile<64, 128, 16, 2, 4, 3, P::kSwizzled>;   // for grids too small for Middle

// The table: the lines of LESSON09_CONFIGS this library compiled (built_configs.hpp, written by
// the build: every line, or a save's grader's quick ones), in their order.
#define LESSON09_ENTRY(tag, step, ...) make_config<__VA_ARGS__>(step),

const std::vector<SgemmConfig>& sgemm_configs() {
  static const std::vector<SgemmConfig> list = {COURSE_BUILT_CONFIGS(LESSON09_ENTRY)};
  return list;
}

namespace {

template <class T>
int index_of() {
  return course::variant_index(sgemm_configs(), kernel_of<T>());
}

}  // namespace

void config_sgemm(int index, int M, int N, int K, float alpha, const float* A, const float* B,
                  float beta, float* C) {
  course::variant_at(sgemm_configs(), index, "config_sgemm").run(M, N, K, alpha, A, B, beta, C);
}

int final_config_index(ALayout layout) {
  switch (layout) {
    case ALayout::kPlain:
      return index_of<FinalPlain>();
    case ALayout::kPadded:
      return index_of<FinalPadded>();
    case ALayout::kSwizzled:
      break;
  }
  return index_of<Final>();
}

std::vector<SharedAccess> final_kernel_shared_accesses(ALayout layout) {
  return course::variant_at(sgemm_configs(), final_config_index(layout),
                            "final_kernel_shared_accesses")
      .shared_accesses();
}

void padded_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C) {
  config_sgemm(final_config_index(ALayout::kPadded), M, N, K, alpha, A, B, beta, C);
}

void swizzled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                    float* C) {
  config_sgemm(final_config_index(ALayout::kSwizzled), M, N, K, alpha, A, B, beta, C);
}

//! [final_choice]
// The largest tile whose grid still gives (nearly) every SM a block: a grid of fewer blocks than
// SMs leaves SMs idle for the whole kernel, which costs more than smaller tiles do.
template <class T>
long grid_blocks(int M, int N) {
  return ((M + T::BM - 1L) / T::BM) * ((N + T::BN - 1L) / T::BN);
}

int final_config_for(int M, int N, const course::DeviceLimits& device) {
  const int sms = device.sm_count;
  const long enough = (9L * sms) / 10;
  // The largest tile whose grid is enough, and the smaller ones after it, for a GPU it does not
  // fit (common/fit.hpp): the first that fits and holds the blocks per SM it was tuned for. The
  // large tile takes step 5's padded A, the faster of its two conflict-free layouts: the swizzle's
  // offsets cost it 19 more registers and issue slots an FFMA would use (the chapter's figures).
  std::vector<int> candidates = {index_of<FinalPadded>(), index_of<Middle>(), index_of<Small>()};
  if (grid_blocks<FinalPadded>(M, N) < enough) candidates.erase(candidates.begin());
  if (grid_blocks<Middle>(M, N) < enough) candidates = {index_of<Small>()};
  const int chosen = course::choose_fitting(sgemm_configs(), candidates, device);
  if (chosen < 0) {
    throw std::runtime_error("final_sgemm: no configuration fits this GPU: " +
                             course::why_none_fits(sgemm_configs(), candidates, device));
  }
  return chosen;
}
//! [final_choice]

void final_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                 float* C) {
  course::require_gemm_shape("final_sgemm", M, N, K, 0);
  config_sgemm(final_config_for(M, N, course::current_device_info().limits), M, N, K, alpha, A, B,
               beta, C);
}

}  // namespace lesson09
