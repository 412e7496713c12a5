// Lesson 08: the warp-tiled kernel's configurations, part 1 of 2 (calls-yours/warptiled_sgemm.cu
// lists them all): those with BK = 8, the two tuned_warptiled_sgemm runs among them. Given code
// that calls yours: compiled twice, with each library's warptiled_parts.cuh, beside
// warptiled_sgemm_part2.cu. This file also compiles the host copy of your thread_place, the one
// the grader calls on the CPU.
#include "warptiled_kernel.cuh"

namespace lesson08 {

LESSON08_CONFIG(128, 256, 8, 64, 64, 4, 2, 4, 4, 1)
LESSON08_CONFIG(64, 64, 8, 32, 32, 2, 1, 4, 4, 4)
LESSON08_CONFIG(128, 128, 8, 32, 64, 2, 2, 4, 4, 2)
LESSON08_CONFIG(64, 128, 8, 32, 64, 2, 2, 4, 4, 4)
LESSON08_CONFIG(256, 128, 8, 64, 64, 2, 4, 4, 4, 1)

}  // namespace lesson08
