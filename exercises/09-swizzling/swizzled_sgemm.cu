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
  // TODO: the index of (row, col) when every row of row_length elements is followed by pad
  // unused ones. With pad == 0 it is the plain row-major index row * row_length + col.
  COURSE_TODO_HD("padded_index (exercises/09-swizzling/swizzled_sgemm.cu)",
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
  COURSE_TODO_HD("Swizzle (exercises/09-swizzling/swizzled_sgemm.cu)", offset);
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
  // TODO: the index of A(m, k) in the swizzled A tile (smem_swizzle.hpp has the formula and
  // examples). m / 32 picks the panel, which holds bk * 32 floats; within it, the byte offset of
  // row k, column m % 32 is (k * 32 + m % 32) * 4: put it through Swizzle128B and turn the
  // bytes back into floats.
  COURSE_TODO_HD("swizzled_a_index (exercises/09-swizzling/swizzled_sgemm.cu)", 0 * (k + m + bk));
  // END EXERCISE
}
//! [swizzled_a_index]

}  // namespace lesson09

// The kernel, its launchers and configurations (given): they call your functions above.
#include "swizzled_sgemm_kernel.cuh"
