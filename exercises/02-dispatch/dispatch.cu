// Lesson 02: dispatch. Which thread works on which element, in 1D and in 2D.
//
// exercises/02-dispatch/dispatch.cu is yours: fill in each region between "BEGIN EXERCISE" and
// "END EXERCISE"; nothing else needs to change. solutions/02-dispatch/dispatch.cu is the same
// file with the regions filled in. The contract (what each function must do, with examples) is
// lessons/02-dispatch/dispatch.hpp; the chapter, lessons/02-dispatch/README.md, explains the
// ideas. Row-major everywhere; x is the column, y the row.
//
// `make grade-2` grades it (the CPU half needs no GPU: it emulates your launches thread by
// thread), `make lesson-2` runs it, `make hint-2` gives the next hint.
#include "dispatch.hpp"

#include "common/check.hpp"
#include "common/todo.hpp"

#include <stdexcept>
#include <string>

namespace lesson02 {

// ---- Task 1: the 1D index, the grid size and the guard ---------------------------------------

//! [global_index_1d]
COURSE_HD int global_index_1d(int block_idx, int block_dim, int thread_idx) {
  // BEGIN EXERCISE: global_index_1d
  // TODO: the thread's position among all threads of the grid.
  COURSE_TODO_HD("global_index_1d (exercises/02-dispatch/dispatch.cu)", -1);
  // END EXERCISE
}
//! [global_index_1d]

//! [blocks_for]
int blocks_for(int n, int block_size) {
  // BEGIN EXERCISE: blocks_for
  // TODO: how many blocks of block_size threads cover n elements? Round up.
  course::not_implemented("blocks_for (exercises/02-dispatch/dispatch.cu)");
  // END EXERCISE
}
//! [blocks_for]

//! [in_bounds_1d]
COURSE_HD bool in_bounds_1d(int i, int n) {
  // BEGIN EXERCISE: in_bounds_1d
  // TODO: does the thread with global index i have an element to work on?
  COURSE_TODO_HD("in_bounds_1d (exercises/02-dispatch/dispatch.cu)", false);
  // END EXERCISE
}
//! [in_bounds_1d]

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

// ---- Task 3: the 2D index and guard -----------------------------------------------------------

//! [global_index_2d]
COURSE_HD Int2 global_index_2d(Int2 block_idx, Int2 block_dim, Int2 thread_idx) {
  // BEGIN EXERCISE: global_index_2d
  // TODO: the 1D formula, once along x (columns) and once along y (rows).
  COURSE_TODO_HD("global_index_2d (exercises/02-dispatch/dispatch.cu)", (Int2{-1, -1}));
  // END EXERCISE
}
//! [global_index_2d]

//! [in_bounds_2d]
COURSE_HD bool in_bounds_2d(Int2 g, int width, int height) {
  // BEGIN EXERCISE: in_bounds_2d
  // TODO: is g inside width columns and height rows?
  COURSE_TODO_HD("in_bounds_2d (exercises/02-dispatch/dispatch.cu)", false);
  // END EXERCISE
}
//! [in_bounds_2d]

// ---- Task 4: warps and lanes in a 2D block ----------------------------------------------------

//! [warps]
COURSE_HD int linear_thread_id(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: linear_thread_id
  // TODO: number the threads of the block row by row, x fastest.
  COURSE_TODO_HD("linear_thread_id (exercises/02-dispatch/dispatch.cu)", -1);
  // END EXERCISE
}

COURSE_HD int warp_of(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: warp_of
  // TODO: which group of kWarpSize consecutive linear ids is this thread in?
  COURSE_TODO_HD("warp_of (exercises/02-dispatch/dispatch.cu)", -1);
  // END EXERCISE
}

COURSE_HD int lane_of(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: lane_of
  // TODO: where in its warp is this thread?
  COURSE_TODO_HD("lane_of (exercises/02-dispatch/dispatch.cu)", -1);
  // END EXERCISE
}
//! [warps]

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
