// Lesson 06: occupancy. For lesson 05's tiled kernel (TILE 16 and 32) and the tuned family: what
// the compiler gave each block (registers, shared memory), what the calculator says fits on an SM
// and why, what the CUDA runtime says, and how many waves the grid takes. Then wave quantization on
// a kernel of fixed per-block work, the tuned kernel timed at every occupancy it can have, and all
// the SGEMMs checked against Eigen and timed against cuBLAS.
//
//   make lesson-6                       your exercise
//   make lesson-6 SOLUTION=1            the reference solution
//   make lesson-6 ARGS="--size 2048"    options: --size, --m/--n/--k, --reps, --warmup, --json
#include "occupancy.hpp"
#include "occupancy_sgemm.hpp"

#include "common/buffers.hpp"
#include "common/gemm_driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using course::fixed;
using lesson06::KernelUsage;
using lesson06::Occupancy;
using lesson06::SmLimits;

std::string blocks_str(int b) {
  return b == lesson06::kNoLimit ? "-" : std::to_string(b);
}

std::string pct(double fraction) {
  return fixed(100.0 * fraction, 1) + "%";
}

//! [kernel_table]
// One row per kernel: the compiler's usage, the calculator's four limits and answer, the runtime's.
void print_occupancy_table(const SmLimits& sm, bool json) {
  course::Table t({"kernel", "threads", "regs", "smem B", "carve-out", "by thr", "by regs",
                   "by smem", "by blk", "blocks/SM", "runtime", "warps", "occupancy", "limit"});
  for (const lesson06::LessonKernel& k : lesson06::lesson_kernels()) {
    const KernelUsage u = lesson06::kernel_usage(k.kernel, k.threads, 0);
    const Occupancy o = lesson06::occupancy(sm, u);
    const int api = lesson06::api_blocks_per_sm(k.kernel, k.threads, 0);
    t.add_row({k.name, std::to_string(u.threads_per_block), std::to_string(u.regs_per_thread),
               std::to_string(u.static_smem_bytes),
               u.carveout_percent < 0 ? "-" : std::to_string(u.carveout_percent) + "%",
               blocks_str(o.by_threads), blocks_str(o.by_registers), blocks_str(o.by_shared_memory),
               blocks_str(o.by_blocks), std::to_string(o.blocks_per_sm),
               std::to_string(api) + (api == o.blocks_per_sm ? "" : " (differs!)"),
               std::to_string(o.active_warps), pct(o.occupancy), lesson06::limit_name(o.limit)});
    if (json) {
      course::measurement_line(course::this_lesson().id, "occupancy")
          .add("kernel", k.name)
          .add("threads", u.threads_per_block)
          .add("regs", u.regs_per_thread)
          .add("static_smem", static_cast<long>(u.static_smem_bytes))
          .add("blocks_per_sm", o.blocks_per_sm)
          .add("runtime_blocks_per_sm", api)
          .add("occupancy", o.occupancy)
          .add("limit", lesson06::limit_name(o.limit))
          .add("gpu", sm.name)
          .print();
    }
  }
  t.print();
}
//! [kernel_table]

// The waves of every configuration's grid at M x N, and the planner's choice.
void print_plan(const lesson06::TunedPlan& plan, const course::GemmShape& s) {
  course::Table t({"configuration", "tile", "blocks/SM", "warps", "grid", "per wave", "waves",
                   "last wave", "efficiency", "chosen"});
  auto add = [&](const std::string& name, int tile_m, int tile_n, const KernelUsage& u,
                 bool chosen) {
    const Occupancy o = lesson06::occupancy(plan.sm, u);
    const long long grid = lesson06::ceil_div(s.M, tile_m) * lesson06::ceil_div(s.N, tile_n);
    const lesson06::Waves w = lesson06::waves(plan.sm_count, o.blocks_per_sm, grid);
    t.add_row({name, std::to_string(tile_m) + "x" + std::to_string(tile_n),
               std::to_string(o.blocks_per_sm), std::to_string(o.active_warps),
               std::to_string(grid), std::to_string(w.blocks_per_wave), fixed(w.exact, 2),
               pct(w.last_wave_fill), pct(w.efficiency), chosen ? "<==" : ""});
  };
  for (const lesson06::LessonKernel& k : lesson06::lesson_kernels()) {
    if (k.name.rfind("tiled", 0) != 0) continue;
    const int tile = k.name.find("<16>") != std::string::npos ? 16 : 32;
    add(k.name, tile, tile, lesson06::kernel_usage(k.kernel, k.threads, 0), false);
  }
  for (int i = 0; i < static_cast<int>(plan.candidates.size()); ++i) {
    const lesson06::LaunchCandidate& c = plan.candidates[i];
    add(c.name, c.tile_m, c.tile_n, c.usage, i == plan.chosen);
  }
  t.print();
}

//! [wave_demo]
// Wave quantization: every block of the spin kernel takes the same time, so a launch takes
// (waves) x (one block's time). One wave exactly, then one block more.
void wave_demo(const SmLimits& sm, int sm_count, const course::TimingOptions& timing, bool json) {
  const int threads = 1024;
  const Occupancy o =
      lesson06::occupancy(sm, lesson06::kernel_usage(lesson06::spin_kernel(), threads, 0));
  const long long wave = 1LL * sm_count * o.blocks_per_sm;
  const double spin_us = 40;
  const std::vector<long long> grids = {wave / 2,        wave,     wave + 1,
                                        wave + wave / 2, 2 * wave, 2 * wave + 1};
  const auto steps = lesson06::measure_wave_quantization(grids, threads, o.blocks_per_sm, spin_us,
                                                         timing.reps, timing.warmup);
  std::printf(
      "\nwave quantization: blocks of %d threads that each spin for %.0f us; the calculator says "
      "%d per SM (%s), %lld per wave on %d SMs\n",
      threads, spin_us, o.blocks_per_sm, lesson06::limit_name(o.limit).c_str(), wave, sm_count);
  course::Table t({"grid blocks", "waves", "last wave", "ms", "ms per wave"});
  for (const lesson06::WaveStep& s : steps) {
    t.add_row({std::to_string(s.grid_blocks), fixed(s.waves.exact, 3), pct(s.waves.last_wave_fill),
               fixed(s.ms, 4), fixed(s.ms / s.waves.waves, 4)});
    if (json) {
      course::measurement_line(course::this_lesson().id, "wave_quantization")
          .add("grid_blocks", static_cast<long>(s.grid_blocks))
          .add("blocks_per_wave", static_cast<long>(s.waves.blocks_per_wave))
          .add("waves", static_cast<long>(s.waves.waves))
          .add("ms", s.ms)
          .add("gpu", sm.name)
          .print();
    }
  }
  t.print();
}
//! [wave_demo]

//! [occupancy_sweep]
// Each configuration at every occupancy it can have: unused dynamic shared memory (the calculator
// finds how much) lowers the blocks per SM without changing a single instruction.
void occupancy_sweep(const lesson06::TunedPlan& plan, const course::GemmShape& s,
                     const course::TimingOptions& timing, bool json) {
  const SmLimits& sm = plan.sm;
  course::DeviceBuffer<float> A(course::random_matrix(s.M, s.K, course::derive_seed("sweep A")));
  course::DeviceBuffer<float> B(course::random_matrix(s.K, s.N, course::derive_seed("sweep B")));
  course::DeviceBuffer<float> C(static_cast<std::size_t>(s.M) * s.N);
  std::printf(
      "\neach configuration at every occupancy, M=%d N=%d K=%d (padding: unused dynamic "
      "shared memory)\n",
      s.M, s.N, s.K);
  course::Table t({"configuration", "blocks/SM", "warps", "occupancy", "padding B", "runtime", "ms",
                   "TFLOP/s"});
  for (int c = 0; c < static_cast<int>(plan.candidates.size()); ++c) {
    const lesson06::LaunchCandidate& cand = plan.candidates[c];
    std::map<int, std::size_t> padding_for;  // blocks per SM -> the least padding that gives it
    for (std::size_t pad = 0; pad + cand.usage.static_smem_bytes <= sm.smem_per_block_optin_bytes;
         pad += sm.smem_alloc_unit_bytes) {
      KernelUsage u = cand.usage;
      u.dynamic_smem_bytes = pad;
      const int b = lesson06::occupancy(sm, u).blocks_per_sm;
      if (b > 0 && padding_for.count(b) == 0) padding_for[b] = pad;
    }
    for (auto it = padding_for.rbegin(); it != padding_for.rend(); ++it) {
      KernelUsage u = cand.usage;
      u.dynamic_smem_bytes = it->second;
      const Occupancy o = lesson06::occupancy(sm, u);
      const int api = lesson06::api_blocks_per_sm(lesson06::tuned_configs()[c].kernel,
                                                  u.threads_per_block, it->second);
      const double ms = course::time_gpu(
                            [&] {
                              lesson06::tuned_config_sgemm(c, it->second, s.M, s.N, s.K, 1.0f,
                                                           A.data(), B.data(), 0.0f, C.data());
                            },
                            timing)
                            .ms();
      const double tf = course::tflops(course::gemm_flops(s.M, s.N, s.K), ms);
      t.add_row({cand.name + (c == plan.chosen ? " (chosen)" : ""), std::to_string(o.blocks_per_sm),
                 std::to_string(o.active_warps), pct(o.occupancy), std::to_string(it->second),
                 std::to_string(api), fixed(ms, 3), fixed(tf, 2)});
      if (json) {
        course::measurement_line(course::this_lesson().id, "occupancy_sweep")
            .add("kernel", cand.name)
            .add("blocks_per_sm", o.blocks_per_sm)
            .add("occupancy", o.occupancy)
            .add("ms", ms)
            .add("tflops", tf)
            .add("gpu", sm.name)
            .print();
      }
    }
  }
  t.print();
}
//! [occupancy_sweep]

// What the calculator says about the lesson's kernels on this GPU: the limits, the table, the
// waves, the wave demo and every occupancy of the tuned family. The calculator is yours: while it
// is a stub, this is skipped (and named at the end) and only the kernels that do not need it are
// measured.
void calculator_part(course::LessonRun& run) {
  course::try_yours([&] {
    const course::GemmShape& s = run.shape;
    //! [limits]
    const SmLimits sm = lesson06::query_sm_limits(run.device.index);
    const int sm_count = run.limits().sm_count;
    std::printf(
        "%s: %d SMs; per SM %d threads (%d warps), %d blocks, %d registers, %zu KiB of shared "
        "memory (%zu per block with opt-in, %zu B reserved per block)\n\n",
        sm.name.c_str(), sm_count, sm.max_threads_per_sm, sm.max_warps_per_sm, sm.max_blocks_per_sm,
        sm.regs_per_sm, sm.smem_per_sm_bytes / 1024, sm.smem_per_block_optin_bytes / 1024,
        sm.smem_reserved_per_block_bytes);
    //! [limits]

    // Planning sets the tuned kernels' carve-outs, so the table shows them as they launch.
    const lesson06::TunedPlan plan = lesson06::plan_tuned_sgemm(s.M, s.N);
    std::printf("what fits on one SM: the calculator (by each limit) and the CUDA runtime\n");
    print_occupancy_table(sm, run.json);

    std::printf("\nwaves at M=%d N=%d on %d SMs, and the planner's choice\n", s.M, s.N, sm_count);
    print_plan(plan, s);

    wave_demo(sm, sm_count, run.timing(), run.json);
    occupancy_sweep(plan, s, run.timing(), run.json);
  });
}

//! [kernels]
// Lesson 05's kernels and every tuned configuration (while your calculator is a stub, only lesson
// 05's), then the headline. Each with its FLOP per byte loaded from global memory: TILE / 4 for a
// TILE x TILE tile, 2 BM BN / (4 (BM + BN)) for a BM x BN one.
std::vector<course::NamedGemm<course::Fp32>> kernels(course::LessonRun& run) {
  std::optional<lesson06::TunedPlan> plan;
  course::try_yours([&] { plan = lesson06::plan_tuned_sgemm(run.shape.M, run.shape.N); });
  std::vector<course::NamedGemm<course::Fp32>> out;
  for (const lesson06::LessonKernel& k : lesson06::lesson_kernels()) {
    if (plan || k.name.rfind("tiled", 0) == 0) out.push_back({k.name, k.run, false, k.intensity});
  }
  out.push_back({"tuned_tiled_sgemm", &lesson06::tuned_tiled_sgemm, /*headline=*/true,
                 plan ? lesson06::tuned_configs()[plan->chosen].intensity : 0.0});
  return out;
}
//! [kernels]

}  // namespace

int main(int argc, char** argv) {
  course::GemmLesson<course::Fp32> lesson(course::this_lesson(),
                                          "occupancy: the calculator against the CUDA runtime, "
                                          "waves, and a tiled SGEMM launched the way the "
                                          "calculator says");
  lesson.gpu_part = calculator_part;
  lesson.kernels = kernels;
  return lesson.run(argc, argv);
}
