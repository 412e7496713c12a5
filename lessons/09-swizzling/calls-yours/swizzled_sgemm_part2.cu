// Lesson 09: the final kernel's configurations, part 2 of 2 (calls-yours/swizzled_sgemm.cu lists
// them all): the ladder's steps 4 and 5, the smallest tile final_sgemm chooses, and more for the
// sweep. Given code that calls yours: compiled twice, with each library's swizzle_parts.cuh,
// beside swizzled_sgemm_part1.cu.
#include "smem_swizzle.hpp"

namespace lesson09 {
// Your padded_index and swizzled_a_index are compiled with every kernel that calls them; the
// grader's copies, for the CPU, come from swizzled_sgemm_part1.cu. Declared inline before your file
// defines them, the copies compiled here merge with those when linking instead of clashing with
// them.
COURSE_HD inline int padded_index(int row, int col, int row_length, int pad);
COURSE_HD inline int swizzled_a_index(int k, int m, int bk);
}  // namespace lesson09

#include "swizzled_kernel.cuh"

namespace lesson09 {

using P = ALayout;

LESSON09_CONFIG(Tile<128, 128, 16, 4, 2, 3, P::kPlain>)
LESSON09_CONFIG(Tile<128, 128, 16, 4, 2, 3, P::kPadded>)
LESSON09_CONFIG(Tile<128, 128, 16, 4, 2, 3, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 256, 16, 4, 2, 3, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 256, 16, 4, 2, 4, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 256, 32, 4, 2, 3, P::kSwizzled>)
LESSON09_CONFIG(Tile<64, 128, 16, 2, 4, 3, P::kSwizzled>)  // Small
LESSON09_CONFIG(Tile<64, 64, 16, 4, 2, 3, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 256, 8, 4, 2, 4, P::kPlain>)   // step 4
LESSON09_CONFIG(Tile<128, 256, 8, 4, 2, 4, P::kPadded>)  // step 5

}  // namespace lesson09
