#include "common/timing.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/device.hpp"
#include "common/power.hpp"
#include "common/timing_hold.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

namespace course {

const char* regime_name(Regime regime) {
  return regime == Regime::kSustained ? "sustained" : "burst";
}

Regime parse_regime(const std::string& name) {
  if (name == "burst") return Regime::kBurst;
  if (name == "sustained") return Regime::kSustained;
  throw std::invalid_argument("no regime is called '" + name +
                              "': the regimes are burst and sustained");
}

std::string TimingOptions::invalid() const {
  if (warmup < 0) return "warmup must be 0 or more";
  if (regime == Regime::kBurst && reps < 1) return "reps must be at least 1";
  if (regime == Regime::kSustained && !(sustained_ms > 0)) {
    return "the sustained time must be more than 0 ms";
  }
  if (regime == Regime::kSustained && !(block_ms > 0)) return "the block must be more than 0 ms";
  return {};
}

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

std::vector<int> interleaved_order(int works, int rounds, Order order) {
  if (works < 1 || rounds < 0) throw std::invalid_argument("interleaved_order: no work");
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(works) * rounds);
  if (order == Order::kSequential) {
    for (int w = 0; w < works; ++w) out.insert(out.end(), rounds, w);
    return out;
  }
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < works; ++i) out.push_back(r % 2 == 0 ? i : works - 1 - i);
  }
  return out;
}

std::optional<std::vector<double>> fit_powers(const std::vector<EnergyReading>& trace,
                                              const std::vector<WorkSpan>& spans, int works) {
  if (spans.empty() || works < 1) return std::nullopt;
  const double first = spans.front().from_ms, last = spans.back().to_ms;
  // The normal equations of the least-squares fit: sum over jumps of (overlaps overlaps^T) p =
  // sum of (overlaps * energy), one row and column per piece of work.
  const auto n = static_cast<std::size_t>(works);
  std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
  std::vector<double> overlap(n);
  for (std::size_t i = 1; i < trace.size(); ++i) {
    const double t0 = trace[i - 1].at_ms, t1 = trace[i].at_ms;
    if (t0 < first || t1 > last || !(t1 > t0)) continue;  // only jumps wholly within the spans
    std::fill(overlap.begin(), overlap.end(), 0.0);
    for (const WorkSpan& s : spans) {
      const double o = std::min(t1, s.to_ms) - std::max(t0, s.from_ms);
      if (o > 0 && s.work >= 0 && s.work < works) overlap[s.work] += o * 1e-3;  // seconds
    }
    const double joules = trace[i].joules - trace[i - 1].joules;
    for (std::size_t r = 0; r < n; ++r) {
      for (std::size_t c = 0; c < n; ++c) a[r][c] += overlap[r] * overlap[c];
      a[r][n] += overlap[r] * joules;
    }
  }
  // Gaussian elimination with partial pivoting (n is 1 to 3).
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r) {
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    }
    if (!(std::fabs(a[pivot][c]) > 1e-12)) return std::nullopt;  // a work in no jump
    std::swap(a[c], a[pivot]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (std::size_t k = c; k <= n; ++k) a[r][k] -= f * a[c][k];
    }
  }
  std::vector<double> watts(n);
  for (std::size_t r = 0; r < n; ++r) watts[r] = a[r][n] / a[r][r];
  return watts;
}

namespace {

// A burst repetition is followed by a rest as long as twice the repetition (at most 20 ms): the
// GPU's power controller averages over tens of milliseconds, so at a third of full duty it stays
// under the cap and each repetition starts near the boost clock.
constexpr double kRestFactor = 2.0;
constexpr double kRestCapMs = 20.0;
// Sustained: a run shorter than this is timed again as a batch that lasts about this long, to
// size the blocks; the energy counter is read this often in the background; the untimed tail
// after the last block lasts this long (NVML's counter jumps every 20-100 ms).
constexpr double kCalibrationMs = 5.0;
constexpr double kTracePollMs = 0.5;
constexpr double kTraceTailMs = 250.0;

// What one piece of work accumulates over a measurement.
struct Tally {
  std::vector<double> times_ms;  // one per repetition (burst) or per block, per run (sustained)
  std::vector<double> clock_mhz;
  std::vector<BlockReading> blocks;  // sustained
  double gpu_ms = 0;
  long runs = 0;
  std::optional<double> watts;  // sustained: the fitted power
};

TimingStats finish(Tally& t, Regime regime) {
  TimingStats s = summarize_times(t.times_ms);
  s.regime = regime;
  if (!t.clock_mhz.empty()) {
    s.sm_clock_mhz =
        std::accumulate(t.clock_mhz.begin(), t.clock_mhz.end(), 0.0) / t.clock_mhz.size();
  }
  if (regime == Regime::kSustained && t.watts && t.runs > 0 && t.gpu_ms > 0) {
    s.power_w = *t.watts;
    s.energy_j = *t.watts * t.gpu_ms * 1e-3 / t.runs;
  }
  s.blocks = t.blocks;
  return s;
}

// The energy counter's value at host time `ms`, between the two readings around it (the counter
// jumps every 20-100 ms, so a block of 500 ms spans several); none outside the trace.
std::optional<double> energy_at(const std::vector<EnergyReading>& trace, double ms) {
  for (std::size_t i = 1; i < trace.size(); ++i) {
    if (trace[i - 1].at_ms <= ms && ms <= trace[i].at_ms) {
      const double span = trace[i].at_ms - trace[i - 1].at_ms;
      const double f = span > 0 ? (ms - trace[i - 1].at_ms) / span : 0.0;
      return trace[i - 1].joules + f * (trace[i].joules - trace[i - 1].joules);
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<TimingStats> time_interleaved(const std::vector<std::function<void()>>& works,
                                          const TimingOptions& options, TimingBackend& gpu) {
  if (works.empty()) throw std::invalid_argument("time_interleaved: no work to time");
  if (const std::string why = options.invalid(); !why.empty()) {
    throw std::invalid_argument("timing: " + why);
  }
  const int n = static_cast<int>(works.size());
  std::vector<Tally> tally(n);
  std::vector<double> ignored;
  for (int w = 0; w < options.warmup; ++w) {
    for (const auto& work : works) work();
  }
  gpu.wait(gpu.mark(), ignored);

  if (options.regime == Regime::kBurst) {
    //! [burst]
    for (int k : interleaved_order(n, options.reps, options.order)) {
      if (options.flush_l2) gpu.flush_l2();
      gpu.cover_launch();
      const int from = gpu.mark();
      works[k]();
      const int to = gpu.mark();
      gpu.wait(to, tally[k].clock_mhz);
      const double ms = gpu.elapsed_ms(from, to);
      tally[k].times_ms.push_back(ms);
      gpu.idle_ms(std::min(kRestFactor * ms, kRestCapMs));
    }
    //! [burst]
  } else {
    // How many runs make a block of about block_ms. One run timed alone may include the host's
    // launch (an idle GPU waits for it), so a short one is timed again as a batch of runs.
    std::vector<long> per_block(n);
    for (int k = 0; k < n; ++k) {
      auto time_runs = [&](long count) {
        const int from = gpu.mark();
        for (long i = 0; i < count; ++i) works[k]();
        const int to = gpu.mark();
        gpu.wait(to, ignored);
        return std::max(gpu.elapsed_ms(from, to), 1e-3) / count;
      };
      double ms = time_runs(1);
      if (ms < kCalibrationMs) ms = time_runs(std::lround(std::ceil(kCalibrationMs / ms)));
      per_block[k] = std::clamp(std::lround(options.block_ms / ms), 1L, 1L << 20);
    }
    // An even number of rounds, A B B A ... A B B A: then each work's blocks sit at the same mean
    // place in time, and a GPU still heating up slows neither more than the other. The blocks are
    // long enough for each work to settle at its own clock, and A B B A repeats far from the
    // clock's swing at the power cap (timing.hpp).
    int rounds = std::max(2, static_cast<int>(std::ceil(options.sustained_ms / options.block_ms)));
    rounds += rounds % 2;
    auto block = [&](int k) {
      for (long i = 0; i < per_block[k]; ++i) works[k]();
    };
    // The warm-up: half as long again, interleaved too, to reach the power cap and the steady
    // temperature before anything is timed.
    for (int k : interleaved_order(n, (rounds + 1) / 2, options.order)) block(k);
    gpu.wait(gpu.mark(), ignored);
    //! [sustained]
    const bool tracing = gpu.start_energy_trace();
    std::vector<WorkSpan> spans;  // each block's stretch of host time, for the energy
    for (int k : interleaved_order(n, rounds, options.order)) {
      const double from_ms = gpu.host_ms();
      const int from = gpu.mark();
      block(k);
      const int to = gpu.mark();
      const std::size_t sampled = tally[k].clock_mhz.size();
      gpu.wait(to, tally[k].clock_mhz);
      spans.push_back({k, from_ms, gpu.host_ms()});
      // The block's own clock: the samples its wait took.
      BlockReading reading{from_ms, spans.back().to_ms, std::nullopt, std::nullopt};
      if (tally[k].clock_mhz.size() > sampled) {
        reading.sm_clock_mhz =
            std::accumulate(tally[k].clock_mhz.begin() + static_cast<long>(sampled),
                            tally[k].clock_mhz.end(), 0.0) /
            static_cast<double>(tally[k].clock_mhz.size() - sampled);
      }
      tally[k].blocks.push_back(reading);
      const double ms = gpu.elapsed_ms(from, to);
      tally[k].times_ms.push_back(ms / per_block[k]);
      tally[k].gpu_ms += ms;
      tally[k].runs += per_block[k];
    }
    // The power of each, fitted to the counter's jumps. The trace must reach past the last block,
    // so its work runs on, untimed, in blocks, for kTraceTailMs: at least two more jumps. That
    // tail is a work of its own in the fit (index n), not part of any timed work.
    if (tracing) {
      const double tail_from = gpu.host_ms();
      while (gpu.host_ms() - tail_from < kTraceTailMs) {
        block(spans.back().work);
        gpu.wait(gpu.mark(), ignored);
      }
      spans.push_back({n, tail_from, gpu.host_ms()});
      const std::vector<EnergyReading> trace = gpu.stop_energy_trace();
      if (const auto watts = fit_powers(trace, spans, n + 1)) {
        for (int k = 0; k < n; ++k) tally[k].watts = (*watts)[k];
      }
      // Each block's power over its own stretch of time, from the counter's readings around it.
      for (Tally& t : tally) {
        for (BlockReading& b : t.blocks) {
          const auto e0 = energy_at(trace, b.from_ms), e1 = energy_at(trace, b.to_ms);
          if (e0 && e1 && b.to_ms > b.from_ms)
            b.power_w = (*e1 - *e0) / (b.to_ms - b.from_ms) * 1e3;
        }
      }
    }
    // Times from the start of the first timed block.
    const double t0 = spans.empty() ? 0.0 : spans.front().from_ms;
    for (Tally& t : tally) {
      for (BlockReading& b : t.blocks) b.from_ms -= t0, b.to_ms -= t0;
    }
    //! [sustained]
  }
  std::vector<TimingStats> out;
  for (Tally& t : tally) out.push_back(finish(t, options.regime));
  return out;
}

namespace {

// The course's backend: CUDA events on the default stream, a memset that evicts the L2, a kernel
// that holds the GPU while the host launches, and NVML.
class CudaBackend final : public TimingBackend {
  // Launching a cuBLAS GEMM costs the host 5-20 us; 100 us covers it with room to spare.
  static constexpr double kCoverUs = 100;
  // The longest a repetition or a block may take: the slowest the course times (lesson 03's naive
  // kernel at 16384^3) takes about 20 s.
  static constexpr int kWaitLimitS = 120;

 public:
  explicit CudaBackend(bool flush) : meter_(PowerMeter::current()) {
    if (flush) {
      const std::size_t l2 = current_device_info().l2_bytes;
      scratch_ = DeviceBuffer<char>(std::max<std::size_t>(l2, std::size_t{1} << 20) * 2);
    }
  }
  ~CudaBackend() override {
    tracing_ = false;
    if (sampler_.joinable()) sampler_.join();
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  int mark() override {
    cudaEvent_t e = nullptr;
    CUDA_CHECK(cudaEventCreate(&e));
    events_.push_back(e);
    CUDA_CHECK(cudaEventRecord(e));
    return static_cast<int>(events_.size()) - 1;
  }
  void wait(int m, std::vector<double>& clock_mhz) override {
    // Polls, reading the SM clock while the GPU works: the first read comes right after the
    // launch, so even a short repetition gets one. A wait has an end: work still running after
    // kWaitLimitS (no measured block comes near it) is a kernel that never ends.
    struct Reads {
      decltype(meter_)& meter;
      std::vector<double>& clock_mhz;
    } reads{meter_, clock_mhz};
    const auto read_clock = [](void* context) {
      Reads& r = *static_cast<Reads*>(context);
      if (auto mhz = r.meter.sm_clock_mhz()) r.clock_mhz.push_back(*mhz);
    };
    const bool reached =
        poll_until_reached(events_[m], "the timed work", kWaitLimitS, 500, read_clock, &reads);
    if (!reached) {
      throw std::runtime_error("timing: the timed work did not finish within " +
                               std::to_string(kWaitLimitS) + " s: a kernel that never ends");
    }
  }
  bool start_energy_trace() override {
    const std::optional<double> first = meter_.energy_j();
    if (!first) return false;
    trace_.clear();
    tracing_ = true;
    // A thread of its own: a read of the counter can take longer than a launch, and the launches
    // of a block must not wait for it. A jump seen between two reads is put halfway between them.
    sampler_ = std::thread([this, last = *first]() mutable {
      double before = host_ms();
      while (tracing_.load()) {
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kTracePollMs));
        const std::optional<double> joules = meter_.energy_j();
        const double now = host_ms();
        if (joules && *joules != last) {
          trace_.push_back({0.5 * (before + now), *joules});
          last = *joules;
        }
        before = now;
      }
    });
    return true;
  }
  std::vector<EnergyReading> stop_energy_trace() override {
    tracing_ = false;
    if (sampler_.joinable()) sampler_.join();
    return std::move(trace_);
  }
  double host_ms() override {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  double elapsed_ms(int from, int to) override {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, events_[from], events_[to]));
    return ms;
  }
  void flush_l2() override {
    // Writing a buffer twice the L2's size evicts the inputs; it runs outside the events.
    CUDA_CHECK(cudaMemsetAsync(scratch_.data(), ++fill_ & 0xff, scratch_.bytes()));
  }
  void cover_launch() override { hold_gpu_us(kCoverUs); }
  void idle_ms(double ms) override {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
  }

 private:
  PowerMeter& meter_;
  DeviceBuffer<char> scratch_;
  std::vector<cudaEvent_t> events_;
  int fill_ = 0;
  std::thread sampler_;  // start_energy_trace()'s reader of the energy counter
  std::atomic<bool> tracing_{false};
  std::vector<EnergyReading> trace_;  // written by the sampler until it is joined
};

}  // namespace

std::vector<TimingStats> time_interleaved(const std::vector<std::function<void()>>& works,
                                          const TimingOptions& options) {
  if (const std::string why = options.invalid(); !why.empty()) {
    throw std::invalid_argument("timing: " + why);
  }
  CudaBackend gpu(options.flush_l2 && options.regime == Regime::kBurst);
  return time_interleaved(works, options, gpu);
}

TimingStats time_gpu(const std::function<void()>& work, const TimingOptions& options) {
  return time_interleaved({work}, options).front();
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
