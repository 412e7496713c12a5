// Lesson 08: the warp-tiled kernel's configurations of part 2 in LESSON08_CONFIGS
// (warptiled_sgemm.hpp): the alternatives the chapter compares. Given code that calls yours:
// compiled twice, with each library's warptiled_parts.cuh, beside warptiled_sgemm_part1.cu.
#include "warptiled_kernel.cuh"

namespace lesson08 {

#define LESSON08_PART_1(...)
#define LESSON08_PART_2 LESSON08_CONFIG
LESSON08_CONFIGS(LESSON08_IN_PART)

}  // namespace lesson08
