// Lesson 08: warp shuffles and warp tiling. First the shuffles on their own (a broadcast, the
// butterfly all-reduce, the 2 x 2 cooperative outer product), each checked against the host; then
// the warp-tiled SGEMM's configurations with what lesson 06's calculator says about them; then
// every SGEMM checked against Eigen and timed against cuBLAS in the same process (4096^3 unless
// told otherwise), with lesson 06's tuned kernel, the previous rung, for comparison.
//
//   make lesson-8                       your exercise
//   make lesson-8 SOLUTION=1            the reference solution
//   make lesson-8 ARGS="--size 2048"    options: --size, --m/--n/--k, --reps, --warmup, --json
#include "warp_shuffle.hpp"
#include "warptiled_sgemm.hpp"

#include "lessons/06-occupancy/occupancy.hpp"        // lesson 06's calculator (its solution)
#include "lessons/06-occupancy/occupancy_sgemm.hpp"  // lesson 06's tuned_tiled_sgemm

#include "common/buffers.hpp"
#include "common/gemm_check.hpp"
#include "common/gemm_driver.hpp"
#include "common/report.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using course::fixed;

std::string num(float v) {
  return fixed(v, 0);
}

//! [broadcast_demo]
// Task 1: 80 values (two and a half warps), in[i] = i, broadcast from lane 5 of each warp.
bool broadcast_demo() {
  const int n = 80, src = 5;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  course::DeviceBuffer<float> d_in(in), d_out(n);
  lesson08::warp_broadcast(d_in.data(), d_out.data(), n, src);
  const std::vector<float> out = d_out.to_host();
  bool ok = true;
  std::printf("broadcast from lane %d, in[i] = i for i < %d:\n", src, n);
  for (int w = 0; w * lesson08::kWarpSize < n; ++w) {
    const int first = w * lesson08::kWarpSize;
    const int last = std::min(n, first + lesson08::kWarpSize) - 1;
    const int want_index = first + src;
    const float want = want_index < n ? in[want_index] : 0.0f;
    int same = 0;
    for (int i = first; i <= last; ++i) same += out[i] == want;
    ok = ok && same == last - first + 1;
    std::printf("  warp %d (elements %d..%d): %d of %d lanes got %s, in[%d]\n", w, first, last,
                same, last - first + 1, num(want).c_str(), want_index);
  }
  return ok;
}
//! [broadcast_demo]

//! [butterfly_demo]
// Task 2: the butterfly on the host (lane l holds l), stage by stage, then the GPU's warp_sums on
// the same values: every lane must hold the total, with the very same bits.
bool butterfly_demo() {
  std::array<float, lesson08::kWarpSize> lanes{};
  for (int l = 0; l < lesson08::kWarpSize; ++l) lanes[l] = static_cast<float>(l);
  const auto stages = lesson08::emulate_butterfly(lanes);
  std::printf("\nbutterfly all-reduce, lane l holding l (the host's emulation, stage by stage):\n");
  course::Table t({"offset", "lane 0 adds lane", "lane 0", "lane 1", "lane 2", "lane 3", "lane 7",
                   "lane 16", "lane 31"});
  int s = 0;
  for (int offset = lesson08::kWarpSize / 2; offset >= 1; offset /= 2, ++s) {
    const auto& v = stages[s];
    t.add_row({std::to_string(offset), std::to_string(lesson08::butterfly_partner(0, offset)),
               num(v[0]), num(v[1]), num(v[2]), num(v[3]), num(v[7]), num(v[16]), num(v[31])});
  }
  t.print();
  course::DeviceBuffer<float> d_in(std::vector<float>(lanes.begin(), lanes.end()));
  course::DeviceBuffer<float> d_out(lesson08::kWarpSize);
  lesson08::warp_sums(d_in.data(), d_out.data(), lesson08::kWarpSize);
  const std::vector<float> gpu = d_out.to_host();
  int same = 0;
  for (int l = 0; l < lesson08::kWarpSize; ++l) same += gpu[l] == stages[4][l];
  std::printf("GPU warp_sums: %d of 32 lanes hold %s, bit for bit the emulation's sum\n", same,
              num(stages[4][0]).c_str());
  return same == lesson08::kWarpSize;
}
//! [butterfly_demo]

//! [quad_demo]
// Task 3: who loads what and who reads whom in a quad, then quad_sgemm checked against Eigen.
bool quad_demo() {
  std::printf("\nthe 2 x 2 cooperative outer product: one load per lane, two shuffles\n");
  const char* owns[4] = {"C[r0][c0]", "C[r0][c0+1]", "C[r0+1][c0]", "C[r0+1][c0+1]"};
  const char* loads[4] = {"A[r0][k]", "A[r0+1][k]", "B[k][c0]", "B[k][c0+1]"};
  course::Table t({"quad lane", "owns", "loads", "A from lane", "B from lane"});
  for (int q = 0; q < 4; ++q) {
    t.add_row({std::to_string(q), owns[q], loads[q], std::to_string(lesson08::quad_a_source(q)),
               std::to_string(lesson08::quad_b_source(q))});
  }
  t.print();
  course::VerifyOptions o;
  o.label = "quad_sgemm";
  const course::VerifyReport r =
      course::check_gemm(&lesson08::quad_sgemm, course::Fp32::kRaggedShape, o);
  std::printf("quad_sgemm at M=257 N=255 K=300: %s\n", r.passed ? "passed" : "FAILED");
  if (!r.passed) std::printf("%s", r.describe().c_str());
  return r.passed;
}
//! [quad_demo]

//! [config_table]
// The configurations: what each asks of an SM (the compiler's registers, the static shared
// memory), what lesson 06's calculator makes of it, and the grid at the timed size.
void print_configs(const course::LessonRun& run) {
  const course::GemmShape& s = run.shape;
  const lesson06::SmLimits sm = lesson06::query_sm_limits(run.device.index);
  const int sm_count = run.limits().sm_count;
  const int chosen = lesson08::choose_warptiled_config(s.M, s.N, run.limits());
  std::printf("\nthe warp-tiled configurations on %s (%d SMs), at M=%d N=%d\n", sm.name.c_str(),
              sm_count, s.M, s.N);
  course::Table t({"configuration", "threads", "results", "regs", "smem KiB", "blocks/SM",
                   "warps/SM", "limit", "FLOP/B", "grid", "waves", "chosen"});
  const auto& configs = lesson08::warptiled_configs();
  for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
    const lesson08::WarpTiledConfig& c = configs[i];
    const lesson06::KernelUsage u = lesson06::kernel_usage(c.kernel, c.threads, 0);
    const lesson06::Occupancy o = lesson06::occupancy(sm, u);
    const long long grid =
        lesson06::ceil_div(s.M, c.shape.bm) * lesson06::ceil_div(s.N, c.shape.bn);
    const lesson06::Waves w = lesson06::waves(sm_count, o.blocks_per_sm, grid);
    t.add_row({c.name, std::to_string(c.threads), std::to_string(c.shape.results()),
               std::to_string(u.regs_per_thread), fixed(u.static_smem_bytes / 1024.0, 0),
               std::to_string(o.blocks_per_sm), std::to_string(o.active_warps),
               lesson06::limit_name(o.limit), fixed(c.intensity, 1), std::to_string(grid),
               fixed(w.exact, 2), i == chosen ? "<==" : ""});
    if (run.json) {
      course::measurement_line(run.lesson.id, "config")
          .add("kernel", c.name)
          .add("threads", c.threads)
          .add("regs", u.regs_per_thread)
          .add("static_smem", static_cast<long>(u.static_smem_bytes))
          .add("blocks_per_sm", o.blocks_per_sm)
          .add("warps_per_sm", o.active_warps)
          .add("gpu", sm.name)
          .print();
    }
  }
  t.print();
}
//! [config_table]

}  // namespace

int main(int argc, char** argv) {
  course::GemmLesson<course::Fp32> lesson(course::this_lesson(),
                                          "warp shuffles (broadcast, butterfly, 2x2 outer "
                                          "product), then the warp-tiled SGEMM against cuBLAS");
  lesson.gpu_part = [](course::LessonRun& run) {
    std::printf("== the shuffles, one warp at a time\n\n");
    // Each demo runs your code; one still a stub is skipped (and named at the end).
    bool ok = true;
    course::try_yours([&] { ok = broadcast_demo() && ok; });
    course::try_yours([&] { ok = butterfly_demo() && ok; });
    course::try_yours([&] { ok = quad_demo() && ok; });
    if (!ok) run.failed = true;
    print_configs(run);
  };
  lesson.kernels = [](course::LessonRun& run) {
    //! [kernels]
    // Every configuration, then the headline: tuned_warptiled_sgemm picks configuration [0] when
    // its grid has a block for (nearly) every SM, the smaller [1] otherwise.
    std::vector<course::NamedGemm<course::Fp32>> kernels = {
        {"tuned_tiled_sgemm (lesson 06)", &lesson06::tuned_tiled_sgemm, false},
    };
    for (const auto& k : course::variant_kernels(lesson08::warptiled_configs())) {
      kernels.push_back(k);
    }
    const int chosen = lesson08::choose_warptiled_config(run.shape.M, run.shape.N, run.limits());
    kernels.push_back({"tuned_warptiled_sgemm", &lesson08::tuned_warptiled_sgemm,
                       /*headline=*/true, lesson08::warptiled_configs()[chosen].intensity});
    //! [kernels]
    std::printf("\n== the SGEMMs\n");
    return kernels;
  };
  return lesson.run(argc, argv);
}
