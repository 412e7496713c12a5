/// \file dispatch.hpp
/// \brief Lesson 02, the contract: which thread works on which element, in 1D and in 2D.
///
/// Conventions, for this lesson and every later one: arrays are **row-major**, and in 2D
/// **x is the column, y is the row**. Element (row y, column x) of a `width x height` array lives
/// at `y * width + x`; `threadIdx.x`, `blockIdx.x` and `blockDim.x` move along a row (to the
/// next column), the `.y` parts move down (to the next row).
///
/// The index math is written as `__host__ __device__` functions (COURSE_HD): the kernels call
/// them on the GPU, and the CPU grader calls the very same code to *emulate* a launch, thread by
/// thread, on a machine without a GPU. The learner writes the functions marked "exercise" in
/// `exercises/02-dispatch/index_math.cuh` (the index math) and `dispatch.cu` (the kernels and their
/// launches); the reference is in `solutions/02-dispatch/`.
///
/// This header is plain C++ (the graders are compiled by a C++ compiler), plus COURSE_HD.
#pragma once

#include "common/todo.hpp"

#include <limits>
#include <string>

namespace lesson02 {

/// Threads in a warp on every NVIDIA GPU so far.
constexpr int kWarpSize = 32;
/// The most threads one block may have (`blockDim.x * blockDim.y * blockDim.z`).
constexpr int kMaxThreadsPerBlock = 1024;
/// The most blocks a grid may have along y (along x the limit is 2^31 - 1).
constexpr int kMaxGridY = 65535;

/// An (x, y) pair of ints: a block index, a block size, a thread index or a global position.
/// Plain C++, so the graders can use it; the kernels fill it from `blockIdx`, `blockDim` and
/// `threadIdx`.
struct Int2 {
  int x = 0;  ///< the column direction
  int y = 0;  ///< the row direction
};

// ---- 1D: one thread per element of a vector ---------------------------------------------------

/// **Exercise (task 1).** The global index of a thread in a 1D launch: the thread's position
/// among all threads of the grid, `blockIdx.x * blockDim.x + threadIdx.x`.
/// \param block_idx  the block's index in the grid (`blockIdx.x`), 0-based
/// \param block_dim  threads per block (`blockDim.x`), at least 1
/// \param thread_idx the thread's index in its block (`threadIdx.x`), 0 .. block_dim-1
/// \return the global index, 0-based. Example: block 7 of 128 threads, thread 103 -> 999.
COURSE_HD int global_index_1d(int block_idx, int block_dim, int thread_idx);

/// **Exercise (task 1).** How many blocks of `block_size` threads cover `n` elements: n divided by
/// block_size, rounded **up**. The grid then has `blocks_for(n, b) * b >= n` threads; the extra
/// ones (fewer than one block) are the over-launch, and the guard stops them.
/// \pre n >= 1, 1 <= block_size <= kMaxThreadsPerBlock, n + block_size fits in an int
/// \return e.g. blocks_for(1000, 128) == 8 (1024 threads, 24 of them idle); blocks_for(1024, 128)
///         == 8 (no idle thread: never a whole extra block).
int blocks_for(int n, int block_size);

/// **Exercise (task 1).** The 1D guard: true when a thread with global index `i` has an element to
/// work on in an array of `n` elements, false for the over-launched threads past the end.
COURSE_HD bool in_bounds_1d(int i, int n);

/// **Exercise (task 2).** `c[i] = a[i] + b[i]` for every i < n, one thread per element, on the
/// GPU: launches `blocks_for(n, block_size)` blocks of `block_size` threads; every thread computes
/// its global_index_1d and returns at once when in_bounds_1d says it is past the end. Checks the
/// launch (CHECK_LAUNCH) and returns without waiting for the kernel.
/// \param a, b, c    **device** pointers to at least n floats; c is written, nothing past c[n-1]
/// \param n          the number of elements, >= 1
/// \param block_size threads per block, 1 .. kMaxThreadsPerBlock (a multiple of 32 is best)
/// \throws std::invalid_argument when n or block_size break the preconditions
/// \throws course::CudaError when the launch fails
void vector_add(const float* a, const float* b, float* c, int n, int block_size);

// ---- 2D: one thread per element of a width x height array ------------------------------------

/// **Exercise (task 3).** The global (x, y) of a thread in a 2D launch: each axis on its own, like
/// the 1D index: `x = blockIdx.x * blockDim.x + threadIdx.x`, and the same with `.y`.
/// Example: block (1,1) of (2,2) threads, thread (0,1) -> x = 2 (column), y = 3 (row).
COURSE_HD Int2 global_index_2d(Int2 block_idx, Int2 block_dim, Int2 thread_idx);

/// **Exercise (task 3).** The 2D guard: true when global position `g` (x = column, y = row) lies
/// inside a `width x height` array (width columns, height rows).
COURSE_HD bool in_bounds_2d(Int2 g, int width, int height);

/// **Exercise (task 4).** A thread's linear id inside its block: threads are numbered row by row,
/// x fastest: `thread_idx.y * block_dim.x + thread_idx.x`. Warps are cut from this numbering.
COURSE_HD int linear_thread_id(Int2 thread_idx, Int2 block_dim);

/// **Exercise (task 4).** Which warp of its block a thread belongs to: linear id / kWarpSize.
/// Example: block (16,8), thread (3,2): linear id 35 -> warp 1.
COURSE_HD int warp_of(Int2 thread_idx, Int2 block_dim);

/// **Exercise (task 4).** The thread's lane (its place in its warp, 0..31): linear id % kWarpSize.
/// Example: block (16,8), thread (3,2): linear id 35 -> lane 3.
COURSE_HD int lane_of(Int2 thread_idx, Int2 block_dim);

/// What one thread of record_thread_coords writes: where it is, and who it is.
struct ThreadRecord {
  int x;         ///< global column = block_x * blockDim.x + thread_x
  int y;         ///< global row    = block_y * blockDim.y + thread_y
  int block_x;   ///< blockIdx.x
  int block_y;   ///< blockIdx.y
  int thread_x;  ///< threadIdx.x
  int thread_y;  ///< threadIdx.y
  int warp;      ///< warp of the thread inside its block (warp_of)
  int lane;      ///< lane of the thread inside its warp (lane_of)
};
static_assert(sizeof(ThreadRecord) == 8 * sizeof(int), "ThreadRecord is 8 ints, host and device");

/// The record of an element no thread wrote: every field -1 (the bytes 0xFF, the poison the
/// GPU test and the lesson program fill the output with before the launch).
inline ThreadRecord unwritten_record() {
  return ThreadRecord{-1, -1, -1, -1, -1, -1, -1, -1};
}

/// True when two records agree in every field.
inline bool same_record(const ThreadRecord& a, const ThreadRecord& b) {
  return a.x == b.x && a.y == b.y && a.block_x == b.block_x && a.block_y == b.block_y &&
         a.thread_x == b.thread_x && a.thread_y == b.thread_y && a.warp == b.warp &&
         a.lane == b.lane;
}

/// **Exercise (task 5).** Launches the 2D kernel on a grid of blocks of `block_x x block_y`
/// threads that covers the array (`blocks_for` along each axis); each thread inside the array
/// (in_bounds_2d) writes its ThreadRecord to `out[y * width + x]`, the others write nothing.
/// Checks the launch (CHECK_LAUNCH) and returns without waiting for the kernel.
/// \param out       **device** pointer to width * height records, row-major
/// \param width     columns (the x extent), >= 1
/// \param height    rows (the y extent), >= 1
/// \param block_x   threads per block along x, >= 1
/// \param block_y   threads per block along y, >= 1; block_x * block_y <= kMaxThreadsPerBlock
/// \throws std::invalid_argument when a size breaks the preconditions (see invalid_2d_launch)
/// \throws course::CudaError when the launch fails
void record_thread_coords(ThreadRecord* out, int width, int height, int block_x, int block_y);

// ---- Preconditions (not an exercise) ----------------------------------------------------------

/// Empty when a 1D launch of `n` elements in blocks of `block_size` is valid; otherwise what is
/// wrong, in one line. vector_add throws std::invalid_argument with it; the lesson program turns
/// it into a usage error.
inline std::string invalid_1d_launch(long n, long block_size) {
  if (n < 1) return "n = " + std::to_string(n) + ": the vector needs at least 1 element";
  if (block_size < 1) {
    return "block size " + std::to_string(block_size) + ": a block needs at least 1 thread";
  }
  if (block_size > kMaxThreadsPerBlock) {
    return "block size " + std::to_string(block_size) + " is more than " +
           std::to_string(kMaxThreadsPerBlock) + ", the most threads a CUDA block can have";
  }
  if (n > std::numeric_limits<int>::max() - kMaxThreadsPerBlock) {
    return "n = " + std::to_string(n) + " is too large for int indices";
  }
  return "";
}

/// Empty when a 2D launch over a `width x height` array in blocks of `block_x x block_y` is valid;
/// otherwise what is wrong, in one line. record_thread_coords throws std::invalid_argument with
/// it; the lesson program turns it into a usage error.
inline std::string invalid_2d_launch(long width, long height, long block_x, long block_y) {
  if (width < 1 || height < 1) {
    return "array " + std::to_string(width) + " x " + std::to_string(height) +
           ": width and height must be at least 1";
  }
  if (block_x < 1 || block_y < 1) {
    return "block (" + std::to_string(block_x) + "," + std::to_string(block_y) +
           "): a block needs at least 1 thread along each axis";
  }
  if (block_x > kMaxThreadsPerBlock || block_y > kMaxThreadsPerBlock ||
      block_x * block_y > kMaxThreadsPerBlock) {
    return "block (" + std::to_string(block_x) + "," + std::to_string(block_y) + ") has " +
           (block_x > kMaxThreadsPerBlock || block_y > kMaxThreadsPerBlock
                ? std::string("too many threads")
                : std::to_string(block_x * block_y) + " threads") +
           ", more than " + std::to_string(kMaxThreadsPerBlock) +
           ", the most a CUDA block can have";
  }
  constexpr long kIntLimit = std::numeric_limits<int>::max() - kMaxThreadsPerBlock;
  if (width > kIntLimit || height > kIntLimit || width * height > kIntLimit) {
    return "array " + std::to_string(width) + " x " + std::to_string(height) +
           " is too large for int indices";
  }
  if ((height + block_y - 1) / block_y > kMaxGridY) {
    return "height " + std::to_string(height) + " in blocks of " + std::to_string(block_y) +
           " rows needs more than " + std::to_string(kMaxGridY) +
           " blocks along y, the most a grid can have";
  }
  return "";
}

}  // namespace lesson02
