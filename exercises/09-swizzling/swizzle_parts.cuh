// Lesson 09: swizzling. Your part of the last FP32 SGEMM of the course: where its A tile's elements
// go in shared memory, padded (task 2) or swizzled (tasks 3 and 4), so that the warps' accesses
// spread over the 32 banks.
//
// exercises/09-swizzling/swizzle_parts.cuh is yours: fill in the regions between "BEGIN EXERCISE"
// and "END EXERCISE". The kernel that stores and reads its A tile through these functions, its
// launchers and its configurations are given: lessons/09-swizzling/calls-yours/swizzled_kernel.cuh
// includes this file, so your functions are compiled with the kernel and inlined into it (the
// files that compile the configurations include that one); the grader and the figures include it
// too, and call them on the CPU.
// solutions/09-swizzling/swizzle_parts.cuh is this file with the regions filled in. The contract,
// with worked examples, is lessons/09-swizzling/smem_swizzle.hpp; the chapter,
// lessons/09-swizzling/README.md, explains the ideas.
//
// `make grade-9` grades it (the layouts on the CPU, the kernels on the GPU), `make lesson-9` runs
// the ladder against cuBLAS, `make hint-9` gives the next hint.
#pragma once

#include "smem_swizzle.hpp"

#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

#include <cstdint>

namespace lesson09 {
inline namespace COURSE_LIBRARY {  // yours or reference, named by the build (common/library.hpp)

// ---- Task 2: padding --------------------------------------------------------------------------

//! [padded_index]
COURSE_HD inline int padded_index(int row, int col, int row_length, int pad) {
  // BEGIN EXERCISE: padded_index
  // TODO: the index of (row, col) when every row of row_length elements is followed by pad
  // unused ones. With pad == 0 it is the plain row-major index row * row_length + col.
  COURSE_TODO_HD("padded_index (exercises/09-swizzling/swizzle_parts.cuh)",
                 row * row_length + col + 0 * pad);
  // END EXERCISE
}
//! [padded_index]

// ---- Task 3: the XOR swizzle ------------------------------------------------------------------

//! [swizzle]
template <int B, int M, int S>
COURSE_HD std::uint32_t Swizzle<B, M, S>::operator()(std::uint32_t offset) const {
  // BEGIN EXERCISE: Swizzle
  // TODO: XOR the B bits of `offset` that start at bit M with the B bits that start at bit
  // M + S (shifted down by S). Build the mask of the steering bits, ((1 << B) - 1) << (M + S),
  // take those bits of offset, shift them right by S, and XOR them into offset. All other bits
  // stay as they are.
  COURSE_TODO_HD("Swizzle (exercises/09-swizzling/swizzle_parts.cuh)", offset);
  // END EXERCISE
}
//! [swizzle]

// ---- Task 4: the swizzled A tile --------------------------------------------------------------

//! [swizzled_a_index]
COURSE_HD inline int swizzled_a_index(int k, int m, int bk) {
  // BEGIN EXERCISE: swizzled_a_index
  // TODO: the index of A(m, k) in the swizzled A tile (smem_swizzle.hpp has the formula and
  // examples). m / 32 picks the panel, which holds bk * 32 floats; within it, the byte offset of
  // row k, column m % 32 is (k * 32 + m % 32) * 4: put it through Swizzle128B and turn the
  // bytes back into floats.
  COURSE_TODO_HD("swizzled_a_index (exercises/09-swizzling/swizzle_parts.cuh)", 0 * (k + m + bk));
  // END EXERCISE
}
//! [swizzled_a_index]

}  // namespace COURSE_LIBRARY
}  // namespace lesson09
