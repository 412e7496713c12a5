// Lesson 10: the mma.sync kernel's configurations, part 2 of 2 (calls-yours/mma_sync_gemm.cu lists
// them all): those with BK = 64, the headline's among them. Given code that calls yours: compiled
// twice, with each library's mma_sync_parts.cuh, beside mma_sync_gemm_part1.cu.
#include "mma_fragment.hpp"

namespace lesson10 {
// Your three mappings are compiled with every kernel that calls them; the grader's copies, for the
// CPU, come from mma_sync_gemm_part1.cu. Declared inline before your file defines them, the copies
// compiled here merge with those when linking instead of clashing with them.
COURSE_HD inline FragmentCoord a_fragment_coord(int lane, int i);
COURSE_HD inline FragmentCoord b_fragment_coord(int lane, int i);
COURSE_HD inline FragmentCoord c_fragment_coord(int lane, int i);
}  // namespace lesson10

#include "mma_sync_kernel.cuh"

namespace lesson10 {

LESSON10_CONFIG(Tile<128, 128, 64, 2, 2, 3, true>)   // Large: the headline
LESSON10_CONFIG(Tile<128, 128, 64, 2, 2, 3, false>)  // LargePlain
LESSON10_CONFIG(Tile<128, 128, 64, 2, 2, 2, true>)
LESSON10_CONFIG(Tile<128, 256, 64, 2, 4, 3, true>)
LESSON10_CONFIG(Tile<256, 128, 64, 4, 2, 3, true>)

}  // namespace lesson10
