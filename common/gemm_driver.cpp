#include "common/gemm_driver.hpp"

#include "common/buffers.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"
#include "common/todo.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace course {

void add_gemm_options(Cli& cli) {
  cli.number("size", 4096, "M = N = K of the timed problem")
      .number("m", 4096, "rows of A and C (overrides --size)")
      .number("n", 4096, "columns of B and C (overrides --size)")
      .number("k", 4096, "columns of A, rows of B (overrides --size)")
      .number("reps", 10, "timed repetitions of each (burst)")
      .number("warmup", 2, "untimed runs of each before timing")
      .choice("regime", "burst", {"burst", "sustained"},
              "burst (cold L2, an idle GPU before each run: near the boost clock) or sustained "
              "(back to back at the power cap, blocks interleaved)")
      .number("sustained-ms", std::lround(TimingOptions{}.sustained_ms),
              "sustained: GPU time of each kernel, in ms (after half as long to warm up)")
      .flag("kernel-first", "the kernel, not cuBLAS, takes the first turn of the interleaving")
      .flag("json", "also print one JSON line per kernel")
      .flag("no-check", "skip the correctness checks")
      .flag("check-only", "check every kernel, time nothing (no cuBLAS): what the sanitizers run")
      .flag("headline-only",
            "time the headline kernel alone, unchecked, and nothing else: `make grade`'s speed")
      .text("only", "",
            "check and time only the kernels whose name contains one of these comma-separated "
            "texts (the lesson's and, with --sweep, the variants')");
}

void add_sweep_option(Cli& cli) {
  cli.flag("sweep", "also time every compiled configuration at the problem size (no checks)");
}

bool headline_only(const Cli& cli) {
  return cli.on("headline-only");
}

bool named_in(const std::string& only, const std::string& name) {
  if (only.empty()) return true;
  std::size_t from = 0;
  while (from <= only.size()) {
    const std::size_t comma = std::min(only.find(',', from), only.size());
    const std::string part = only.substr(from, comma - from);
    if (!part.empty() && name.find(part) != std::string::npos) return true;
    from = comma + 1;
  }
  return false;
}

GemmShape gemm_shape_from(const Cli& cli) {
  const int size = static_cast<int>(cli.get("size"));
  GemmShape s;
  s.M = cli.given("m") ? static_cast<int>(cli.get("m")) : size;
  s.N = cli.given("n") ? static_cast<int>(cli.get("n")) : size;
  s.K = cli.given("k") ? static_cast<int>(cli.get("k")) : size;
  return s;
}

TimingOptions timing_from(const Cli& cli) {
  TimingOptions timing;
  timing.reps = static_cast<int>(cli.get("reps"));
  timing.warmup = static_cast<int>(cli.get("warmup"));
  // Each burst repetition starts with a cold L2, so a small problem is not timed out of the cache.
  timing.flush_l2 = true;
  timing.regime = parse_regime(cli.str("regime"));  // one of the two: Cli::choice checked it
  timing.sustained_ms = static_cast<double>(cli.get("sustained-ms"));
  return timing;
}

namespace {

template <class P>
bool check_both(const GemmFn<P>& gemm, const std::string& label, const GemmShape& timed) {
  bool passed = true;
  for (GemmShape shape : {P::kRaggedShape, GemmShape{timed.M, timed.N, timed.K, 1.0f, 0.0f}}) {
    VerifyOptions o;
    o.label = label;
    const VerifyReport v = check_gemm(gemm, shape, o);
    if (!v.passed) {
      std::printf("%s", v.describe().c_str());
      passed = false;
    }
  }
  return passed;
}

}  // namespace

bool check_kernel(const GemmFn<Fp32>& gemm, const std::string& label, const GemmShape& timed) {
  return check_both<Fp32>(gemm, label, timed);
}

bool check_kernel(const GemmFn<Bf16>& gemm, const std::string& label, const GemmShape& timed) {
  return check_both<Bf16>(gemm, label, timed);
}

GemmMeasurement measurement_of(const GemmResult& r, const LessonId& lesson, const GemmShape& s,
                               const std::string& gpu, const std::string& precision) {
  GemmMeasurement m;
  m.lesson = lesson.id;
  m.kernel = r.name;
  m.M = s.M;
  m.N = s.N;
  m.K = s.K;
  m.ms = r.bench.kernel.ms();
  m.spread = r.bench.kernel.spread();
  m.tflops = r.bench.kernel_tflops;
  m.cublas_ms = r.bench.cublas.ms();
  m.cublas_tflops = r.bench.cublas_tflops;
  m.pct_of_cublas = r.bench.pct_of_cublas;
  m.checked = r.checked;
  m.passed = r.passed;
  m.headline = r.headline;
  m.gpu = gpu;
  m.precision = precision;
  m.intensity = r.intensity;
  m.regime = regime_name(r.bench.kernel.regime);
  m.samples = r.bench.kernel.reps;
  m.kernel_first = r.kernel_first;
  m.sm_clock_mhz = r.bench.kernel.sm_clock_mhz;
  m.cublas_sm_clock_mhz = r.bench.cublas.sm_clock_mhz;
  m.power_w = r.bench.kernel.power_w;
  m.cublas_power_w = r.bench.cublas.power_w;
  m.energy_j = r.bench.kernel.energy_j;
  m.cublas_energy_j = r.bench.cublas.energy_j;
  m.blocks = r.bench.kernel.blocks;
  m.cublas_blocks = r.bench.cublas.blocks;
  return m;
}

template <class P>
std::vector<GemmResult> measure_kernels(const Cli& cli, const LessonId& lesson,
                                        const std::vector<NamedGemm<P>>& kernels) {
  const GemmShape s = gemm_shape_from(cli);
  const DeviceInfo dev = probe_device(0);
  const TimingOptions timing = timing_from(cli);

  // --headline-only: the headline kernel alone, timed and not checked (the grader checked it).
  // --only: the kernels whose name contains one of its texts.
  std::vector<NamedGemm<P>> chosen;
  for (const NamedGemm<P>& k : kernels) {
    if ((!headline_only(cli) || k.headline) && named_in(cli.str("only"), k.name)) {
      chosen.push_back(k);
    }
  }
  if (headline_only(cli) && chosen.empty()) {
    throw std::logic_error("--headline-only: " + lesson.id + " names no headline kernel");
  }
  if (chosen.empty()) {
    std::printf("\n--only %s: no kernel of this table has one of these in its name\n",
                cli.str("only").c_str());
    return {};
  }
  const bool check = !cli.on("no-check") && !headline_only(cli);

  std::vector<GemmResult> results;
  for (const NamedGemm<P>& k : chosen) {
    GemmResult r;
    r.name = k.name;
    r.headline = k.headline;
    r.intensity = k.intensity;
    // A kernel not written yet is the expected state of a fresh exercise: it is reported as such
    // and the other kernels (the given ones, the earlier lessons') still run.
    try {
      if (check) {
        r.checked = true;
        r.passed = check_kernel(k.fn, k.name, s);
      }
      r.kernel_first = cli.on("kernel-first");
      if (!cli.on("check-only")) {
        r.bench = bench_vs_cublas(k.fn, s.M, s.N, s.K, timing, r.kernel_first);
      }
    } catch (const NotImplemented& e) {
      r.checked = r.passed = false;
      r.not_written = e.what();
      note_not_written(e.what());  // guarded_main ends the output with it
    }
    results.push_back(r);
  }
  auto check_cell = [](const GemmResult& r) -> std::string {
    if (!r.not_written.empty()) return "not written yet";
    return !r.checked ? "skipped" : (r.passed ? "passed" : "FAILED");
  };
  if (cli.on("check-only")) {
    std::printf("\n%s on %s: checked at M=%d N=%d K=%d and at %s (nothing timed)\n",
                lesson.id.c_str(), dev.name.c_str(), s.M, s.N, s.K, P::kRaggedShape.str().c_str());
    Table t({"kernel", "check"});
    for (const GemmResult& r : results) t.add_row({r.name, check_cell(r)});
    t.print();
    return results;
  }

  const bool sustained = timing.regime == Regime::kSustained;
  std::printf(
      "\n%s on %s, M=%d N=%d K=%d, %s: %s, each kernel interleaved with %s on the same "
      "inputs\n",
      lesson.id.c_str(), dev.name.c_str(), s.M, s.N, s.K, regime_name(timing.regime),
      sustained ? (fixed(timing.sustained_ms, 0) + " ms back to back of each").c_str()
                : ("median of " + std::to_string(timing.reps) + " cold-L2 runs").c_str(),
      P::kBaseline);
  std::vector<std::string> head = {"kernel", "ms", "TFLOP/s", "% of cuBLAS", "spread", "SM MHz"};
  if (sustained) head.push_back("J per GEMM");
  head.push_back("check");
  Table t(head);
  auto readings = [&](const TimingStats& st, std::vector<std::string> row, std::string last) {
    row.push_back(st.sm_clock_mhz ? fixed(*st.sm_clock_mhz, 0) : "n/a");
    if (sustained) row.push_back(st.energy_j ? fixed(*st.energy_j, 3) : "n/a");
    row.push_back(std::move(last));
    return row;
  };
  // The baseline's row: timed with the first kernel that ran, or on its own when none did.
  auto timed = std::find_if(results.begin(), results.end(),
                            [](const GemmResult& r) { return r.not_written.empty(); });
  GemmBench baseline;
  if (timed != results.end()) {
    baseline = timed->bench;
  } else if (!results.empty()) {
    CublasHandle handle;
    baseline = bench_vs_cublas(cublas_gemm_fn<P>(handle.get()), s.M, s.N, s.K, timing);
  }
  if (!results.empty()) {
    t.add_row(
        readings(baseline.cublas,
                 {P::kBaseline, fixed(baseline.cublas.ms(), 3), fixed(baseline.cublas_tflops, 2),
                  "100.0%", fixed(100 * baseline.cublas.spread(), 1) + "%"},
                 "-"));
  }
  for (const GemmResult& r : results) {
    if (!r.not_written.empty()) {
      std::vector<std::string> row(head.size() - 1, "-");
      row.front() = r.name;
      row.push_back(check_cell(r));
      t.add_row(row);
      continue;
    }
    t.add_row(readings(
        r.bench.kernel,
        {r.name, fixed(r.bench.kernel.ms(), 3), fixed(r.bench.kernel_tflops, 2),
         fixed(r.bench.pct_of_cublas, 1) + "%", fixed(100 * r.bench.kernel.spread(), 1) + "%"},
        check_cell(r)));
  }
  t.print();
  if (cli.on("json")) {
    for (const GemmResult& r : results) {
      if (!r.not_written.empty()) continue;  // nothing was measured
      measurement_of(r, lesson, s, dev.name, P::kName).print();
    }
  }
  return results;
}

template std::vector<GemmResult> measure_kernels<Fp32>(const Cli&, const LessonId&,
                                                       const std::vector<NamedGemm<Fp32>>&);
template std::vector<GemmResult> measure_kernels<Bf16>(const Cli&, const LessonId&,
                                                       const std::vector<NamedGemm<Bf16>>&);

int gemm_exit_code(const std::vector<GemmResult>& results) {
  for (const GemmResult& r : results) {
    if (r.checked && !r.passed) return static_cast<int>(kExitFailed);
  }
  return static_cast<int>(kExitOk);
}

template <class P>
int GemmLesson<P>::run(int argc, char** argv) const {
  Cli cli("lesson" + lesson.id, summary);
  add_gemm_options(cli);
  if (options) options(cli);
  cli.parse(argc, argv);
  return guarded_main(lesson, [&] {
    LessonRun r{cli, lesson, gemm_shape_from(cli), cli.on("json"), DeviceInfo{}, false};
    // `make grade`'s timing (--headline-only) runs the headline kernel alone.
    const bool everything = !headline_only(cli);
    if (cpu_part && everything) cpu_part(r);
    // Without a usable GPU: the reason, what still runs here, and exit code 3 or 4 (guarded_main
    // then names the stubs the CPU part met, and a stub makes it 0); a failed CPU part fails.
    r.device = probe_device(0);
    if (!device_unusable_reason(r.device, lesson.min_cc).empty()) {
      const int code = no_usable_device(lesson, r.device);
      return r.failed ? static_cast<int>(kExitFailed) : code;
    }
    if (gpu_part && everything) gpu_part(r);
    if (!kernels) throw std::logic_error("lesson " + lesson.id + " names no kernels to measure");
    const std::vector<GemmResult> results = measure_kernels(cli, lesson, kernels(r));
    if (after && everything) after(r, results);
    const int code = gemm_exit_code(results);
    return r.failed ? static_cast<int>(kExitFailed) : code;
  });
}

template struct GemmLesson<Fp32>;
template struct GemmLesson<Bf16>;

namespace detail {

bool runs_here(const VariantInfo& v) {
  const Fit f = fits_current_device(v);
  if (!f) std::printf("not on this GPU: %s: %s\n", v.name.c_str(), f.why.c_str());
  return f.ok;
}

void print_config_table(const LessonRun& run, const std::vector<VariantInfo>& table,
                        bool local_bytes) {
  std::printf("\nthe compiled configurations on %s\n", run.gpu().c_str());
  std::vector<std::string> head = {"#", "configuration", "threads", "regs"};
  if (local_bytes) head.push_back("local B");
  for (const char* h : {"smem KB", "blocks/SM", "warps/SM", "FLOP/B"}) head.push_back(h);
  Table t(head);
  std::vector<std::string> not_here;  // "#i NAME: WHY" of each that does not fit this GPU
  for (int i = 0; i < static_cast<int>(table.size()); ++i) {
    const VariantInfo& v = table[i];
    if (const Fit f = fits_current_device(v); !f) {
      not_here.push_back(std::to_string(i) + " " + v.name + ": " + f.why);
      continue;
    }
    const KernelAttributes a = kernel_attributes(v.kernel);
    const int blocks = occupancy_blocks_per_sm(v);
    std::vector<std::string> row = {std::to_string(i), v.name, std::to_string(v.threads),
                                    std::to_string(a.regs)};
    if (local_bytes) row.push_back(std::to_string(a.local_bytes));
    row.push_back(fixed(v.smem_bytes / 1024.0, 1));
    row.push_back(std::to_string(blocks));
    row.push_back(std::to_string(blocks * v.threads / 32));
    row.push_back(fixed(v.intensity, 1));
    t.add_row(row);
    if (run.json) {
      measurement_line(run.lesson.id, "config")
          .add("kernel", v.name)
          .add("regs", a.regs)
          .add("local_bytes", static_cast<long>(a.local_bytes))
          .add("smem", static_cast<long>(v.smem_bytes))
          .add("blocks_per_sm", blocks)
          .add("gpu", run.gpu())
          .print();
    }
  }
  t.print();
  if (!not_here.empty()) {
    std::printf("not on this GPU (they are left out of the sweep too):\n");
    for (const std::string& line : not_here) std::printf("  %s\n", line.c_str());
  }
}

template <class P>
void sweep_variants(const LessonRun& run, const std::vector<Variant<P>>& table) {
  using T = typename P::Element;
  const GemmShape& s = run.shape;
  // A is M x K; B is K x N (FP32) or N x K (bf16): the same number of elements either way.
  DeviceBuffer<T> A(random_matrix<T>(s.M, s.K, derive_seed("sweep A")));
  DeviceBuffer<T> B(random_matrix<T>(s.K, s.N, derive_seed("sweep B")));
  DeviceBuffer<T> C(static_cast<std::size_t>(s.M) * s.N);
  const TimingOptions timing = run.timing();
  const double flops = gemm_flops(s.M, s.N, s.K);
  std::printf("\nevery configuration at M=%d N=%d K=%d, median of %d runs (not checked here)\n",
              s.M, s.N, s.K, timing.reps);
  Table t({"#", "configuration", "ms", "TFLOP/s"});
  for (int i = 0; i < static_cast<int>(table.size()); ++i) {
    const Variant<P>& v = table[i];
    if (!v.swept || !named_in(run.cli.str("only"), v.name) || !runs_here(v)) continue;
    const double ms =
        time_gpu([&] { v.run(s.M, s.N, s.K, 1.0f, A.data(), B.data(), 0.0f, C.data()); }, timing)
            .ms();
    t.add_row({std::to_string(i), v.name, fixed(ms, 3), fixed(tflops(flops, ms), 2)});
    if (run.json) {
      measurement_line(run.lesson.id, "sweep")
          .add("kernel", v.name)
          .add("M", s.M)
          .add("ms", ms)
          .add("tflops", tflops(flops, ms))
          .add("gpu", run.gpu())
          .print();
    }
  }
  t.print();
}

template void sweep_variants<Fp32>(const LessonRun&, const std::vector<Variant<Fp32>>&);
template void sweep_variants<Bf16>(const LessonRun&, const std::vector<Variant<Bf16>>&);

}  // namespace detail

}  // namespace course
