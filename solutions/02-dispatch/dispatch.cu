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
  const int i = global_index_1d(blockIdx.x, blockDim.x, threadIdx.x);
  if (!in_bounds_1d(i, n)) return;  // an over-launched thread: past the end, nothing to do
  c[i] = a[i] + b[i];
  // END EXERCISE
}
//! [vector_add_kernel]

//! [vector_add]
void vector_add(const float* a, const float* b, float* c, int n, int block_size) {
  if (std::string why = invalid_1d_launch(n, block_size); !why.empty()) {
    throw std::invalid_argument("vector_add: " + why);
  }
  // BEGIN EXERCISE: vector_add launch
  const int blocks = blocks_for(n, block_size);
  vector_add_kernel<<<blocks, block_size>>>(a, b, c, n);
  CHECK_LAUNCH();
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
  const Int2 g = global_index_2d(block_idx, block_dim, thread_idx);
  if (!in_bounds_2d(g, width, height)) return;  // over-launched along x or y
  ThreadRecord r;
  r.x = g.x;
  r.y = g.y;
  r.block_x = block_idx.x;
  r.block_y = block_idx.y;
  r.thread_x = thread_idx.x;
  r.thread_y = thread_idx.y;
  r.warp = warp_of(thread_idx, block_dim);
  r.lane = lane_of(thread_idx, block_dim);
  out[g.y * width + g.x] = r;  // row-major: row y starts at y * width
  // END EXERCISE
}
//! [record_kernel]

//! [record_launch]
void record_thread_coords(ThreadRecord* out, int width, int height, int block_x, int block_y) {
  if (std::string why = invalid_2d_launch(width, height, block_x, block_y); !why.empty()) {
    throw std::invalid_argument("record_thread_coords: " + why);
  }
  // BEGIN EXERCISE: record_thread_coords launch
  const dim3 block(block_x, block_y);
  const dim3 grid(blocks_for(width, block_x), blocks_for(height, block_y));
  record_thread_coords_kernel<<<grid, block>>>(out, width, height);
  CHECK_LAUNCH();
  // END EXERCISE
}
//! [record_launch]

}  // namespace lesson02
