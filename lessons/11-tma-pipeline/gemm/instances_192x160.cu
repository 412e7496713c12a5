// Lesson 11: the headline's 192 x 160 kernel, compiled here, in parallel with instances.cu.
#include "ladder.cuh"

namespace lesson11 {
LESSON11_RING_LAUNCH(Tile192x160);
}  // namespace lesson11
