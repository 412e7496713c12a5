// Lesson 11: the kernels a save's grader needs (the headline's 128 x 256 tile, its register
// fallback, the portable rung), compiled here with the library's pipeline_exercises.cuh.
#include "ladder.cuh"

namespace lesson11 {
LESSON11_RING_LAUNCH(Headline);
LESSON11_RING_LAUNCH(Registers);
LESSON11_RING_LAUNCH(Portable);
}  // namespace lesson11
