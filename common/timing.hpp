/// \file timing.hpp
/// \brief Timing GPU work with CUDA events: interleaved, in two named regimes, with the clocks and
/// the energy.
///
/// Kernel launches return before the kernel runs, so a host clock around a launch measures
/// nothing. The course times on the GPU's own clock, with CUDA events, and through one routine,
/// time_interleaved(): it times one piece of work or several side by side, and every figure the
/// course prints goes through it (time_gpu() is the case of one piece of work).
///
/// **Side by side means interleaved.** A large GEMM drives a GPU to its power cap within tens of
/// milliseconds, and a throttled GPU runs every kernel slower. Timed "all of A, then all of B", B
/// runs on a hotter, slower GPU than A did, and the comparison measures the order as much as the
/// kernels. time_interleaved() alternates the pieces of work repetition by repetition in the order
/// A B B A A B B A ... (interleaved_order()): each sees the same power and thermal state, and
/// neither is always first.
///
/// **Two regimes, each named.** Regime::kBurst times short repetitions, each starting from a cold
/// L2 and an idle GPU: the GPU stays near its boost clock, as for one GEMM in a program that does
/// other things. Regime::kSustained runs each piece of work back to back in blocks of about
/// TimingOptions::block_ms, the blocks interleaved in an even number of rounds, for at least
/// TimingOptions::sustained_ms of GPU time each after a warm-up about half as long: the power and
/// thermal steady state a training job sees. Its figure is the mean over all the blocks: the work
/// done over the time it took.
///
/// **Long blocks.** A kernel's sustained clock is its own: the power controller sets it from the
/// power the kernel draws, and a kernel that draws less than cuBLAS at the same clock runs faster
/// at the cap. The controller answers a change of load only after tens of milliseconds and settles
/// over hundreds, so the blocks are half a second long: each kernel spends most of its block at
/// its own steady clock. In blocks of 50 ms both would run at about the clock their mix earns; on
/// an H200 at 4096^3, lesson 10's mma.sync kernel read 53.4% of cuBLAS so (at 1601 MHz, cuBLAS at
/// 1681) and 59.2% in these blocks (at 1729 MHz, cuBLAS at 1530).
///
/// **The clock's swing.** At its power cap a GPU's clock is not steady either: an H200's rises and
/// falls by a few percent about once a second. A B B A A B B A ... repeats every four blocks, and
/// where that is the swing's period the order locks onto it: in blocks of 200 ms (about 240 ms at
/// the lowered clock) it timed cuBLAS's bf16 GEMM 2.3-3.6% slower than itself. Blocks of 500 ms
/// repeat every two seconds, far from a one-second swing, and 4 s of each averages what is left:
/// timed against itself so, cuBLAS read 100.0-100.1% in time and 100.0-100.1% in joules at 4096^3
/// and 8192^3. A GPU whose clock swung once every two seconds would lock onto these blocks; lesson
/// 01's check of the method (`--method`) measures exactly that on the GPU at hand.
///
/// **Clocks and energy.** Each measurement also records, through NVML (common/power.hpp), the mean
/// SM clock while the work ran, and in the sustained regime the power and the energy per run.
/// NVML's energy counter does not count continuously: it jumps every 20–100 ms, too coarsely for
/// one burst repetition, and a reading at a block's start or end can be a whole jump late. So a
/// thread of its own records each jump with its time while the blocks run, and the power of each
/// piece of work is fitted to all the jumps at once: each jump's energy is the sum, over the pieces
/// of work, of the time each ran during it times its power (fit_powers()). Where NVML is missing
/// the fields stay empty and the program says so once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace course {

/// How a measurement runs the work: see the file's description.
enum class Regime {
  kBurst,      ///< cold L2, an idle GPU before each repetition: near the boost clock
  kSustained,  ///< back to back, in blocks of half a second, seconds of each: at the power cap
};

/// "burst" or "sustained": the name the records and the options use.
const char* regime_name(Regime regime);
/// The regime named `name`; std::invalid_argument for any other name.
Regime parse_regime(const std::string& name);

/// The order the pieces of work take turns in.
enum class Order {
  kInterleaved,  ///< A B B A A B B A ...: the course's method (interleaved_order())
  /// All of A's repetitions, then all of B's: the unfair method, kept only to show what it does
  /// (lesson 01's check of the method). Nothing the course records is timed this way.
  kSequential,
};

/// How to time. The defaults are the burst regime with 10 repetitions.
struct TimingOptions {
  int warmup = 2;  ///< untimed runs of each piece of work first (module load, clocks ramping up)
  int reps = 10;   ///< burst: timed repetitions of each piece of work
  /// burst: evict the L2 before each repetition, so a small problem is not timed out of the cache
  bool flush_l2 = false;
  Regime regime = Regime::kBurst;
  /// sustained: GPU time of each piece of work, timed (at least): several blocks of each, to
  /// average the clock's swing at the power cap
  double sustained_ms = 4000;
  /// sustained: the length of one block of back-to-back runs: long enough for each piece of work to
  /// settle at its own clock (the power controller's lag), and for A B B A to repeat far from the
  /// clock's swing (about a second)
  double block_ms = 500;
  Order order = Order::kInterleaved;

  /// Empty when the options can be used, else what is wrong ("reps must be at least 1").
  std::string invalid() const;
};

/// One timed block of a sustained measurement, as NVML saw it: when it ran (ms from the start of
/// the first timed block, on the host's clock), the mean SM clock while it ran and the board's
/// mean power over it (from the energy counter), each when known.
struct BlockReading {
  double from_ms = 0, to_ms = 0;
  std::optional<double> sm_clock_mhz;
  std::optional<double> power_w;
};

/// The timings of one piece of GPU work, in milliseconds per run, with what NVML saw meanwhile.
struct TimingStats {
  int reps = 0;  ///< timed samples: repetitions (burst) or blocks (sustained)
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0, stddev_ms = 0;
  Regime regime = Regime::kBurst;
  std::optional<double> sm_clock_mhz;  ///< mean SM clock while it ran (NVML), when known
  std::optional<double> power_w;       ///< mean board power while it ran (sustained), when known
  std::optional<double> energy_j;      ///< energy per run, joules (sustained), when known
  /// Sustained: each of its blocks in time order, with the clock and the power: the trace the
  /// book draws (the other works' blocks sit between them).
  std::vector<BlockReading> blocks;
  /// The figure the course reports, ms per run: the median repetition (burst: an odd slow
  /// repetition does not move it) or the mean over all blocks (sustained: the work done over the
  /// time it took, which the order of the blocks makes fair).
  double ms() const { return regime == Regime::kSustained ? mean_ms : median_ms; }
  /// (max - min) / median: 0.02 means the runs agree to 2%.
  double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0.0; }
};

/// The statistics of a list of times (pure host code; what time_interleaved() reports).
TimingStats summarize_times(std::vector<double> times_ms);

/// The order of an interleaved measurement of `works` pieces of work over `rounds` rounds: round r
/// runs 0, 1, ..., works-1 when r is even and the reverse when r is odd (A B, B A, A B, ...), so
/// that every piece is as often first as last and any two differ in count by at most one at every
/// point. With Order::kSequential: all rounds of 0, then of 1, ...
std::vector<int> interleaved_order(int works, int rounds, Order order = Order::kInterleaved);

/// One jump of the board's energy counter: when it happened, on the host's clock
/// (TimingBackend::host_ms()), and the new value, in joules since the counter's origin.
struct EnergyReading {
  double at_ms = 0;
  double joules = 0;
};

/// A stretch of host time (TimingBackend::host_ms()) during which piece of work `work` ran.
struct WorkSpan {
  int work = 0;
  double from_ms = 0, to_ms = 0;
};

/// The power, in watts, of each of `works` pieces of work that ran in `spans`, fitted by least
/// squares to the jumps of the energy counter in `trace` (readings in time order): the energy of
/// each jump that falls within the spans is taken as the sum over the pieces of work of the time
/// each ran during it, times its power. Exact when each piece of work draws a constant power,
/// whenever the counter jumps. Empty when a piece of work overlaps no jump or the fit is singular.
std::optional<std::vector<double>> fit_powers(const std::vector<EnergyReading>& trace,
                                              const std::vector<WorkSpan>& spans, int works);

/// What time_interleaved() needs of a GPU: a seam, so that the schedule can be tested on the CPU
/// with a clock of its own (tests/common/test_timing.cpp). The course's is the CUDA one.
class TimingBackend {
 public:
  virtual ~TimingBackend() = default;
  /// Marks the stream now; elapsed_ms() measures between two marks.
  virtual int mark() = 0;
  /// Waits until the stream reached mark `m`, sampling the SM clock meanwhile into `clock_mhz`.
  virtual void wait(int m, std::vector<double>& clock_mhz) = 0;
  /// Starts recording each jump of the energy counter, with its time, in the background: the
  /// host's launches must not wait for the counter's reads. False when the counter cannot be read.
  virtual bool start_energy_trace() = 0;
  /// Stops the recording and returns the jumps seen since start_energy_trace(), in time order.
  virtual std::vector<EnergyReading> stop_energy_trace() = 0;
  /// Milliseconds on the host's steady clock, the time base of EnergyReading::at_ms.
  virtual double host_ms() = 0;
  /// Milliseconds of GPU time between two marks that have been waited for.
  virtual double elapsed_ms(int from, int to) = 0;
  /// Evicts the L2 (burst repetitions start cold).
  virtual void flush_l2() = 0;
  /// Keeps the GPU busy for longer than the host takes to launch the next work (a few tens of
  /// microseconds), so that a burst repetition starts the moment its start mark is reached: an
  /// idle GPU would otherwise time the host's launch too.
  virtual void cover_launch() = 0;
  /// Leaves the GPU idle for `ms` (burst: between repetitions, so each starts near the boost).
  virtual void idle_ms(double ms) = 0;
};

/// Times each of `works` (each launches GPU work on the default stream), interleaved, in the
/// regime of `options`; returns one TimingStats per piece of work, in the order given. The one
/// timing routine of the course: every lesson program, `make bench` and the graders' timing go
/// through it. std::invalid_argument for options that TimingOptions::invalid() rejects.
std::vector<TimingStats> time_interleaved(const std::vector<std::function<void()>>& works,
                                          const TimingOptions& options = {});

/// The same on a given backend (time_interleaved() passes the CUDA one).
std::vector<TimingStats> time_interleaved(const std::vector<std::function<void()>>& works,
                                          const TimingOptions& options, TimingBackend& backend);

/// One piece of work timed alone: time_interleaved({work}, options)[0].
TimingStats time_gpu(const std::function<void()>& work, const TimingOptions& options = {});

/// TFLOP/s for `flops` floating-point operations in `ms` milliseconds.
double tflops(double flops, double ms);
/// GB/s (10^9 bytes per second) for `bytes` moved in `ms` milliseconds.
double gbps(double bytes, double ms);
/// The floating-point operations of an M x N x K matrix product: 2*M*N*K (a multiply and an add).
double gemm_flops(int M, int N, int K);

}  // namespace course
