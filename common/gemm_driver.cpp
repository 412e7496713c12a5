#include "common/gemm_driver.hpp"

#include "common/device.hpp"
#include "common/report.hpp"

#include <cstdio>

namespace course {

void add_sgemm_options(Cli& cli) {
  cli.number("size", 4096, "M = N = K of the timed problem")
      .number("m", 4096, "rows of A and C (overrides --size)")
      .number("n", 4096, "columns of B and C (overrides --size)")
      .number("k", 4096, "columns of A, rows of B (overrides --size)")
      .number("reps", 10, "timed repetitions")
      .number("warmup", 2, "untimed runs before timing")
      .flag("json", "also print one JSON line per kernel")
      .flag("no-check", "skip the correctness checks");
}

GemmShape sgemm_shape_from(const Cli& cli) {
  const int size = static_cast<int>(cli.get("size"));
  GemmShape s;
  s.M = cli.given("m") ? static_cast<int>(cli.get("m")) : size;
  s.N = cli.given("n") ? static_cast<int>(cli.get("n")) : size;
  s.K = cli.given("k") ? static_cast<int>(cli.get("k")) : size;
  return s;
}

std::vector<SgemmResult> measure_sgemm_kernels(const Cli& cli, const std::string& lesson,
                                               const std::vector<NamedSgemm>& kernels) {
  const GemmShape s = sgemm_shape_from(cli);
  const DeviceInfo dev = probe_device(0);
  TimingOptions timing;
  timing.reps = static_cast<int>(cli.get("reps"));
  timing.warmup = static_cast<int>(cli.get("warmup"));
  // Each repetition starts with a cold L2, so a small problem is not timed out of the cache.
  timing.flush_l2 = true;

  std::vector<SgemmResult> results;
  for (const NamedSgemm& k : kernels) {
    SgemmResult r;
    r.name = k.name;
    if (!cli.on("no-check")) {
      r.checked = true;
      r.passed = true;
      for (GemmShape shape :
           {GemmShape{257, 255, 300, 1.25f, -0.75f}, GemmShape{s.M, s.N, s.K, 1.0f, 0.0f}}) {
        VerifyOptions o;
        o.label = k.name;
        VerifyReport v = check_sgemm(k.fn, shape, o);
        if (!v.passed) {
          std::printf("%s", v.describe().c_str());
          r.passed = false;
        }
      }
    }
    r.bench = bench_sgemm_vs_cublas(k.fn, s.M, s.N, s.K, timing);
    results.push_back(r);
  }

  std::printf(
      "\n%s on %s, M=%d N=%d K=%d, median of %d runs (cuBLAS SGEMM timed in the same "
      "process on the same inputs)\n",
      lesson.c_str(), dev.name.c_str(), s.M, s.N, s.K, timing.reps);
  Table t({"kernel", "ms", "TFLOP/s", "% of cuBLAS", "spread", "check"});
  if (!results.empty()) {
    const GemmBench& b = results.front().bench;
    t.add_row({"cuBLAS SGEMM", fixed(b.cublas.median_ms, 3), fixed(b.cublas_tflops, 2), "100.0%",
               fixed(100 * b.cublas.spread(), 1) + "%", "-"});
  }
  for (const SgemmResult& r : results) {
    t.add_row({r.name, fixed(r.bench.kernel.median_ms, 3), fixed(r.bench.kernel_tflops, 2),
               fixed(r.bench.pct_of_cublas, 1) + "%", fixed(100 * r.bench.kernel.spread(), 1) + "%",
               !r.checked ? "skipped" : (r.passed ? "passed" : "FAILED")});
  }
  t.print();
  if (cli.on("json")) {
    for (std::size_t i = 0; i < results.size(); ++i) {
      const SgemmResult& r = results[i];
      JsonLine line;
      line.add("lesson", lesson)
          .add("kernel", r.name)
          .add("M", s.M)
          .add("N", s.N)
          .add("K", s.K)
          .add("ms", r.bench.kernel.median_ms)
          .add("spread", r.bench.kernel.spread())
          .add("tflops", r.bench.kernel_tflops)
          .add("cublas_ms", r.bench.cublas.median_ms)
          .add("cublas_tflops", r.bench.cublas_tflops)
          .add("pct_of_cublas", r.bench.pct_of_cublas)
          .add("checked", r.checked)
          .add("passed", r.passed)
          .add("headline", kernels[i].headline)
          .add("gpu", dev.name);
      if (kernels[i].intensity > 0) line.add("intensity", kernels[i].intensity);
      line.print();
    }
  }
  return results;
}

int sgemm_exit_code(const std::vector<SgemmResult>& results) {
  for (const SgemmResult& r : results) {
    if (r.checked && !r.passed) return static_cast<int>(kExitFailed);
  }
  return static_cast<int>(kExitOk);
}

int run_sgemm_lesson(int argc, char** argv, const std::string& lesson, const std::string& summary,
                     int min_cc, const std::vector<NamedSgemm>& kernels) {
  Cli cli("lesson" + lesson, summary);
  add_sgemm_options(cli);
  cli.parse(argc, argv);
  return guarded_main([&] {
    require_device(min_cc);
    return sgemm_exit_code(measure_sgemm_kernels(cli, lesson, kernels));
  });
}

}  // namespace course
