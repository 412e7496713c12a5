// Lesson 01, given code: the check of the timing method (`lesson01 --method`, which `make bench`
// runs first). cuBLAS is timed against itself: the same call on the same inputs, as "A" and "B".
// A fair method gives B / A = 100% within a noise band; the order "all of A, then all of B" is
// timed beside it, so the chapter can show what an unfair order does.
#pragma once

#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/gemm_check.hpp"
#include "common/precision.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace lesson01 {

/// How far from 100% the ratio of cuBLAS to itself may be, in the interleaved order, before the
/// method is flagged as unfair on this GPU: the spread of repeated runs of one GEMM on an idle
/// H200.
inline constexpr double kFairBandPct = 2.0;
/// Burst repetitions of the check: enough for the order "all of A, then all of B" to heat the GPU
/// during A and show its bias (3 are too few, 100 heat both halves alike).
inline constexpr int kMethodReps = 30;

/// One problem the check times cuBLAS against itself on.
struct MethodCase {
  const char* precision;  ///< "fp32" or "bf16"
  int size;               ///< M = N = K
};

/// The headline sizes of the FP32 lessons (4096) and of the bf16 lessons (4096, 8192).
inline const std::vector<MethodCase> kMethodCases = {
    {"fp32", 4096}, {"bf16", 4096}, {"bf16", 8192}};

template <class P>
course::GemmBench time_cublas_against_itself(int n, const course::TimingOptions& options) {
  course::CublasHandle handle;
  // The kernel is cuBLAS too: B / A is the method's own error.
  return course::bench_vs_cublas(course::cublas_gemm_fn<P>(handle.get()), n, n, n, options);
}

inline std::string reading(const std::optional<double>& v, int digits) {
  return v ? course::fixed(*v, digits) : "n/a";
}

/// Times cuBLAS against itself at each of kMethodCases, in both regimes and both orders; prints a
/// table and (with `json`) one "method" line per row. Returns how many interleaved rows fell
/// outside kFairBandPct, in time or (sustained) in joules per GEMM (each flagged in the table and
/// in its line).
inline int check_the_method(const course::DeviceInfo& device, double sustained_ms, bool json) {
  std::printf(
      "\nthe method: cuBLAS timed against itself (B / A should be 100%%; a fair order "
      "keeps it within %.0f%%)\n",
      kFairBandPct);
  course::Table t({"GEMM", "regime", "order", "A ms", "B ms", "B / A", "A MHz", "B MHz", "A J/GEMM",
                   "B J/GEMM", "B J / A J", ""});
  int outside = 0;
  for (const MethodCase& c : kMethodCases) {
    const bool bf16 = std::string(c.precision) == "bf16";
    if (bf16 && device.cc() < 80) {
      std::printf("(bf16 %d^3 not timed: cuBLAS's bf16 GEMM needs compute capability 8.0)\n",
                  c.size);
      continue;
    }
    for (course::Regime regime : {course::Regime::kBurst, course::Regime::kSustained}) {
      for (course::Order order : {course::Order::kInterleaved, course::Order::kSequential}) {
        course::TimingOptions o;
        o.reps = kMethodReps;
        o.flush_l2 = true;
        o.regime = regime;
        o.sustained_ms = sustained_ms;
        o.order = order;
        // A is the "baseline" slot (first), B the "kernel" slot: both cuBLAS.
        const course::GemmBench b = bf16 ? time_cublas_against_itself<course::Bf16>(c.size, o)
                                         : time_cublas_against_itself<course::Fp32>(c.size, o);
        const bool interleaved = order == course::Order::kInterleaved;
        const double ratio = b.pct_of_cublas;  // 100 * A time / B time: B's speed relative to A
        const bool fair = std::fabs(ratio - 100.0) <= kFairBandPct;
        // Sustained, the energy too: the same work must cost the same joules in both slots.
        std::optional<double> energy_ratio;
        if (b.cublas.energy_j && b.kernel.energy_j && *b.cublas.energy_j > 0) {
          energy_ratio = 100.0 * *b.kernel.energy_j / *b.cublas.energy_j;
        }
        const bool energy_fair = !energy_ratio || std::fabs(*energy_ratio - 100.0) <= kFairBandPct;
        if (interleaved && (!fair || !energy_fair)) ++outside;
        const std::string name = std::string(c.precision) + " " + std::to_string(c.size) + "^3";
        t.add_row({name, course::regime_name(regime),
                   interleaved ? "interleaved" : "all of A, then all of B",
                   course::fixed(b.cublas.ms(), 3), course::fixed(b.kernel.ms(), 3),
                   course::fixed(ratio, 1) + "%", reading(b.cublas.sm_clock_mhz, 0),
                   reading(b.kernel.sm_clock_mhz, 0), reading(b.cublas.energy_j, 3),
                   reading(b.kernel.energy_j, 3),
                   energy_ratio ? course::fixed(*energy_ratio, 1) + "%" : "n/a",
                   interleaved && !fair          ? "OUTSIDE the noise band"
                   : interleaved && !energy_fair ? "energy OUTSIDE the noise band"
                                                 : ""});
        if (json) {
          course::measurement_line("01", "method")
              .add("precision", c.precision)
              .add("n", c.size)  // M = N = K ("size" is make bench's own key)
              .add("regime", course::regime_name(regime))
              .add("order", interleaved ? "interleaved" : "sequential")
              .add("samples", b.kernel.reps)
              .add("a_ms", b.cublas.ms())
              .add("b_ms", b.kernel.ms())
              .add("a_tflops", b.cublas_tflops)
              .add("b_tflops", b.kernel_tflops)
              .add("b_pct_of_a", ratio)
              .add("band_pct", kFairBandPct)
              .add("within_band", fair)
              .add("a_sm_clock_mhz", b.cublas.sm_clock_mhz)
              .add("b_sm_clock_mhz", b.kernel.sm_clock_mhz)
              .add("a_energy_j", b.cublas.energy_j)
              .add("b_energy_j", b.kernel.energy_j)
              .add("a_power_w", b.cublas.power_w)
              .add("b_power_w", b.kernel.power_w)
              .add("b_energy_pct_of_a", energy_ratio)
              .add_json("energy_within_band",  // null where no joules were compared (burst)
                        !energy_ratio ? "null"
                        : energy_fair ? "true"
                                      : "false")
              .add("gpu", device.name)
              .print();
        }
      }
    }
  }
  t.print();
  if (outside > 0) {
    std::printf(
        "%d interleaved row(s) outside the noise band: on this GPU the figures of the "
        "course carry more than %.0f%% of noise\n",
        outside, kFairBandPct);
  }
  return outside;
}

}  // namespace lesson01
