// Lesson 08: your thread_place compiled once for the CPU, the copy the grader and the figures call.
// Given code that calls yours: compiled with each library's warptiled_parts.cuh.
#include "warptiled_kernel.cuh"

namespace lesson08 {

ThreadPlace thread_place_on_host(const WarpTileShape& s, int tid) {
  return thread_place(s, tid);
}

}  // namespace lesson08
