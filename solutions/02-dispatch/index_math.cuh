// Lesson 02: dispatch, the index math. Which thread works on which element, in 1D and in 2D, and
// which warp and lane a thread of a 2D block is.
//
// exercises/02-dispatch/index_math.cuh is yours: fill in each region between "BEGIN EXERCISE" and
// "END EXERCISE"; nothing else needs to change. solutions/02-dispatch/index_math.cuh is the same
// file with the regions filled in. The contract (what each function must do, with examples) is
// lessons/02-dispatch/dispatch.hpp; the chapter, lessons/02-dispatch/README.md, explains the
// ideas. Row-major everywhere; x is the column, y the row.
//
// Your kernels in dispatch.cu include this file, so they call these functions in their own
// translation unit (a device function must be compiled with the kernel that calls it); the
// grader calls them on the CPU to emulate your launches. Include it from dispatch.cu only.
#pragma once

#include "dispatch.hpp"

#include "common/todo.hpp"

namespace lesson02 {

// ---- Task 1: the 1D index, the grid size and the guard ---------------------------------------

//! [global_index_1d]
COURSE_HD int global_index_1d(int block_idx, int block_dim, int thread_idx) {
  // BEGIN EXERCISE: global_index_1d
  return block_idx * block_dim + thread_idx;
  // END EXERCISE
}
//! [global_index_1d]

//! [blocks_for]
int blocks_for(int n, int block_size) {
  // BEGIN EXERCISE: blocks_for
  return (n + block_size - 1) / block_size;  // rounds up: the last block may be partial
  // END EXERCISE
}
//! [blocks_for]

//! [in_bounds_1d]
COURSE_HD bool in_bounds_1d(int i, int n) {
  // BEGIN EXERCISE: in_bounds_1d
  return i < n;
  // END EXERCISE
}
//! [in_bounds_1d]

// ---- Task 3: the 2D index and guard -----------------------------------------------------------

//! [global_index_2d]
COURSE_HD Int2 global_index_2d(Int2 block_idx, Int2 block_dim, Int2 thread_idx) {
  // BEGIN EXERCISE: global_index_2d
  Int2 g;
  g.x = block_idx.x * block_dim.x + thread_idx.x;  // column
  g.y = block_idx.y * block_dim.y + thread_idx.y;  // row
  return g;
  // END EXERCISE
}
//! [global_index_2d]

//! [in_bounds_2d]
COURSE_HD bool in_bounds_2d(Int2 g, int width, int height) {
  // BEGIN EXERCISE: in_bounds_2d
  return g.x < width && g.y < height;
  // END EXERCISE
}
//! [in_bounds_2d]

// ---- Task 4: warps and lanes in a 2D block ----------------------------------------------------

//! [warps]
COURSE_HD int linear_thread_id(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: linear_thread_id
  return thread_idx.y * block_dim.x + thread_idx.x;  // row by row, x fastest
  // END EXERCISE
}

COURSE_HD int warp_of(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: warp_of
  return linear_thread_id(thread_idx, block_dim) / kWarpSize;
  // END EXERCISE
}

COURSE_HD int lane_of(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: lane_of
  return linear_thread_id(thread_idx, block_dim) % kWarpSize;
  // END EXERCISE
}
//! [warps]

}  // namespace lesson02
