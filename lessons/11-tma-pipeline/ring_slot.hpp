// Lesson 11: a k-block's place in the ring, what the ring protocol of pipeline_exercises.cuh
// returns. Apart from the model of the ring (ring_model.hpp) so that the kernels' files, which
// include your file, stay light to compile.
#pragma once

#include <cstdint>

namespace lesson11 {

/// Where k-block `it` lives and which phase of a stage's barrier a thread waits for.
struct RingSlot {
  int stage = 0;
  std::uint32_t parity = 0;
};

}  // namespace lesson11
