// Lesson 09: the final kernel's configurations of part 3 in LESSON09_CONFIGS
// (calls-yours/swizzled_config.cuh): the other half of the sweep's. Given code that calls yours:
// compiled twice, with each library's swizzle_parts.cuh, beside the other swizzled_sgemm_part*.cu
// files.
#include "swizzled_kernel.cuh"

namespace lesson09 {

#define LESSON09_PART_3 LESSON09_IN_THIS_PART
#define LESSON09_PART_1(...)
#define LESSON09_PART_2(...)
LESSON09_CONFIGS(LESSON09_IN_PART)

}  // namespace lesson09
