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
  // TODO: the thread's position among all threads of the grid.
  COURSE_TODO_HD("global_index_1d (exercises/02-dispatch/index_math.cuh)", -1);
  // END EXERCISE
}
//! [global_index_1d]

//! [blocks_for]
int blocks_for(int n, int block_size) {
  // BEGIN EXERCISE: blocks_for
  // TODO: how many blocks of block_size threads cover n elements? Round up.
  course::not_implemented("blocks_for (exercises/02-dispatch/index_math.cuh)");
  // END EXERCISE
}
//! [blocks_for]

//! [in_bounds_1d]
COURSE_HD bool in_bounds_1d(int i, int n) {
  // BEGIN EXERCISE: in_bounds_1d
  // TODO: does the thread with global index i have an element to work on?
  COURSE_TODO_HD("in_bounds_1d (exercises/02-dispatch/index_math.cuh)", false);
  // END EXERCISE
}
//! [in_bounds_1d]

// ---- Task 3: the 2D index and guard -----------------------------------------------------------

//! [global_index_2d]
COURSE_HD Int2 global_index_2d(Int2 block_idx, Int2 block_dim, Int2 thread_idx) {
  // BEGIN EXERCISE: global_index_2d
  // TODO: the 1D formula, once along x (columns) and once along y (rows).
  COURSE_TODO_HD("global_index_2d (exercises/02-dispatch/index_math.cuh)", (Int2{-1, -1}));
  // END EXERCISE
}
//! [global_index_2d]

//! [in_bounds_2d]
COURSE_HD bool in_bounds_2d(Int2 g, int width, int height) {
  // BEGIN EXERCISE: in_bounds_2d
  // TODO: is g inside width columns and height rows?
  COURSE_TODO_HD("in_bounds_2d (exercises/02-dispatch/index_math.cuh)", false);
  // END EXERCISE
}
//! [in_bounds_2d]

// ---- Task 4: warps and lanes in a 2D block ----------------------------------------------------

//! [warps]
COURSE_HD int linear_thread_id(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: linear_thread_id
  // TODO: number the threads of the block row by row, x fastest.
  COURSE_TODO_HD("linear_thread_id (exercises/02-dispatch/index_math.cuh)", -1);
  // END EXERCISE
}

COURSE_HD int warp_of(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: warp_of
  // TODO: which group of kWarpSize consecutive linear ids is this thread in?
  COURSE_TODO_HD("warp_of (exercises/02-dispatch/index_math.cuh)", -1);
  // END EXERCISE
}

COURSE_HD int lane_of(Int2 thread_idx, Int2 block_dim) {
  // BEGIN EXERCISE: lane_of
  // TODO: where in its warp is this thread?
  COURSE_TODO_HD("lane_of (exercises/02-dispatch/index_math.cuh)", -1);
  // END EXERCISE
}
//! [warps]

}  // namespace lesson02
