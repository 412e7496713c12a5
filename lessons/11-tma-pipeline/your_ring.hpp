// Lesson 11: your ring (pipeline_exercises.cuh) as the CPU model plays it (ring_model.hpp), for
// the grader and the figures, which call it on the CPU. In this library's namespace, like your
// functions (common/library.hpp).
#pragma once

#include "pipeline_exercises.cuh"  // yours, or the reference's
#include "ring_model.hpp"          // RingProtocol

#include "common/library.hpp"  // COURSE_LIBRARY

namespace lesson11 {
inline namespace COURSE_LIBRARY {

/// producer_slot, consumer_slot and empty_barrier_arrivals, as one protocol.
inline RingProtocol ring_protocol() {
  return RingProtocol{[](int it, int stages) { return producer_slot(it, stages); },
                      [](int it, int stages) { return consumer_slot(it, stages); },
                      [](int warps) { return empty_barrier_arrivals(warps); }};
}

}  // namespace COURSE_LIBRARY
}  // namespace lesson11
