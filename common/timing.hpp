/// \file timing.hpp
/// \brief Timing GPU work with CUDA events: warm-up, repetitions, median and spread.
///
/// Kernel launches return before the kernel runs, so a host clock around a launch measures
/// nothing. time_gpu() records a CUDA event before and after each repetition on the stream,
/// waits, and reads the time between them. The median is the figure to quote (robust to a stray
/// slow run); the spread, (max - min) / median, says how much to trust a difference.
#pragma once

#include <functional>
#include <vector>

namespace course {

/// How to time: warm-up runs (not timed: module load, clocks ramping up), timed repetitions,
/// and whether to evict the L2 cache before each repetition (so small problems are not timed
/// out of cache).
struct TimingOptions {
  int warmup = 2;
  int reps = 10;
  bool flush_l2 = false;
};

/// The timings of one piece of GPU work, in milliseconds.
struct TimingStats {
  int reps = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0, stddev_ms = 0;
  /// (max - min) / median: 0.02 means the runs agree to 2%.
  double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0.0; }
};

/// The statistics of a list of times (pure host code; what time_gpu() reports).
TimingStats summarize_times(std::vector<double> times_ms);

/// Runs `work` (which launches GPU work on the default stream) options.warmup times, then
/// options.reps times between CUDA events, and returns the statistics of the timed runs.
TimingStats time_gpu(const std::function<void()>& work, const TimingOptions& options = {});

/// TFLOP/s for `flops` floating-point operations in `ms` milliseconds.
double tflops(double flops, double ms);
/// GB/s (10^9 bytes per second) for `bytes` moved in `ms` milliseconds.
double gbps(double bytes, double ms);
/// The floating-point operations of an M x N x K matrix product: 2*M*N*K (a multiply and an add).
double gemm_flops(int M, int N, int K);

}  // namespace course
