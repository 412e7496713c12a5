// Lesson 01: what is on my GPU. Queries the device, prints what the driver reports and what
// follows from it (peak FP32 rate, peak bandwidth, ridge point), then measures a device-to-device
// copy and a cuBLAS SGEMM against those peaks. Without a GPU it shows three reference devices.
#include "architecture.hpp"
#include "method.hpp"
#include "reference_devices.hpp"
#include "tables.hpp"

#include "common/buffers.hpp"
#include "common/cli.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using lesson01::add_row;
using lesson01::DeviceSpec;
using lesson01::DeviceSummary;

constexpr long kMaxSize = 32768;
constexpr long kMaxCopyMb = 1L << 20;
constexpr long kMaxReps = 10000;

// No GPU: the same tables for the three reference devices, with their datasheet figures. What the
// driver would report is given; what follows from it is your summarize().
int show_reference_devices() {
  const auto refs = lesson01::reference_devices();
  std::vector<std::string> names;
  std::vector<DeviceSpec> specs;
  for (const auto& r : refs) {
    names.push_back(r.label);
    specs.push_back(r.spec);
  }
  std::printf("what the driver reports\n");
  lesson01::spec_table(names, specs).print();
  std::vector<DeviceSummary> sums;
  for (const auto& r : refs) sums.push_back(lesson01::summarize(r.spec));
  std::printf("\nwhat follows from it (summarize)\n");
  course::Table t = lesson01::summary_table(names, sums);
  add_row(t, "  datasheet FP32", refs, "TFLOP/s",
          [](auto& r) { return course::fixed(r.published_fp32_tflops, 1); });
  add_row(t, "  datasheet bandwidth", refs, "GB/s",
          [](auto& r) { return course::fixed(r.published_bandwidth_gbs, 0); });
  t.print();
  // A summary that misses a datasheet by more than the grader allows is wrong: say where, and
  // fail, as a wrong kernel fails the other lessons' programs.
  int wrong = 0;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    auto off = [](double got, double published) {
      return !(std::fabs(got - published) <= lesson01::kDatasheetTolerance * published);  // NaN too
    };
    if (off(sums[i].peak_fp32_tflops, refs[i].published_fp32_tflops) ||
        off(sums[i].peak_bandwidth_gbs, refs[i].published_bandwidth_gbs)) {
      std::printf(
          "\nyour summarize() misses the datasheet of the %s: peak FP32 %.1f TFLOP/s (datasheet "
          "%.1f), peak bandwidth %.0f GB/s (datasheet %.0f)",
          names[i].c_str(), sums[i].peak_fp32_tflops, refs[i].published_fp32_tflops,
          sums[i].peak_bandwidth_gbs, refs[i].published_bandwidth_gbs);
      ++wrong;
    }
  }
  if (wrong > 0) {
    std::printf("\nmake grade-1 says which part of summarize() is wrong\n");
    return course::kExitFailed;
  }
  return course::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  course::Cli cli("lesson01", "what is on my GPU: architecture queries, peaks, and measurements");
  cli.number("copy-mb", 1024, "MiB copied device to device for the bandwidth measurement")
      .number("size", 4096, "M = N = K of the cuBLAS SGEMM")
      .number("reps", 10, "timed repetitions of each measurement")
      .flag("method",
            "also check the timing method: cuBLAS against itself, interleaved and "
            "not, burst and sustained, at the headline sizes (what make bench runs)")
      .number("sustained-ms", std::lround(course::TimingOptions{}.sustained_ms),
              "--method: GPU time of each GEMM in the sustained regime, ms")
      .flag("json", "also print one JSON line per measurement");
  cli.parse(argc, argv);
  if (cli.get("size") > kMaxSize || cli.get("copy-mb") > kMaxCopyMb || cli.get("reps") > kMaxReps) {
    std::fprintf(stderr, "lesson01: at most --size %ld, --copy-mb %ld, --reps %ld\n\n%s", kMaxSize,
                 kMaxCopyMb, kMaxReps, cli.usage().c_str());
    return course::kExitUsage;
  }

  const course::LessonId lesson = course::this_lesson();
  return course::guarded_main(lesson, [&] {
    //! [fallback]
    const course::DeviceInfo info = course::probe_device(0);
    if (!info.present) {
      std::printf("%s: showing the summary of the reference devices instead\n\n",
                  info.reason.c_str());
      return show_reference_devices();
    }
    if (!course::device_unusable_reason(info, lesson.min_cc).empty()) {
      return course::no_usable_device(lesson, info);  // why, what still runs here: exit code 4
    }
    //! [fallback]

    // Your functions, each tried on its own: one still a stub leaves its rows empty ("n/a") and
    // the given measurements still run.
    bool all_yours = true;
    auto yours = [&](const std::function<void()>& part) {
      const bool ran = course::try_yours(part);
      all_yours = all_yours && ran;
      return ran;
    };
    std::optional<DeviceSpec> spec;
    std::optional<DeviceSummary> sum;
    std::printf("device %d: %s\n", info.index, info.name.c_str());
    if (yours([&] { spec = lesson01::query_device(info.index); })) {
      std::printf("\nwhat the driver reports\n");
      lesson01::spec_table({spec->name}, {*spec}).print();
      if (yours([&] { sum = lesson01::summarize(*spec); })) {
        std::printf("\nwhat follows from it (summarize)\n");
        lesson01::summary_table({spec->name}, {*sum}).print();
      }
    }

    //! [measure]
    course::TimingOptions timing;
    timing.reps = static_cast<int>(cli.get("reps"));
    const std::size_t copy_bytes = static_cast<std::size_t>(cli.get("copy-mb")) << 20;
    double copy_gbs = std::nan("");
    yours([&] { copy_gbs = lesson01::measure_copy_bandwidth_gbs(copy_bytes, timing); });

    const int n = static_cast<int>(cli.get("size"));
    course::DeviceBuffer<float> A(course::random_matrix(n, n, course::derive_seed("A")));
    course::DeviceBuffer<float> B(course::random_matrix(n, n, course::derive_seed("B")));
    course::DeviceBuffer<float> C(static_cast<std::size_t>(n) * n);
    course::CublasHandle cublas;
    const course::TimingStats sgemm = course::time_gpu(
        [&] {
          course::cublas_gemm(cublas.get(), n, n, n, 1.0f, A.data(), B.data(), 0.0f, C.data());
        },
        timing);
    const double sgemm_tflops = course::tflops(course::gemm_flops(n, n, n), sgemm.ms());
    //! [measure]

    //! [report]
    struct Measured {
      std::string what, label, unit;
      double value, peak;  // NaN: not measured; 0: no peak known
      double pct() const { return peak > 0 ? 100.0 * value / peak : std::nan(""); }
    };
    const std::string sz = std::to_string(n);
    const std::vector<Measured> rows = {
        {"copy_bandwidth", "device-to-device copy, " + std::to_string(cli.get("copy-mb")) + " MiB",
         "GB/s", copy_gbs, sum ? sum->peak_bandwidth_gbs : 0.0},
        {"cublas_sgemm", "cuBLAS SGEMM " + sz + "x" + sz + "x" + sz, "TFLOP/s", sgemm_tflops,
         sum ? sum->peak_fp32_tflops : 0.0},
    };
    std::printf("\nmeasured against the peaks (median of %d runs)\n", timing.reps);
    course::Table t({"measurement", "measured", "peak", "unit", "% of peak"});
    auto cell = [](double v) { return std::isnan(v) ? std::string("n/a") : course::fixed(v, 1); };
    for (const Measured& m : rows) {
      t.add_row({m.label, cell(m.value), m.peak > 0 ? cell(m.peak) : "n/a", m.unit,
                 m.peak > 0 && !std::isnan(m.value) ? course::fixed(m.pct(), 1) + "%" : "n/a"});
    }
    t.print();
    if (spec && 2 * copy_bytes < 4 * spec->l2_bytes) {
      std::printf(
          "note: the copy moves %zu MiB, less than 4x the %zu MiB of L2: the cache serves "
          "part of it, so it can even beat the memory's peak (try a larger --copy-mb)\n",
          2 * copy_bytes >> 20, spec->l2_bytes >> 20);
    }
    if (cli.on("json") && all_yours) {
      for (const Measured& m : rows) {
        course::measurement_line(lesson.id, m.what)
            .add("value", m.value)
            .add("unit", m.unit)
            .add("peak", m.peak)
            .add("pct_of_peak", m.pct())  // null when the peak is unknown
            .add("gpu", spec->name)
            .add("sm_count", spec->sm_count)
            .add("sm_clock_mhz", spec->sm_clock_khz / 1000)
            .print();
      }
    }
    //! [report]
    if (cli.on("method")) {
      lesson01::check_the_method(info, static_cast<double>(cli.get("sustained-ms")),
                                 cli.on("json"));
    }
    return static_cast<int>(course::kExitOk);
  });
}
