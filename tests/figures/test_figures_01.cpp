// Lesson 01's figures held to the functions they draw: the SMs drawn are the spec's, the ridge
// point drawn is summarize()'s, and every kernel sits where its roof caps it.
#include "catch_compat.hpp"

#include "lessons/01-architecture/figures.hpp"
#include "lessons/01-architecture/reference_devices.hpp"

#include <string>

using namespace lesson01;

TEST_CASE("01 hierarchy: the SMs drawn are the spec's, every level drawn", "[cpu][figures]") {
  for (const ReferenceDevice& d : reference_devices()) {
    INFO(d.label);
    const DeviceSummary sum = summarize(d.spec);
    const course::svg::Scene s = hierarchy_scene(d.label, d.spec, sum);
    CHECK(s.count("sm") == d.spec.sm_count);
    CHECK(s.count("level") == 4);
    CHECK(s.count("bandwidth") == 3);  // all but the L2, which the spec does not give
    const std::string svg = s.str();   // every label readable in the book
    const auto levels = memory_levels(d.spec, sum);
    CHECK(levels.back().bandwidth_gbs == sum.peak_bandwidth_gbs);
    CHECK(levels[2].bytes == static_cast<double>(d.spec.l2_bytes));
    CHECK(svg.find(std::to_string(d.spec.sm_count) + " SMs") != std::string::npos);
  }
}

TEST_CASE("01 roofline: the ridge point drawn is summarize()'s", "[cpu][figures]") {
  for (const ReferenceDevice& d : reference_devices()) {
    INFO(d.label);
    const DeviceSummary sum = summarize(d.spec);
    std::vector<RoofPoint> points;
    for (const KernelIntensity& k : chapter_kernels(4096))
      points.push_back({k.name, k.intensity(), 0});
    const course::svg::Scene s = roofline_scene(d.label, sum, {}, points);
    CHECK(s.count("ridge") == 1);
    CHECK(s.count("point") == 3);
    CHECK(s.count("roof") == 2);  // device memory's slope and the FP32 peak
    const std::string svg = s.str();
    CHECK(svg.find("ridge point: " + figure_number(sum.ridge_flop_per_byte) + " FLOP/byte") !=
          std::string::npos);
    CHECK(svg.find("peak FP32: " + figure_number(sum.peak_fp32_tflops) + " TFLOP/s") !=
          std::string::npos);
  }
  // The chapter's numbers on the H100: ridge 20.0, the vector add at 1/12, SGEMM at N/6.
  CHECK(figure_number(summarize(h100_sxm5().spec).ridge_flop_per_byte) == "20.0");
  const auto k = chapter_kernels(4096);
  CHECK(course_test::near(k[0].intensity(), 1.0 / 12));
  CHECK(course_test::near(k[1].intensity(), 0.25));
  CHECK(course_test::near(k[2].intensity(), 4096.0 / 6));
}
