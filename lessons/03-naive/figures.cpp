/// \file figures.cpp
/// \brief Lesson 03's figures: the naive kernel on the roofline of each reference GPU (chapter 03's
/// warp step is lesson 04's: it needs warp_access).
#include "lessons/03-naive/figures.hpp"

#include "common/figures.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace lesson03 {

namespace {

std::vector<course::fig::Figure> figures() {
  course::fig::Control device{"device", "GPU", {}, {}, ""};
  for (const lesson01::ReferenceDevice& d : lesson01::reference_devices()) {
    device.values.push_back(d.label);
  }
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "03-roofline", "The naive kernel on the roofline",
      "The naive kernel loads 8 bytes for every FMA: 0.25 FLOP/byte, far left of the ridge, so "
      "device memory's roof would cap it (point 1). But the caches serve most loads; what they "
      "cannot avoid is looking up a whole 128-byte line for each of a warp's scattered loads of A, "
      "and the L1's roof caps the kernel lower still (point 2).",
      {device}, [](const std::vector<std::string>& v) {
        for (const lesson01::ReferenceDevice& d : lesson01::reference_devices()) {
          if (d.label == v[0]) return naive_roofline_scene(d);
        }
        throw std::invalid_argument("no reference GPU " + v[0]);
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson03
