#include "common/gemm_driver.hpp"

#include "common/buffers.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"
#include "common/todo.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace course {

void add_sgemm_options(Cli& cli) {
  cli.number("size", 4096, "M = N = K of the timed problem")
      .number("m", 4096, "rows of A and C (overrides --size)")
      .number("n", 4096, "columns of B and C (overrides --size)")
      .number("k", 4096, "columns of A, rows of B (overrides --size)")
      .number("reps", 10, "timed repetitions")
      .number("warmup", 2, "untimed runs before timing")
      .flag("json", "also print one JSON line per kernel")
      .flag("no-check", "skip the correctness checks")
      .flag("check-only", "check every kernel, time nothing (no cuBLAS): what the sanitizers run")
      .flag("headline-only",
            "time the headline kernel alone, unchecked, and nothing else: `make grade`'s speed");
}

bool headline_only(const Cli& cli) {
  return cli.on("headline-only");
}

GemmShape sgemm_shape_from(const Cli& cli) {
  const int size = static_cast<int>(cli.get("size"));
  GemmShape s;
  s.M = cli.given("m") ? static_cast<int>(cli.get("m")) : size;
  s.N = cli.given("n") ? static_cast<int>(cli.get("n")) : size;
  s.K = cli.given("k") ? static_cast<int>(cli.get("k")) : size;
  return s;
}

namespace {

// What differs between the FP32 and the bf16 driver.
struct Precision {
  const char* baseline;  // the cuBLAS row of the table
  const char* json;      // "fp32" or "bf16"
  GemmShape ragged;      // the ragged check's shape
};

// The driver of both precisions: `check_fn(fn, shape, options)` and `bench(fn, M, N, K, timing)`
// are check_sgemm / bench_sgemm_vs_cublas or their bf16 twins; `cublas(handle)` the baseline as a
// kernel.
template <typename Named, typename Check, typename Bench, typename Cublas>
std::vector<SgemmResult> measure_kernels(const Cli& cli, const LessonId& lesson,
                                         const std::vector<Named>& kernels, const Precision& p,
                                         const Check& check_fn, const Bench& bench,
                                         const Cublas& cublas) {
  const GemmShape s = sgemm_shape_from(cli);
  const DeviceInfo dev = probe_device(0);
  TimingOptions timing;
  timing.reps = static_cast<int>(cli.get("reps"));
  timing.warmup = static_cast<int>(cli.get("warmup"));
  // Each repetition starts with a cold L2, so a small problem is not timed out of the cache.
  timing.flush_l2 = true;

  // --headline-only: the headline kernel alone, timed and not checked (the grader checked it).
  std::vector<Named> chosen;
  for (const Named& k : kernels) {
    if (!headline_only(cli) || k.headline) chosen.push_back(k);
  }
  if (headline_only(cli) && chosen.empty()) {
    throw std::logic_error("--headline-only: " + lesson.id + " names no headline kernel");
  }
  const bool check = !cli.on("no-check") && !headline_only(cli);

  std::vector<SgemmResult> results;
  for (const Named& k : chosen) {
    SgemmResult r;
    r.name = k.name;
    // A kernel not written yet is the expected state of a fresh exercise: it is reported as such
    // and the other kernels (the given ones, the earlier lessons') still run.
    try {
      if (check) {
        r.checked = true;
        r.passed = true;
        for (GemmShape shape : {p.ragged, GemmShape{s.M, s.N, s.K, 1.0f, 0.0f}}) {
          VerifyOptions o;
          o.label = k.name;
          VerifyReport v = check_fn(k.fn, shape, o);
          if (!v.passed) {
            std::printf("%s", v.describe().c_str());
            r.passed = false;
          }
        }
      }
      if (!cli.on("check-only")) r.bench = bench(k.fn, s.M, s.N, s.K, timing);
    } catch (const NotImplemented& e) {
      r.checked = r.passed = false;
      r.not_written = e.what();
      note_not_written(e.what());  // guarded_main ends the output with it
    }
    results.push_back(r);
  }
  auto check_cell = [](const SgemmResult& r) -> std::string {
    if (!r.not_written.empty()) return "not written yet";
    return !r.checked ? "skipped" : (r.passed ? "passed" : "FAILED");
  };
  if (cli.on("check-only")) {
    std::printf("\n%s on %s: checked at M=%d N=%d K=%d and at %s (nothing timed)\n",
                lesson.id.c_str(), dev.name.c_str(), s.M, s.N, s.K, p.ragged.str().c_str());
    Table t({"kernel", "check"});
    for (const SgemmResult& r : results) t.add_row({r.name, check_cell(r)});
    t.print();
    return results;
  }

  std::printf(
      "\n%s on %s, M=%d N=%d K=%d, median of %d runs (%s timed in the same process on the "
      "same inputs)\n",
      lesson.id.c_str(), dev.name.c_str(), s.M, s.N, s.K, timing.reps, p.baseline);
  Table t({"kernel", "ms", "TFLOP/s", "% of cuBLAS", "spread", "check"});
  // The baseline's row: timed with the first kernel that ran, or on its own when none did.
  auto timed = std::find_if(results.begin(), results.end(),
                            [](const SgemmResult& r) { return r.not_written.empty(); });
  GemmBench baseline;
  if (timed != results.end()) {
    baseline = timed->bench;
  } else if (!results.empty()) {
    CublasHandle handle;
    baseline = bench(cublas(handle.get()), s.M, s.N, s.K, timing);
  }
  if (!results.empty()) {
    t.add_row({p.baseline, fixed(baseline.cublas.median_ms, 3), fixed(baseline.cublas_tflops, 2),
               "100.0%", fixed(100 * baseline.cublas.spread(), 1) + "%", "-"});
  }
  for (const SgemmResult& r : results) {
    if (!r.not_written.empty()) {
      t.add_row({r.name, "-", "-", "-", "-", check_cell(r)});
      continue;
    }
    t.add_row({r.name, fixed(r.bench.kernel.median_ms, 3), fixed(r.bench.kernel_tflops, 2),
               fixed(r.bench.pct_of_cublas, 1) + "%", fixed(100 * r.bench.kernel.spread(), 1) + "%",
               check_cell(r)});
  }
  t.print();
  if (cli.on("json")) {
    for (std::size_t i = 0; i < results.size(); ++i) {
      const SgemmResult& r = results[i];
      if (!r.not_written.empty()) continue;  // nothing was measured
      GemmMeasurement m;
      m.lesson = lesson.id;
      m.kernel = r.name;
      m.M = s.M;
      m.N = s.N;
      m.K = s.K;
      m.ms = r.bench.kernel.median_ms;
      m.spread = r.bench.kernel.spread();
      m.tflops = r.bench.kernel_tflops;
      m.cublas_ms = r.bench.cublas.median_ms;
      m.cublas_tflops = r.bench.cublas_tflops;
      m.pct_of_cublas = r.bench.pct_of_cublas;
      m.checked = r.checked;
      m.passed = r.passed;
      m.headline = chosen[i].headline;
      m.gpu = dev.name;
      m.precision = p.json;
      m.intensity = chosen[i].intensity;
      m.print();
    }
  }
  return results;
}

}  // namespace

std::vector<SgemmResult> measure_sgemm_kernels(const Cli& cli, const LessonId& lesson,
                                               const std::vector<NamedSgemm>& kernels) {
  return measure_kernels(cli, lesson, kernels,
                         Precision{"cuBLAS SGEMM", "fp32", GemmShape{257, 255, 300, 1.25f, -0.75f}},
                         check_sgemm, bench_sgemm_vs_cublas, cublas_sgemm_fn);
}

std::vector<SgemmResult> measure_bf16_kernels(const Cli& cli, const LessonId& lesson,
                                              const std::vector<NamedBf16Gemm>& kernels) {
  return measure_kernels(cli, lesson, kernels,
                         Precision{"cuBLAS bf16", "bf16", GemmShape{257, 255, 264, 1.25f, -0.75f}},
                         check_bf16_gemm, bench_bf16_vs_cublas, cublas_gemm_bf16_fn);
}

namespace {

std::vector<float> random_of(float, int rows, int cols, std::uint64_t seed) {
  return random_matrix(rows, cols, seed);
}
std::vector<bf16> random_of(bf16, int rows, int cols, std::uint64_t seed) {
  return random_matrix_bf16(rows, cols, seed);
}

template <typename T>
void sweep_impl(const Cli& cli, const LessonId& lesson, const std::vector<std::string>& names,
                const ConfigRunner<T>& run) {
  const GemmShape s = sgemm_shape_from(cli);
  // A is M x K; B is K x N (FP32) or N x K (bf16): the same number of elements either way.
  DeviceBuffer<T> A(random_of(T{}, s.M, s.K, derive_seed("sweep A")));
  DeviceBuffer<T> B(random_of(T{}, s.K, s.N, derive_seed("sweep B")));
  DeviceBuffer<T> C(static_cast<std::size_t>(s.M) * s.N);
  TimingOptions timing;
  timing.reps = static_cast<int>(cli.get("reps"));
  timing.warmup = static_cast<int>(cli.get("warmup"));
  timing.flush_l2 = true;
  const double flops = gemm_flops(s.M, s.N, s.K);
  const std::string gpu = probe_device(0).name;
  std::printf("\nevery configuration at M=%d N=%d K=%d, median of %d runs (not checked here)\n",
              s.M, s.N, s.K, timing.reps);
  Table t({"#", "configuration", "ms", "TFLOP/s"});
  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    const double ms =
        time_gpu([&] { run(i, s.M, s.N, s.K, A.data(), B.data(), C.data()); }, timing).median_ms;
    t.add_row({std::to_string(i), names[i], fixed(ms, 3), fixed(tflops(flops, ms), 2)});
    if (cli.on("json")) {
      measurement_line(lesson.id, "sweep")
          .add("kernel", names[i])
          .add("M", s.M)
          .add("ms", ms)
          .add("tflops", tflops(flops, ms))
          .add("gpu", gpu)
          .print();
    }
  }
  t.print();
}

}  // namespace

void sweep_configurations(const Cli& cli, const LessonId& lesson,
                          const std::vector<std::string>& names, const ConfigRunner<float>& run) {
  sweep_impl(cli, lesson, names, run);
}

void sweep_configurations(const Cli& cli, const LessonId& lesson,
                          const std::vector<std::string>& names, const ConfigRunner<bf16>& run) {
  sweep_impl(cli, lesson, names, run);
}

int sgemm_exit_code(const std::vector<SgemmResult>& results) {
  for (const SgemmResult& r : results) {
    if (r.checked && !r.passed) return static_cast<int>(kExitFailed);
  }
  return static_cast<int>(kExitOk);
}

int run_sgemm_lesson(int argc, char** argv, const LessonId& lesson, const std::string& summary,
                     const std::vector<NamedSgemm>& kernels) {
  Cli cli("lesson" + lesson.id, summary);
  add_sgemm_options(cli);
  cli.parse(argc, argv);
  return guarded_main(lesson, [&] {
    require_device(lesson);
    return sgemm_exit_code(measure_sgemm_kernels(cli, lesson, kernels));
  });
}

}  // namespace course
