// Lesson 08: the warp-tiled kernel's configurations of part 1 in LESSON08_CONFIGS
// (warptiled_sgemm.hpp): the two tuned_warptiled_sgemm chooses from, all that a save's grader
// compiles. Given code that calls yours: compiled twice, with each library's warptiled_parts.cuh,
// beside warptiled_sgemm_part2.cu. It also compiles your thread_place once for the CPU, the copy
// the grader calls.
#include "warptiled_kernel.cuh"

namespace lesson08 {

ThreadPlace thread_place_on_host(const WarpTileShape& s, int tid) {
  return thread_place(s, tid);
}

#define LESSON08_PART_1 LESSON08_CONFIG
#define LESSON08_PART_2(...)
LESSON08_CONFIGS(LESSON08_IN_PART)

}  // namespace lesson08
