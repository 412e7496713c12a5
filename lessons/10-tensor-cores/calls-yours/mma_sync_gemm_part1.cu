// Lesson 10: the mma.sync kernel's configurations, part 1 of 2 (calls-yours/mma_sync_gemm.cu lists
// them all): those with BK = 32, the ladder's first three steps and the smaller tiles mma_sync_gemm
// falls back to among them. Given code that calls yours: compiled twice, with each library's
// mma_sync_parts.cuh, beside mma_sync_gemm_part2.cu. This file also compiles the host copies of
// your three mappings, the ones the grader calls on the CPU.
#include "mma_sync_kernel.cuh"

namespace lesson10 {

LESSON10_CONFIG(Tile<128, 128, 32, 2, 2, 2, false>)  // Step1
LESSON10_CONFIG(Tile<128, 128, 32, 2, 2, 2, true>)   // Step2
LESSON10_CONFIG(Tile<128, 128, 32, 2, 2, 4, true>)   // Step3
LESSON10_CONFIG(Tile<64, 128, 32, 2, 2, 4, true>)    // Middle
LESSON10_CONFIG(Tile<64, 64, 32, 2, 2, 4, true>)     // Small
LESSON10_CONFIG(Tile<128, 128, 32, 2, 2, 6, true>)
LESSON10_CONFIG(Tile<128, 128, 32, 2, 4, 4, true>)
LESSON10_CONFIG(Tile<128, 256, 32, 2, 4, 4, true>)
LESSON10_CONFIG(Tile<128, 128, 32, 2, 2, 3, true>)  // LargeShallow

}  // namespace lesson10
