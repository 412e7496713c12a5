// Lesson 08: the warp-tiled kernel's configurations, part 2 of 2 (calls-yours/warptiled_sgemm.cu
// lists them all): those with BK = 16. Given code that calls yours: compiled twice, with each
// library's warptiled_parts.cuh, beside warptiled_sgemm_part1.cu.
#include "warptiled_sgemm.hpp"

namespace lesson08 {
// Your thread_place is compiled with every kernel that calls it; the grader's copy, for the CPU,
// comes from warptiled_sgemm_part1.cu. Declared inline before your file defines it, the copy
// compiled here merges with that one when linking instead of clashing with it.
COURSE_HD inline ThreadPlace thread_place(const WarpTileShape& s, int tid);
}  // namespace lesson08

#include "warptiled_kernel.cuh"

namespace lesson08 {

LESSON08_CONFIG(128, 256, 16, 64, 64, 4, 2, 4, 4, 1)
LESSON08_CONFIG(128, 128, 16, 64, 64, 1, 4, 8, 4, 2)

}  // namespace lesson08
