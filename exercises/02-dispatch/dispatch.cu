// Lesson 02: dispatch, the kernels. Vector add in 1D and the record of every thread's coordinates
// in 2D, each with its launch.
//
// exercises/02-dispatch/dispatch.cu is yours: fill in each region between "BEGIN EXERCISE" and
// "END EXERCISE"; nothing else needs to change. solutions/02-dispatch/dispatch.cu is the same
// file with the regions filled in. The index math the kernels call is yours too, in
// index_math.cuh; the contract is lessons/02-dispatch/dispatch.hpp. Row-major everywhere; x is
// the column, y the row.
//
// `make grade-2` grades it (the CPU half needs no GPU: it emulates your launches thread by
// thread), `make lesson-2` runs it, `make hint-2` gives the next hint.
#include "index_math.cuh"  // yours: global_index_1d, blocks_for, in_bounds_1d, ...

#include "dispatch.hpp"

#include "common/check.hpp"
#include "common/todo.hpp"

#include <stdexcept>
#include <string>

namespace lesson02 {

// ---- Task 2: vector add, one thread per element ----------------------------------------------

//! [vector_add_kernel]
__global__ void vector_add_kernel(const float* a, const float* b, float* c, int n) {
  // BEGIN EXERCISE: vector_add_kernel
  // TODO: compute this thread's index, stop it when it is past the end, add.
  // END EXERCISE
}
//! [vector_add_kernel]

//! [vector_add]
void vector_add(const float* a, const float* b, float* c, int n, int block_size) {
  if (std::string why = invalid_1d_launch(n, block_size); !why.empty()) {
    throw std::invalid_argument("vector_add: " + why);
  }
  // BEGIN EXERCISE: vector_add launch
  // TODO: launch vector_add_kernel on enough blocks, then CHECK_LAUNCH().
  course::not_implemented("vector_add (exercises/02-dispatch/dispatch.cu)");
  // END EXERCISE
}
//! [vector_add]

// ---- Task 5: record every thread's coordinates -----------------------------------------------

//! [record_kernel]
__global__ void record_thread_coords_kernel(ThreadRecord* out, int width, int height) {
  const Int2 block_idx{static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y)};
  const Int2 block_dim{static_cast<int>(blockDim.x), static_cast<int>(blockDim.y)};
  const Int2 thread_idx{static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.y)};
  // BEGIN EXERCISE: record_thread_coords_kernel
  // TODO: find this thread's (x, y), stop it outside the array, and write its
  // ThreadRecord to out[y * width + x]. (Delete the next line: it only keeps the
  // compiler quiet about the three variables above while they are unused.)
  (void)block_idx, (void)block_dim, (void)thread_idx;
  // END EXERCISE
}
//! [record_kernel]

//! [record_launch]
void record_thread_coords(ThreadRecord* out, int width, int height, int block_x, int block_y) {
  if (std::string why = invalid_2d_launch(width, height, block_x, block_y); !why.empty()) {
    throw std::invalid_argument("record_thread_coords: " + why);
  }
  // BEGIN EXERCISE: record_thread_coords launch
  // TODO: launch record_thread_coords_kernel on a 2D grid that covers the array,
  // then CHECK_LAUNCH().
  course::not_implemented("record_thread_coords (exercises/02-dispatch/dispatch.cu)");
  // END EXERCISE
}
//! [record_launch]

}  // namespace lesson02
