// Tests of common/timing on the CPU: the interleaved order, the schedule of both regimes on a
// simulated GPU that slows down as it heats (as a GPU at its power cap does), the summary
// arithmetic, and the options a program refuses.
#include "catch_compat.hpp"

#include "common/cli.hpp"
#include "common/gemm_driver.hpp"
#include "common/timing.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr double kPi = 3.14159265358979323846;

// A GPU on a clock of its own. Work runs when launched (the simulation needs no queue); each run
// takes its base time stretched by the heat, and the heat rises with work and falls while idle,
// so that whatever runs later in a long stretch of work runs slower.
class SimulatedGpu final : public course::TimingBackend {
 public:
  double now_ms = 0, heat = 0, energy = 0;
  double heating_per_ms = 0;  // heat gained per ms of work (0: a GPU that never throttles)
  double max_heat = 1;        // the cap: a throttled GPU runs at half speed
  double watts = 500;         // the board's power while work runs (0 while idle)
  // A clock that rises and falls as a GPU's at its power cap does: each run takes up to `wobble`
  // longer or shorter, with a period of wobble_period_ms, starting at phase wobble_phase.
  double wobble = 0, wobble_period_ms = 1000, wobble_phase = 0;
  // The energy counter as NVML shows it: it jumps every tick_ms to the energy counted so far;
  // while a trace is on, each jump is recorded with its time.
  double tick_ms = 20, counter = 0;
  bool tracing = false;
  std::vector<course::EnergyReading> trace;
  std::vector<double> marks;
  std::vector<int> log;  // which work ran, in order
  int flushes = 0, covers = 0;

  void run(int which, double base_ms, double run_watts = 0) {
    const double ms = base_ms * (1.0 + heat) *
                      (1.0 + wobble * std::sin(wobble_phase + 2 * kPi * now_ms / wobble_period_ms));
    const double w = run_watts > 0 ? run_watts : watts;
    advance(ms, w);
    heat = std::min(max_heat, heat + heating_per_ms * ms);
    log.push_back(which);
  }
  int mark() override {
    marks.push_back(now_ms);
    return static_cast<int>(marks.size()) - 1;
  }
  void wait(int, std::vector<double>& clock_mhz) override {
    clock_mhz.push_back(1980.0 / (1.0 + heat));
  }
  bool start_energy_trace() override {
    trace.clear();
    tracing = true;
    return true;
  }
  std::vector<course::EnergyReading> stop_energy_trace() override {
    tracing = false;
    return trace;
  }
  double host_ms() override { return now_ms; }
  double elapsed_ms(int from, int to) override { return marks[to] - marks[from]; }
  void flush_l2() override { ++flushes; }
  void cover_launch() override { ++covers; }
  void idle_ms(double ms) override {
    advance(ms, 0);
    heat *= std::exp(-ms / 50.0);
  }

 private:
  // Time passes at `w` watts; the counter jumps at every multiple of tick_ms crossed.
  void advance(double ms, double w) {
    if (tick_ms > 0) {
      for (double t = (std::floor(now_ms / tick_ms) + 1) * tick_ms; t <= now_ms + ms;
           t += tick_ms) {
        counter = energy + w * (t - now_ms) * 1e-3;
        if (tracing) trace.push_back({t, counter});
      }
    }
    now_ms += ms;
    energy += w * ms * 1e-3;
    if (tick_ms <= 0) counter = energy;
  }
};

// Equal but for rounding.
bool close(double a, double b) { return course_test::near(a, b); }

// Two identical kernels, "A" (0) and "B" (1), of `base_ms` each.
std::vector<std::function<void()>> twins(SimulatedGpu& gpu, double base_ms) {
  return {[&gpu, base_ms] { gpu.run(0, base_ms); }, [&gpu, base_ms] { gpu.run(1, base_ms); }};
}

// The longest stretch of one work in a row, in the timed part of a log (after `skip` runs).
int longest_run(const std::vector<int>& log, std::size_t skip) {
  int best = 0, run = 0, last = -1;
  for (std::size_t i = skip; i < log.size(); ++i) {
    run = log[i] == last ? run + 1 : 1;
    last = log[i];
    best = std::max(best, run);
  }
  return best;
}

}  // namespace

TEST_CASE("interleaved_order: A B B A, every work as often first as last", "[cpu][timing]") {
  CHECK(course::interleaved_order(2, 4) == std::vector<int>{0, 1, 1, 0, 0, 1, 1, 0});
  CHECK(course::interleaved_order(3, 2) == std::vector<int>{0, 1, 2, 2, 1, 0});
  CHECK(course::interleaved_order(1, 3) == std::vector<int>{0, 0, 0});
  for (int works : {2, 3, 5}) {
    const std::vector<int> order = course::interleaved_order(works, 10);
    REQUIRE(order.size() == static_cast<std::size_t>(works * 10));
    // At every point, no work is more than one turn ahead of another.
    std::vector<int> count(works, 0);
    for (int k : order) {
      ++count[k];
      const auto [lo, hi] = std::minmax_element(count.begin(), count.end());
      CHECK(*hi - *lo <= 1);
    }
  }
  // The unfair order is there only to be shown, and is what it says.
  CHECK(course::interleaved_order(2, 3, course::Order::kSequential) ==
        std::vector<int>{0, 0, 0, 1, 1, 1});
  CHECK_THROWS_AS(course::interleaved_order(0, 3), std::invalid_argument);
}

TEST_CASE("burst: the works take turns, each repetition after an L2 flush, a cover and a rest",
          "[cpu][timing]") {
  SimulatedGpu gpu;
  course::TimingOptions o;
  o.warmup = 1;
  o.reps = 6;
  o.flush_l2 = true;
  const auto stats = course::time_interleaved(twins(gpu, 2.0), o, gpu);
  REQUIRE(stats.size() == 2);
  // Warm-up A B, then A B B A A B B A A B B A: never three of one in a row, as often each.
  const std::vector<int> timed(gpu.log.begin() + 2, gpu.log.end());
  CHECK(timed == course::interleaved_order(2, 6));
  CHECK(longest_run(gpu.log, 2) <= 2);
  CHECK(gpu.flushes == 12);
  CHECK(gpu.covers == 12);  // the GPU is busy when each repetition's start is marked
  for (const course::TimingStats& s : stats) {
    CHECK(s.regime == course::Regime::kBurst);
    CHECK(s.reps == 6);
    CHECK(close(s.median_ms, 2.0));
    CHECK(s.sm_clock_mhz.has_value());
    CHECK_FALSE(s.energy_j.has_value());  // the energy counter is too coarse for a burst
  }
}

TEST_CASE("interleaved, twins on a GPU that heats up measure alike; one after the other do not",
          "[cpu][timing]") {
  // Heavy heating that the rests between burst repetitions only partly undo: what a large GEMM
  // does to a GPU near its power cap.
  auto ratio = [](course::Order order, course::Regime regime) {
    SimulatedGpu gpu;
    gpu.heating_per_ms = 0.01;
    course::TimingOptions o;
    o.warmup = 0;
    o.reps = 30;
    o.regime = regime;
    o.sustained_ms = 200;
    o.block_ms = 20;
    o.order = order;
    const auto stats = course::time_interleaved(twins(gpu, 1.0), o, gpu);
    return stats[0].ms() / stats[1].ms();  // B's speed relative to A's
  };
  // The course's method: the same kernel twice is the same speed, within 1%, in both regimes.
  CHECK(std::fabs(ratio(course::Order::kInterleaved, course::Regime::kBurst) - 1.0) < 0.01);
  CHECK(std::fabs(ratio(course::Order::kInterleaved, course::Regime::kSustained) - 1.0) < 0.01);
  // "All of A, then all of B" makes the second slower: the bias the method is there to remove.
  // (Sustained, both reach the cap during the warm-up, and the order shows less.)
  CHECK(ratio(course::Order::kSequential, course::Regime::kBurst) < 0.97);
  // The default order is the interleaved one: a routine that reverts to "all of A, then all of B"
  // fails here.
  SimulatedGpu gpu;
  course::TimingOptions o;
  o.warmup = 0;
  o.reps = 8;
  course::time_interleaved(twins(gpu, 1.0), o, gpu);
  CHECK(longest_run(gpu.log, 0) <= 2);
}

TEST_CASE("sustained: twins on a GPU still heating up through the measurement measure alike",
          "[cpu][timing]") {
  // A GPU that keeps slowing down while it is timed (no cap reached): 5 rounds of A B, B A, ...
  // would put B's blocks later than A's on average; the rounds are made even.
  SimulatedGpu gpu;
  gpu.heating_per_ms = 0.0001;
  gpu.max_heat = 10;
  course::TimingOptions o;
  o.warmup = 0;
  o.regime = course::Regime::kSustained;
  o.sustained_ms = 1000;
  o.block_ms = 200;
  const auto stats = course::time_interleaved(twins(gpu, 2.0), o, gpu);
  CHECK(stats[0].reps == 6);
  CHECK(std::fabs(stats[0].ms() / stats[1].ms() - 1.0) < 0.002);
}

TEST_CASE("sustained: twins on a GPU whose clock rises and falls measure alike", "[cpu][timing]") {
  // At its power cap an H200's clock swings by a few percent about once a second. In blocks of
  // 250 ms, A B B A A B B A ... repeats itself every second too, locks onto the swing and times
  // one twin 3% faster than the other; the default blocks repeat every two seconds, and the
  // default time of each averages what is left, to well under the 3-4% of locked blocks.
  auto worst = [](double block_ms, double sustained_ms) {
    double out = 0;
    for (const double period_ms : {800.0, 900.0, 1000.0, 1100.0, 1200.0, 1300.0}) {
      for (const double phase : {0.0, 0.5 * kPi, kPi, 1.5 * kPi}) {
        SimulatedGpu gpu;
        gpu.wobble = 0.03;
        gpu.wobble_period_ms = period_ms;
        gpu.wobble_phase = phase;
        course::TimingOptions o;
        o.warmup = 0;
        o.regime = course::Regime::kSustained;
        if (sustained_ms > 0) o.sustained_ms = sustained_ms;
        if (block_ms > 0) o.block_ms = block_ms;
        const auto stats = course::time_interleaved(twins(gpu, 0.5), o, gpu);
        out = std::max(out, std::fabs(stats[0].ms() / stats[1].ms() - 1.0));
      }
    }
    return out;
  };
  const double defaults = worst(0, 0);
  const double locked = worst(250, 1000);
  INFO("worst difference: " << defaults << " in the default blocks, " << locked << " locked");
  CHECK(defaults < 0.01);  // 0.64% at worst, in these periods and phases
  CHECK(locked > 0.02);
}

TEST_CASE("sustained: blocks of back-to-back runs, interleaved, a second of work each",
          "[cpu][timing]") {
  SimulatedGpu gpu;
  course::TimingOptions o;
  o.warmup = 0;
  o.regime = course::Regime::kSustained;
  o.sustained_ms = 1000;
  o.block_ms = 100;
  std::vector<std::function<void()>> works = {[&] { gpu.run(0, 4.0); }, [&] { gpu.run(1, 10.0); }};
  const auto stats = course::time_interleaved(works, o, gpu);
  // One calibration run of each (A's, shorter than 5 ms, again as a batch of 2), then a warm-up
  // of 5 rounds, then 10 timed rounds of blocks of 25 runs (A) and 10 runs (B), then, untimed,
  // blocks of the last block's work (A) for 250 ms, so that the energy trace reaches past it.
  CHECK(std::count(gpu.log.begin(), gpu.log.end(), 0) == 1 + 2 + 5 * 25 + 10 * 25 + 3 * 25);
  CHECK(std::count(gpu.log.begin(), gpu.log.end(), 1) == 1 + 5 * 10 + 10 * 10);
  CHECK(longest_run(gpu.log, 0) >= 2 * 25);  // a block of A, then A's block of the next round
  CHECK(stats[0].reps == 10);
  CHECK(close(stats[0].ms(), 4.0));
  CHECK(close(stats[1].ms(), 10.0));
  // The power, fitted to the counter's jumps.
  for (const course::TimingStats& s : stats) {
    CHECK(s.regime == course::Regime::kSustained);
    REQUIRE(s.power_w.has_value());
    CHECK(std::fabs(*s.power_w - 500.0) < 1e-6);
  }
  REQUIRE(stats[1].energy_j.has_value());
  CHECK(std::fabs(*stats[1].energy_j - 5.0) < 1e-6);  // 500 W for 10 ms: 5 J per run
}

TEST_CASE("sustained: the power of each work does not depend on when the counter jumps",
          "[cpu][timing]") {
  // NVML's counter jumps every 20-100 ms. Read at a block's start and end, it would credit a 100
  // ms block with anything from half to one and a half times its energy; fitted to every jump at
  // once, each work gets its own power.
  // In the default blocks (50 ms) and in longer ones.
  for (const double tick : {20.0, 50.0, 70.0, 100.0}) {
    for (const double block_ms : {course::TimingOptions{}.block_ms, 100.0}) {
      SimulatedGpu gpu;
      gpu.tick_ms = tick;
      course::TimingOptions o;
      o.warmup = 0;
      o.regime = course::Regime::kSustained;
      o.sustained_ms = 1000;
      o.block_ms = block_ms;
      std::vector<std::function<void()>> works = {[&] { gpu.run(0, 0.5, 300); },
                                                  [&] { gpu.run(1, 0.5, 600); }};
      const auto stats = course::time_interleaved(works, o, gpu);
      INFO("the counter jumps every " << tick << " ms; blocks of " << block_ms << " ms");
      REQUIRE(stats[0].power_w.has_value());
      REQUIRE(stats[1].power_w.has_value());
      CHECK(std::fabs(*stats[0].power_w - 300.0) < 1e-6);
      CHECK(std::fabs(*stats[1].power_w - 600.0) < 1e-6);
      REQUIRE(stats[1].energy_j.has_value());
      CHECK(std::fabs(*stats[1].energy_j - 0.3) < 1e-9);  // 600 W for 0.5 ms: 0.3 J a run
    }
  }
}

TEST_CASE("sustained: each block's time, clock and power, the trace the book draws",
          "[cpu][timing]") {
  SimulatedGpu gpu;
  gpu.tick_ms = 20;
  course::TimingOptions o;
  o.warmup = 0;
  o.regime = course::Regime::kSustained;
  o.sustained_ms = 2000;
  o.block_ms = 250;
  std::vector<std::function<void()>> works = {[&] { gpu.run(0, 0.5, 300); },
                                              [&] { gpu.run(1, 0.5, 600); }};
  const auto stats = course::time_interleaved(works, o, gpu);
  // 2000 ms in blocks of 250: 8 rounds, so 8 blocks of each, A B B A ... in time order.
  std::vector<std::pair<double, int>> starts;
  for (int k = 0; k < 2; ++k) {
    REQUIRE(stats[k].blocks.size() == 8);
    double last = -1;
    for (const course::BlockReading& b : stats[k].blocks) {
      CHECK(b.from_ms >= last);  // in time order (A B B A: a block may follow its own)
      CHECK(b.to_ms > b.from_ms);
      last = b.to_ms;
      starts.emplace_back(b.from_ms, k);
      REQUIRE(b.sm_clock_mhz.has_value());
      // A block well inside the trace gets its own power: the counter's jumps around it.
      if (b.power_w) CHECK(std::fabs(*b.power_w - (k == 0 ? 300.0 : 600.0)) < 0.1 * 600.0);
    }
  }
  std::sort(starts.begin(), starts.end());
  CHECK(starts.front().first == 0.0);  // times from the start of the first timed block
  int with_power = 0;
  for (const auto& s : stats) {
    for (const auto& b : s.blocks) with_power += b.power_w.has_value();
  }
  CHECK(with_power >= 14);  // all but the edges of the trace
}

TEST_CASE("fit_powers: each jump's energy is the time each work ran in it, times its power",
          "[cpu][timing]") {
  // Work 0 at 100 W from 0 to 60 ms, work 1 at 400 W from 60 to 120 ms; jumps every 40 ms.
  const std::vector<course::WorkSpan> spans = {{0, 0, 60}, {1, 60, 120}};
  const std::vector<course::EnergyReading> trace = {
      {0, 0.0}, {40, 4.0}, {80, 2.0 + 4.0 + 8.0}, {120, 14.0 + 16.0}};
  const auto watts = course::fit_powers(trace, spans, 2);
  REQUIRE(watts.has_value());
  CHECK(std::fabs((*watts)[0] - 100.0) < 1e-9);
  CHECK(std::fabs((*watts)[1] - 400.0) < 1e-9);
  // A work that overlaps no jump cannot be fitted.
  CHECK_FALSE(course::fit_powers(trace, {{0, 0, 120}}, 2).has_value());
  CHECK_FALSE(course::fit_powers({}, spans, 2).has_value());
}

TEST_CASE("timing options a program refuses, with the reason", "[cpu][timing]") {
  SimulatedGpu gpu;
  course::TimingOptions o;
  o.reps = 0;
  CHECK(o.invalid() == "reps must be at least 1");
  CHECK_THROWS_AS(course::time_interleaved(twins(gpu, 1.0), o, gpu), std::invalid_argument);
  o = {};
  o.regime = course::Regime::kSustained;
  o.sustained_ms = 0;
  CHECK(o.invalid() == "the sustained time must be more than 0 ms");
  CHECK(course::parse_regime("sustained") == course::Regime::kSustained);
  CHECK_THROWS_AS(course::parse_regime("warm"), std::invalid_argument);
  CHECK(std::string(course::regime_name(course::Regime::kBurst)) == "burst");

  // What a lesson program says (and then exits 2, Cli::parse) to each of them.
  auto error_of = [](std::vector<const char*> args) {
    course::Cli cli("lessonNN", "test");
    course::add_gemm_options(cli);
    args.insert(args.begin(), "lessonNN");
    return cli.try_parse(static_cast<int>(args.size()), args.data());
  };
  CHECK(error_of({"--regime", "warm"}) == "--regime is burst or sustained, got 'warm'");
  CHECK(error_of({"--reps", "0"}) == "--reps needs a positive whole number, got '0'");
  CHECK(error_of({"--sustained-ms", "0"}) ==
        "--sustained-ms needs a positive whole number, got '0'");
  CHECK(error_of({"--regime=sustained", "--sustained-ms", "500", "--kernel-first"}).empty());
}
