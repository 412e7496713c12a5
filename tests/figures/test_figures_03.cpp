// Lesson 03's figure held to the function it draws: the naive kernel's two points are where
// naive_traffic and lesson 01's roofs put them.
#include "catch_compat.hpp"

#include "lessons/01-architecture/figures.hpp"
#include "lessons/03-naive/figures.hpp"

#include <string>

using namespace lesson03;

TEST_CASE("03 roofline: the naive kernel is where naive_traffic puts it", "[cpu][figures]") {
  // The chapter's counts: 8 bytes per FMA, 33 lines for a warp's 32 FMAs at K = 4096.
  const NaiveTraffic t = naive_traffic(4096);
  CHECK(t.bytes_per_fma == 8);
  CHECK(course_test::near(t.flop_per_byte(), 0.25));
  CHECK(course_test::near(t.lines_per_fma * 32, 33));
  CHECK(course_test::near(naive_traffic(16).lines_per_fma * 32,
                          16 + 1));  // two rows of A share a line
  for (const lesson01::ReferenceDevice& d : lesson01::reference_devices()) {
    INFO(d.label);
    const lesson01::DeviceSummary sum = lesson01::summarize(d.spec);
    const course::svg::Scene s = naive_roofline_scene(d);
    CHECK(s.count("point") == 2);
    CHECK(s.count("ridge") == 1);
    CHECK(s.count("roof") == 3);  // device memory, the L1, the FP32 peak
    const std::string svg = s.str();
    using lesson01::figure_number;
    const double dram = t.flop_per_byte() * sum.peak_bandwidth_gbs / 1000;
    const double l1 = t.flop_per_line_byte() * 128 * d.spec.sm_count * d.spec.sm_clock_khz / 1e9;
    CHECK(svg.find(figure_number(t.flop_per_byte()) + " FLOP/byte, at most " + figure_number(dram) +
                   " TFLOP/s") != std::string::npos);
    CHECK(svg.find(figure_number(t.flop_per_line_byte()) + " FLOP/byte, at most " +
                   figure_number(l1) + " TFLOP/s") != std::string::npos);
  }
  // On the H100: 0.84 TFLOP/s under device memory, 0.51 under the L1 (64 FLOP per 33 lines at
  // one line a clock on 132 SMs at 1.98 GHz).
  const std::string h100 = naive_roofline_scene(lesson01::h100_sxm5()).str();
  CHECK(h100.find("at most 0.838 TFLOP/s") != std::string::npos);
  CHECK(h100.find("at most 0.507 TFLOP/s") != std::string::npos);
}
