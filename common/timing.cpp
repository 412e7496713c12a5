#include "common/timing.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/device.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace course {

TimingStats summarize_times(std::vector<double> t) {
  if (t.empty()) throw std::invalid_argument("summarize_times: no times");
  std::sort(t.begin(), t.end());
  TimingStats s;
  s.reps = static_cast<int>(t.size());
  const std::size_t n = t.size();
  s.median_ms = n % 2 == 1 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  s.min_ms = t.front();
  s.max_ms = t.back();
  s.mean_ms = std::accumulate(t.begin(), t.end(), 0.0) / n;
  double var = 0;
  for (double x : t) var += (x - s.mean_ms) * (x - s.mean_ms);
  s.stddev_ms = n > 1 ? std::sqrt(var / (n - 1)) : 0.0;
  return s;
}

TimingStats time_gpu(const std::function<void()>& work, const TimingOptions& options) {
  if (options.reps < 1) throw std::invalid_argument("time_gpu: reps must be at least 1");
  DeviceBuffer<char> scratch;
  if (options.flush_l2) {
    const std::size_t l2 = current_device_info().l2_bytes;
    scratch = DeviceBuffer<char>(std::max<std::size_t>(l2, std::size_t{1} << 20) * 2);
  }
  for (int i = 0; i < options.warmup; ++i) work();
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<cudaEvent_t> start(options.reps), stop(options.reps);
  for (int i = 0; i < options.reps; ++i) {
    CUDA_CHECK(cudaEventCreate(&start[i]));
    CUDA_CHECK(cudaEventCreate(&stop[i]));
  }
  std::vector<double> times(options.reps);
  try {
    for (int i = 0; i < options.reps; ++i) {
      // Writing a buffer twice the L2's size evicts the inputs; it runs outside the events.
      if (options.flush_l2) CUDA_CHECK(cudaMemsetAsync(scratch.data(), i & 0xff, scratch.bytes()));
      CUDA_CHECK(cudaEventRecord(start[i]));
      work();
      CUDA_CHECK(cudaEventRecord(stop[i]));
    }
    CUDA_CHECK(cudaEventSynchronize(stop[options.reps - 1]));
    for (int i = 0; i < options.reps; ++i) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start[i], stop[i]));
      times[i] = ms;
    }
  } catch (...) {
    for (int i = 0; i < options.reps; ++i) {
      cudaEventDestroy(start[i]);
      cudaEventDestroy(stop[i]);
    }
    throw;
  }
  for (int i = 0; i < options.reps; ++i) {
    cudaEventDestroy(start[i]);
    cudaEventDestroy(stop[i]);
  }
  return summarize_times(times);
}

double tflops(double flops, double ms) {
  return flops / (ms * 1e-3) / 1e12;
}
double gbps(double bytes, double ms) {
  return bytes / (ms * 1e-3) / 1e9;
}
double gemm_flops(int M, int N, int K) {
  return 2.0 * M * N * static_cast<double>(K);
}

}  // namespace course
