/// \file scenes.cpp
/// \brief Lesson 03's pictures (given code, compiled with each library): the naive kernel on lesson
/// 01's roofline, placed by naive_traffic.
#include "lessons/03-naive/figures.hpp"

#include "lessons/01-architecture/figures.hpp"

#include <string>
#include <vector>

namespace lesson03 {

course::svg::Scene naive_roofline_scene(const lesson01::ReferenceDevice& device) {
  const lesson01::DeviceSummary summary = lesson01::summarize(device.spec);
  const double l1_gbs = lesson01::memory_levels(device.spec, summary).at(1).bandwidth_gbs;
  const NaiveTraffic t = naive_traffic(4096);
  const std::string lines = std::to_string(static_cast<int>(t.lines_per_fma * kBlockX + 0.5));
  return lesson01::roofline_scene(
      device.label, summary, {{"L1, a 128-byte line a clock per SM", l1_gbs}},
      {{"naive, 8 bytes loaded per FMA, all from device memory", t.flop_per_byte(), 0},
       {"naive, " + lines + " L1 lines per 32 FMAs, under the L1's roof", t.flop_per_line_byte(),
        1}});
}

}  // namespace lesson03
