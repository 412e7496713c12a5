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
  // Each row is followed by `pad` unused elements, so it starts `pad` banks further round.
  return row * (row_length + pad) + col;
  // END EXERCISE
}
//! [padded_index]

// ---- Task 3: the XOR swizzle ------------------------------------------------------------------

//! [swizzle]
template <int B, int M, int S>
COURSE_HD std::uint32_t Swizzle<B, M, S>::operator()(std::uint32_t offset) const {
  // BEGIN EXERCISE: Swizzle
  // The B bits from M + S up (the row, modulo 2^B) steer; shifted down by S they land on the B
  // bits from M up (the chunk within the row), which the XOR flips. Nothing else changes.
  constexpr std::uint32_t kSteer = ((1u << B) - 1u) << (M + S);
  return offset ^ ((offset & kSteer) >> S);
  // END EXERCISE
}
//! [swizzle]

// ---- Task 4: the swizzled A tile --------------------------------------------------------------

//! [swizzled_a_index]
COURSE_HD inline int swizzled_a_index(int k, int m, int bk) {
  // BEGIN EXERCISE: swizzled_a_index
  // Panel m / 32 is a row-major bk x 32 array: row k is one 128-byte row of the 128-byte swizzle.
  const int panel = m >> 5;  // m / 32 and m % 32, for m >= 0
  const std::uint32_t byte = static_cast<std::uint32_t>(k * 32 + (m & 31)) * 4u;
  return panel * bk * 32 + static_cast<int>(Swizzle128B{}(byte) >> 2);
  // END EXERCISE
}
//! [swizzled_a_index]

}  // namespace COURSE_LIBRARY
}  // namespace lesson09
