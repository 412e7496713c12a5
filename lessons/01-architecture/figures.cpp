/// \file figures.cpp
/// \brief Lesson 01's figures: the hierarchy and the roofline of each reference GPU, drawn from
/// its spec and your summarize() of it (the book shows the reference's).
#include "lessons/01-architecture/figures.hpp"
#include "lessons/01-architecture/reference_devices.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson01 {

namespace {

/// The reference GPUs as a control: their labels, the H100 first.
course::fig::Control device_control() {
  course::fig::Control c{"device", "GPU", {}, {}, ""};
  for (const ReferenceDevice& d : reference_devices()) c.values.push_back(d.label);
  return c;
}

ReferenceDevice device_of(const std::string& label) {
  for (const ReferenceDevice& d : reference_devices()) {
    if (d.label == label) return d;
  }
  throw std::invalid_argument("no reference GPU " + label);
}

std::vector<course::fig::Figure> figures() {
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "01-hierarchy", "A GPU from the outside in",
      "Every SM the driver reports, above the one L2 cache and device memory; one SM inside, its "
      "four partitions sharing the lanes and registers; and the memory levels with their sizes "
      "and bandwidths. Look at the two bars going opposite ways: each level further out is "
      "larger and narrower.",
      {device_control()}, [](const std::vector<std::string>& v) {
        const ReferenceDevice d = device_of(v[0]);
        return hierarchy_scene(d.label, d.spec, summarize(d.spec));
      }));
  out.push_back(course::fig::make(
      "01-roofline", "The roofline",
      "The two peaks of summarize() as a roofline: below the ridge point a kernel is limited by "
      "device memory, above it by arithmetic. Switch the GPU and watch the ridge move, and the "
      "three kernels of the text stay where their intensity puts them.",
      {device_control()}, [](const std::vector<std::string>& v) {
        const ReferenceDevice d = device_of(v[0]);
        std::vector<RoofPoint> points;
        for (const KernelIntensity& k : chapter_kernels(4096)) {
          points.push_back({k.name, k.intensity(), 0});
        }
        return roofline_scene(d.label, summarize(d.spec), {}, points);
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson01
