/// \file register_tiling_loads.cuh
/// \brief Lesson 07: the device code the three kernels share, given (not an exercise): a thread's
/// share of a tile fetched from global memory, with bounds checks only where the tile crosses an
/// edge of its matrix, stored into shared memory, and the guarded write of one element of C.
///
/// Included by the kernels (calls-yours/) and by your files (it is CUDA, not plain C++).
#pragma once

#include <cuda_runtime.h>

namespace lesson07 {

//! [fetch_tile]
// Thread threadIdx.x's share of the ROWS x COLS tile whose top-left corner is (r0, c0) in the
// row-major `rows x cols` matrix X: the elements e = threadIdx.x + i * THREADS of the tile, element
// e being (e / COLS, e % COLS). Consecutive threads take consecutive elements of a row, so a
// warp's loads coalesce. Elements outside X are zeros, which add nothing to a dot product.
template <int ROWS, int COLS, int THREADS>
__device__ __forceinline__ void fetch_tile(const float* __restrict__ X, int rows, int cols, int r0,
                                           int c0, float (&regs)[ROWS * COLS / THREADS]) {
  static_assert((ROWS * COLS) % THREADS == 0, "every thread fetches as many elements as the next");
  // The same answer for every thread of the block, so the branch never splits a warp. Most tiles
  // of a large problem are inside: they load without a single comparison.
  const bool inside = r0 + ROWS <= rows && c0 + COLS <= cols;
  if (inside) {
#pragma unroll
    for (int i = 0; i < ROWS * COLS / THREADS; ++i) {
      const int e = threadIdx.x + i * THREADS;
      // r * cols + c < rows * cols, which the launcher checked fits an int.
      regs[i] = X[(r0 + e / COLS) * cols + c0 + e % COLS];
    }
  } else {
#pragma unroll
    for (int i = 0; i < ROWS * COLS / THREADS; ++i) {
      const int e = threadIdx.x + i * THREADS;
      const int r = r0 + e / COLS, c = c0 + e % COLS;
      regs[i] = (r < rows && c < cols) ? X[r * cols + c] : 0.0f;  // no read outside X
    }
  }
}
//! [fetch_tile]

// The registers fetch_tile filled into the ROWS x COLS shared-memory tile T, each element where
// it came from: element e = threadIdx.x + i * THREADS is T[e / COLS][e % COLS].
template <int ROWS, int COLS, int THREADS>
__device__ __forceinline__ void store_tile(float (&T)[ROWS][COLS],
                                           const float (&regs)[ROWS * COLS / THREADS]) {
#pragma unroll
  for (int i = 0; i < ROWS * COLS / THREADS; ++i) {
    const int e = threadIdx.x + i * THREADS;
    T[e / COLS][e % COLS] = regs[i];
  }
}

/// C[row][col] = alpha * acc + beta * C[row][col] if (row, col) is inside C; nothing otherwise.
/// As in BLAS, C is not read when beta == 0 (it may hold NaN). `__host__ __device__` because the
/// writes that call it run on the CPU too, for the chapter's pictures.
__host__ __device__ __forceinline__ void store_c(float* __restrict__ C, int M, int N, int row,
                                                 int col, float alpha, float acc, float beta) {
  if (row < M && col < N) {
    float* c = C + static_cast<size_t>(row) * N + col;
    *c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * *c;
  }
}

}  // namespace lesson07
