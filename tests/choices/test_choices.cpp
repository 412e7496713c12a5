// Every lesson's choice of a launch configuration, on every reference GPU (common/
// reference_gpus.hpp) and at many sizes, without those GPUs: each lesson's own chooser, as the
// reference solutions build it, runs on the published limits, and what it chooses must fit there
// (common/fit.hpp), or the lesson must say why it cannot run there. On an H100 and an H200 the
// choices are those the lessons were tuned with. On a GPU, the same checks against the driver and
// the compiler: the tables describe their kernels truly, and the CUDA runtime agrees with the fit.
#include "catch_compat.hpp"

#include "lessons/05-tiling/tiled_sgemm.hpp"
#include "lessons/06-occupancy/occupancy.hpp"
#include "lessons/06-occupancy/occupancy_sgemm.hpp"
#include "lessons/07-register-tiling/register_tiling.hpp"
#include "lessons/08-warp-shuffle/warptiled_sgemm.hpp"
#include "lessons/09-swizzling/swizzled_sgemm.hpp"
#include "lessons/10-tensor-cores/mma_sync_gemm.hpp"
#include "lessons/10-tensor-cores/wmma_gemm.hpp"
#include "lessons/11-tma-pipeline/lab/lab.hpp"
#include "lessons/11-tma-pipeline/tma_pipeline.hpp"

#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/reference_gpus.hpp"
#include "common/variants.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

// M x N of C: square sizes from one element up, and the course's non-square bf16 shapes.
const std::vector<std::pair<int, int>>& sizes() {
  static const std::vector<std::pair<int, int>> s = {
      {1, 1},       {64, 64},     {257, 255},   {512, 512},   {1024, 1024}, {2048, 2048},
      {4000, 4000}, {4096, 4096}, {8192, 8192}, {8192, 7168}, {512, 8192},  {16384, 16384}};
  return s;
}

bool is_hopper(const course::ReferenceGpu& g) {
  return g.limits.cc() == 90;
}

// The index of the variant named `name`; fails the test when the table has none.
template <class V>
int named(const std::vector<V>& table, const std::string& name) {
  for (int i = 0; i < static_cast<int>(table.size()); ++i) {
    if (table[i].name == name) return i;
  }
  FAIL("no configuration named " << name);
  return -1;
}

// The rule the lessons were tuned with on the H100: the first of `tiers` (largest tile first)
// whose grid gives at least 90% of the SMs a block, else the last.
template <class V>
int by_grid(const std::vector<V>& table, const std::vector<int>& tiers, int M, int N, int sms) {
  for (int i : tiers) {
    const long blocks =
        ((M + table[i].bm - 1L) / table[i].bm) * ((N + table[i].bn - 1L) / table[i].bn);
    if (blocks >= (9L * sms) / 10) return i;
  }
  return tiers.back();
}

// A chosen variant fits the GPU.
void check_chosen(const course::VariantInfo& v, const course::DeviceLimits& gpu) {
  const course::Fit f = course::fits(v, gpu);
  INFO("chose " << v.name << ": " << f.why);
  CHECK(f.ok);
}

// ... and holds the blocks per SM it was tuned for (lesson 10's tiles: two blocks an SM).
void check_blocks(const course::VariantInfo& v, const course::DeviceLimits& gpu) {
  INFO("chose " << v.name);
  CHECK(course::resident_blocks(v, gpu) >= std::max(1, course::promised_blocks(v, gpu)));
}

// Lesson 06's tuned configurations as its planner sees them on `gpu` without it: the compiler's
// registers replaced by the most their __launch_bounds__ allows there.
std::vector<lesson06::LaunchCandidate> tuned_candidates(const course::DeviceLimits& gpu) {
  std::vector<lesson06::LaunchCandidate> out;
  for (const lesson06::TunedConfig& c : lesson06::tuned_configs()) {
    lesson06::KernelUsage u;
    u.threads_per_block = c.threads;
    u.regs_per_thread = course::launch_bounds_registers(c.threads, course::promised_blocks(c, gpu));
    u.static_smem_bytes = c.static_smem_bytes;
    out.push_back({c.name, c.tile_m, c.tile_n, u});
  }
  return out;
}

}  // namespace

TEST_CASE("lessons 05 and 07: every kernel fits every reference GPU", "[cpu][choices]") {
  // Lesson 05's tiled kernels, as lesson 06 lists them, and lesson 07's three.
  std::vector<course::VariantInfo> kernels;
  for (const lesson06::LessonKernel& k : lesson06::lesson_kernels()) {
    if (k.name.find("(lesson 05)") != std::string::npos) kernels.push_back(k);
  }
  REQUIRE(kernels.size() == 2);
  for (const lesson07::TilingKernel& k : lesson07::register_tiling_kernels()) kernels.push_back(k);
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    for (const course::VariantInfo& v : kernels) {
      INFO(g.label << ": " << v.name);
      CHECK(v.threads > 0);
      CHECK(v.static_smem_bytes > 0);
      check_chosen(v, g.limits);
    }
  }
}

TEST_CASE("lesson 06: the planner chooses a tuned configuration that fits", "[cpu][choices]") {
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    const lesson06::SmLimits sm = lesson06::sm_limits_of(g.limits);
    const std::vector<lesson06::LaunchCandidate> candidates = tuned_candidates(g.limits);
    for (const auto& [M, N] : sizes()) {
      const int chosen = lesson06::choose_launch(sm, g.limits.sm_count, M, N, candidates);
      INFO(g.label << ", " << M << " x " << N);
      REQUIRE(chosen >= 0);
      check_chosen(lesson06::tuned_configs()[chosen], g.limits);
      // Every tuned configuration fits, its promise lowered where an SM holds fewer threads.
      for (const lesson06::TunedConfig& c : lesson06::tuned_configs()) {
        CHECK(course::fits(c, g.limits).ok);
      }
    }
  }
  INFO("on the H100 the largest tile at 4096 x 4096, as the chapter measured it");
  const course::DeviceLimits& h100 = course::reference_gpu("H100 SXM5").limits;
  CHECK(lesson06::choose_launch(lesson06::sm_limits_of(h100), h100.sm_count, 4096, 4096,
                                tuned_candidates(h100)) == 0);
}

TEST_CASE("lesson 08: tuned_warptiled_sgemm's choice fits", "[cpu][choices]") {
  const auto& configs = lesson08::warptiled_configs();
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    for (const auto& [M, N] : sizes()) {
      const int chosen = lesson08::choose_warptiled_config(M, N, g.limits);
      INFO(g.label << ", " << M << " x " << N);
      check_chosen(configs[chosen], g.limits);
      if (is_hopper(g)) {
        const lesson08::WarpTileShape& big = configs[0].shape;
        const long blocks = ((M + big.bm - 1L) / big.bm) * ((N + big.bn - 1L) / big.bn);
        CHECK(chosen == (10 * blocks >= 9L * g.limits.sm_count ? 0 : 1));
      }
    }
  }
}

TEST_CASE("lesson 09: final_sgemm's choice fits", "[cpu][choices]") {
  const auto& configs = lesson09::sgemm_configs();
  const std::vector<int> tiers = {lesson09::final_config_index(lesson09::ALayout::kPadded),
                                  named(configs, "128x128x8 8x8 s2 swizzled"),
                                  named(configs, "64x128x16 8x4 s3 swizzled")};
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    for (const auto& [M, N] : sizes()) {
      const int chosen = lesson09::final_config_for(M, N, g.limits);
      INFO(g.label << ", " << M << " x " << N);
      check_chosen(configs[chosen], g.limits);
      if (is_hopper(g)) CHECK(chosen == by_grid(configs, tiers, M, N, g.limits.sm_count));
    }
  }
  INFO("the configurations only the sweep runs: 144 KiB does not fit a 99 KiB GPU");
  const course::Fit f = course::fits(configs[named(configs, "128x256x32 8x16 s3 swizzled")],
                                     course::reference_gpu("RTX 4090").limits);
  CHECK(f.why == "needs 144 KiB of shared memory per block; this GPU gives 99 KiB");
}

TEST_CASE("lesson 10: mma_sync_gemm's choice fits, or the lesson says why not", "[cpu][choices]") {
  const auto& configs = lesson10::mma_configs();
  const int large = lesson10::headline_config_index(true);
  const std::vector<int> tiers = {large, named(configs, "64x128x32 w32x64 s4 swizzled"),
                                  named(configs, "64x64x32 w32x32 s4 swizzled")};
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    for (const auto& [M, N] : sizes()) {
      INFO(g.label << ", " << M << " x " << N);
      if (g.limits.cc() < 80) {
        // No bf16 tensor cores: the choice fails and says so.
        try {
          (void)lesson10::mma_config_for(M, N, g.limits);
          FAIL("mma_config_for chose a configuration on a GPU without bf16 tensor cores");
        } catch (const std::runtime_error& e) {
          const std::string why = e.what();
          INFO(why);
          CHECK(why.find("needs compute capability 8.0 (bf16 tensor cores); this GPU has 7.5") !=
                std::string::npos);
        }
        continue;
      }
      const int chosen = lesson10::mma_config_for(M, N, g.limits);
      check_chosen(configs[chosen], g.limits);
      check_blocks(configs[chosen], g.limits);
      if (is_hopper(g)) CHECK(chosen == by_grid(configs, tiers, M, N, g.limits.sm_count));
      // Where the grid calls for the 128 x 128 tile, it is the 128 x 128 tile.
      if (by_grid(configs, tiers, M, N, g.limits.sm_count) == large) {
        CHECK(configs[chosen].bm == 128);
        CHECK(configs[chosen].bn == 128);
      }
    }
  }
  INFO("an SM of 100 KiB holds one block of the 96 KiB tile: the 48 KiB one holds two");
  const int shallow = named(configs, "128x128x32 w64x64 s3 swizzled");
  for (const char* label : {"A100 SXM4 40GB", "RTX 3090", "RTX 4090", "RTX 5070 Ti"}) {
    INFO(label);
    CHECK(lesson10::mma_config_for(4096, 4096, course::reference_gpu(label).limits) == shallow);
  }
}

TEST_CASE("lesson 10: wmma_gemm fits from compute capability 8.0 on", "[cpu][choices]") {
  const course::VariantInfo& wmma = lesson10::wmma_variant();
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    INFO(g.label);
    const course::Fit f = course::fits(wmma, g.limits);
    CHECK(f.ok == (g.limits.cc() >= 80));
    if (!f) CHECK(f.why == "needs compute capability 8.0 (bf16 tensor cores); this GPU has 7.5");
  }
}

TEST_CASE(
    "lesson 11: the wgmma rungs fit an H100 and an H200, the portable rung every GPU with TMA",
    "[cpu][choices]") {
  std::vector<course::VariantInfo> wgmma, portable;
  for (const lesson11::Rung& r : lesson11::rungs()) {
    (r.run == &lesson11::portable_gemm ? portable : wgmma).push_back(r);
  }
  wgmma.insert(wgmma.end(), lesson11::lab::variants().begin(), lesson11::lab::variants().end());
  REQUIRE(portable.size() == 1);
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    for (const course::VariantInfo& v : wgmma) {
      const course::Fit f = course::fits(v, g.limits);
      INFO(g.label << ": " << v.name << ": " << f.why);
      CHECK(f.ok == is_hopper(g));
      if (!f) CHECK(f.why.rfind("needs compute capability 9.0 (", 0) == 0);
    }
    // TMA from 9.0 on: the RTX 5070 Ti (12.0, 99 KiB of shared memory per block) too, not the
    // RTX 4090 (8.9) nor older GPUs.
    const course::Fit f = course::fits(portable.front(), g.limits);
    INFO(g.label << ": portable_gemm: " << f.why);
    CHECK(f.ok == (g.limits.cc() >= 90));
    if (!f) CHECK(f.why.rfind("needs compute capability 9.0 (TMA", 0) == 0);
  }
  CHECK(course::fits(portable.front(), course::reference_gpu("RTX 5070 Ti").limits).ok);
  // The rungs are described (threads, shared memory), so where they fit they fit for good reason.
  for (const lesson11::Rung& r : lesson11::rungs()) {
    INFO(r.name);
    CHECK(r.threads > 0);
    CHECK(r.smem_bytes > 0);
    check_chosen(r, course::reference_gpu("H100 SXM5").limits);
  }
}

// ---- On a GPU: the tables against the compiler and the CUDA runtime --------------------------

namespace {

// Every variant of lessons 05 to 10 that names its kernel.
std::vector<course::VariantInfo> described_variants() {
  std::vector<course::VariantInfo> out;
  for (const auto& v : lesson06::lesson_kernels()) out.push_back(v);
  for (const auto& v : lesson07::register_tiling_kernels()) out.push_back(v);
  for (const auto& v : lesson08::warptiled_configs()) out.push_back(v);
  for (const auto& v : lesson09::sgemm_configs()) out.push_back(v);
  for (const auto& v : lesson10::mma_configs()) out.push_back(v);
  out.push_back(lesson10::wmma_variant());
  return out;
}

}  // namespace

TEST_CASE("on this GPU: the tables describe their kernels, the runtime agrees with the fit",
          "[gpu][choices]") {
  const course::DeviceLimits& here = course::current_device_info().limits;
  lesson06::prepare_tuned_kernels();  // lesson 06's kernels with the attributes they launch with
  for (const course::VariantInfo& v : described_variants()) {
    INFO(v.name);
    REQUIRE(v.kernel != nullptr);
    const course::Fit f = course::fits_current_device(v);
    if (v.min_cc > here.cc()) {
      CHECK_FALSE(f.ok);
      continue;  // its kernel is a trap here, nothing more to compare
    }
    const course::KernelAttributes a = course::kernel_attributes(v.kernel);
    INFO("compiled: " << a.regs << " registers, " << a.static_smem << " B static, at most "
                      << a.max_threads_per_block << " threads");
    CHECK(a.static_smem == v.static_smem_bytes);
    CHECK(a.max_threads_per_block == v.threads);  // __launch_bounds__(threads)
    CHECK(a.regs <= course::launch_bounds_registers(v.threads, course::promised_blocks(v, here)));
    INFO(f.why);
    if (f) CHECK(course::resident_blocks(v, here, &a) == course::occupancy_blocks_per_sm(v));
  }
}

TEST_CASE("on this GPU: each lesson's choice fits it", "[gpu][choices]") {
  const course::DeviceLimits& here = course::current_device_info().limits;
  for (const auto& [M, N] : sizes()) {
    INFO(M << " x " << N);
    CHECK(course::fits_current_device(
              lesson08::warptiled_configs()[lesson08::choose_warptiled_config(M, N, here)])
              .ok);
    CHECK(course::fits_current_device(
              lesson09::sgemm_configs()[lesson09::final_config_for(M, N, here)])
              .ok);
    if (here.cc() >= 80) {
      CHECK(
          course::fits_current_device(lesson10::mma_configs()[lesson10::mma_config_for(M, N, here)])
              .ok);
    }
    const lesson06::TunedPlan plan = lesson06::plan_tuned_sgemm(M, N);
    CHECK(course::fits_current_device(lesson06::tuned_configs()[plan.chosen]).ok);
  }
}
