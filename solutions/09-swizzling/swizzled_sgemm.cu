// Lesson 09: swizzling. The layouts of a shared-memory tile (padded, swizzled) and the last FP32
// SGEMM of the course, which stores its A tile in them.
//
// exercises/09-swizzling/swizzled_sgemm.cu is yours: fill in the regions between "BEGIN EXERCISE"
// and "END EXERCISE" (tasks 2 to 4: padded_index, Swizzle, swizzled_a_index); the kernel and its
// launchers are given (lessons/09-swizzling/swizzled_sgemm_kernel.cuh, included at the end).
// solutions/09-swizzling/swizzled_sgemm.cu is the same file with the regions filled in. The
// contracts are lessons/09-swizzling/smem_swizzle.hpp and swizzled_sgemm.hpp; the chapter,
// lessons/09-swizzling/README.md, explains the ideas. Row-major everywhere; x is the column, y the
// row.
//
// `make grade-9` grades it (the layouts on the CPU, the kernels on the GPU), `make lesson-9` runs
// the ladder against cuBLAS, `make hint-9` gives the next hint.
#include "smem_swizzle.hpp"
#include "swizzled_sgemm.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace lesson09 {

// ---- Task 2: padding --------------------------------------------------------------------------

//! [padded_index]
COURSE_HD int padded_index(int row, int col, int row_length, int pad) {
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

// The three modes, compiled here so that the header needs no CUDA.
template struct Swizzle<1, 4, 3>;
template struct Swizzle<2, 4, 3>;
template struct Swizzle<3, 4, 3>;

// ---- Task 4: the swizzled A tile --------------------------------------------------------------

//! [swizzled_a_index]
COURSE_HD int swizzled_a_index(int k, int m, int bk) {
  // BEGIN EXERCISE: swizzled_a_index
  // Panel m / 32 is a row-major bk x 32 array: row k is one 128-byte row of the 128-byte swizzle.
  const int panel = m >> 5;  // m / 32 and m % 32, for m >= 0
  const std::uint32_t byte = static_cast<std::uint32_t>(k * 32 + (m & 31)) * 4u;
  return panel * bk * 32 + static_cast<int>(Swizzle128B{}(byte) >> 2);
  // END EXERCISE
}
//! [swizzled_a_index]

}  // namespace lesson09

// The kernel, its launchers and configurations (given): they call your functions above.
#include "swizzled_sgemm_kernel.cuh"
