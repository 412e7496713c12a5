// Lesson 09: the final kernel's configurations, part 1 of 2 (calls-yours/swizzled_sgemm.cu lists
// them all): the ladder's steps 1 to 3 and 6, the two larger tiles final_sgemm chooses from, and
// more for the sweep. Given code that calls yours: compiled twice, with each library's
// swizzle_parts.cuh, beside swizzled_sgemm_part2.cu. This file also compiles the host copies of
// your functions, the ones the grader calls on the CPU.
#include "swizzled_kernel.cuh"

#include <vector>

namespace lesson09 {

// The three modes of your Swizzle, compiled here (with the kernel) so that its header needs no
// CUDA.
template struct Swizzle<1, 4, 3>;
template struct Swizzle<2, 4, 3>;
template struct Swizzle<3, 4, 3>;

namespace {
using P = ALayout;
using FinalPlain = Tile<128, 256, 8, 4, 2, 4, P::kPlain>;  // the ladder's step 4
using FinalPadded = Tile<128, 256, 8, 4, 2, 4, P::kPadded>;
using Final = Tile<128, 256, 8, 4, 2, 4, P::kSwizzled>;
}  // namespace

LESSON09_CONFIG(Tile<128, 128, 8, 4, 2, 1, P::kPlain>)     // the ladder: step 1
LESSON09_CONFIG(Tile<128, 128, 8, 4, 2, 2, P::kPlain>)     // step 2
LESSON09_CONFIG(Tile<128, 256, 8, 4, 2, 2, P::kPlain>)     // step 3
LESSON09_CONFIG(Tile<128, 256, 8, 4, 2, 4, P::kSwizzled>)  // step 6: Final
LESSON09_CONFIG(Tile<128, 128, 8, 4, 2, 1, P::kPadded>)
LESSON09_CONFIG(Tile<128, 128, 8, 4, 2, 1, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 128, 8, 4, 2, 2, P::kSwizzled>)  // Middle
LESSON09_CONFIG(Tile<128, 256, 8, 4, 2, 2, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 256, 8, 4, 2, 3, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 256, 8, 4, 2, 6, P::kSwizzled>)
LESSON09_CONFIG(Tile<256, 128, 8, 4, 2, 4, P::kSwizzled>)
LESSON09_CONFIG(Tile<128, 256, 16, 4, 2, 3, P::kPadded>)

std::vector<SharedAccess> final_kernel_shared_accesses(ALayout layout) {
  switch (layout) {
    case ALayout::kPlain:
      return shared_accesses_of<FinalPlain>();
    case ALayout::kPadded:
      return shared_accesses_of<FinalPadded>();
    case ALayout::kSwizzled:
      break;
  }
  return shared_accesses_of<Final>();
}

}  // namespace lesson09
