// Lesson 10: the mma.sync kernel's configurations of part 3 in LESSON10_CONFIGS
// (calls-yours/mma_sync_config.cuh): the sweep's larger tiles. Given code that calls yours:
// compiled twice, with each library's mma_sync_parts.cuh, beside the other mma_sync_gemm_part*.cu
// files.
#include "mma_sync_kernel.cuh"

namespace lesson10 {

#define LESSON10_PART_3 LESSON10_IN_THIS_PART
#define LESSON10_PART_1(...)
#define LESSON10_PART_2(...)
LESSON10_CONFIGS(LESSON10_IN_PART)

}  // namespace lesson10
