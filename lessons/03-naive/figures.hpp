/// \file figures.hpp
/// \brief Lesson 03's figures: the naive kernel on the roofline of lesson 01, placed by its traffic
/// (naive_traffic), under device memory's roof and under the L1's.
#pragma once

#include "lessons/03-naive/naive_sgemm.hpp"

#include "lessons/01-architecture/reference_devices.hpp"

#include "common/svg.hpp"

namespace lesson03 {

/// The roofline of `device` (lesson 01's, from the reference solution's summarize) with the L1's
/// roof (one 128-byte line a clock per SM, lesson01::memory_levels) and the naive kernel at
/// K = 4096 twice: at naive_traffic's bytes per FMA under device memory's roof, and at its lines
/// per FMA under the L1's. Tagged "point" (the two kernels), "ridge", "roof" (lesson 01's tags).
course::svg::Scene naive_roofline_scene(const lesson01::ReferenceDevice& device);

}  // namespace lesson03
