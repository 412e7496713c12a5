// Lesson 08: your parts of the warp-tiled SGEMM: where a thread works (task 4), the warp's
// multiply of one staged tile (task 5), and how the kernel is launched (task 6).
//
// exercises/08-warp-shuffle/warptiled_parts.cuh is yours: fill in each region between "BEGIN
// EXERCISE" and "END EXERCISE". The kernel that calls these functions, its launchers and its
// configurations are given: lessons/08-warp-shuffle/calls-yours/warptiled_kernel.cuh includes this
// file, so your functions are compiled with the kernel and inlined into it (the files that compile
// the configurations include that one); the grader and the figures include it too, and call
// thread_place on the CPU. Each is `inline`: every file that includes it has its own copy.
// solutions/08-warp-shuffle/warptiled_parts.cuh is this file with the regions filled in. The
// contract is lessons/08-warp-shuffle/warptiled_sgemm.hpp; the chapter,
// lessons/08-warp-shuffle/README.md, explains the ideas. Row-major everywhere; x is the column, y
// the row.
#pragma once

#include "warptiled_sgemm.hpp"  // WarpTileShape, ThreadPlace, is_aligned16

#include "common/launch.hpp"
#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

#include <cuda_runtime.h>

namespace lesson08 {
inline namespace COURSE_LIBRARY {  // yours or reference, named by the build (common/library.hpp)

// ---- Task 4: where a thread works -------------------------------------------------------------

//! [thread_place]
/// Where thread `tid` of a block works: its warp's tile and its lane's thread tile
/// (warptiled_sgemm.hpp has the contract, with an example).
COURSE_HD inline ThreadPlace thread_place(const WarpTileShape& s, int tid) {
  // BEGIN EXERCISE: thread_place
  const int warp = tid / 32, lane = tid % 32;
  ThreadPlace p;
  p.warp_row = warp / s.warp_cols();
  p.warp_col = warp % s.warp_cols();
  p.lane_row = lane / s.lane_cols();
  p.lane_col = lane % s.lane_cols();
  return p;
  // END EXERCISE
}
//! [thread_place]

// ---- Task 5: the warp's multiply of one tile --------------------------------------------------

//! [warp_multiply]
/// Adds to `acc` this thread's share of the product of the tiles in buffer `cur`: at every k of
/// the tile, its kRows = WM_ITER * TM values of A times its kCols = WN_ITER * TN values of B.
/// \tparam BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN the tiling (WarpTileShape)
/// \param As  the two buffers of the A tile, transposed: As[cur][k][m] is A(row0 + m, k0 + k)
/// \param Bs  the two buffers of the B tile: Bs[cur][k][n] is B(k0 + k, col0 + n)
/// \param cur the buffer that holds this step's tiles (the other one is being filled)
/// \param a0  the thread's first row of the tile; its others are a0 + i * kSubM + t, for sub-tile
///            step i < WM_ITER and t < TM (kSubM = WM / WM_ITER)
/// \param b0  its first column; the others are b0 + j * kSubN + t, j < WN_ITER, t < TN
/// \param acc its results: acc[i * TM + t][j * TN + u] sums row a0 + i * kSubM + t times column
///            b0 + j * kSubN + u
template <int BM, int BN, int BK, int WM, int WN, int WM_ITER, int WN_ITER, int TM, int TN>
__device__ __forceinline__ void warp_tile_multiply(const float (&As)[2][BK][BM],
                                                   const float (&Bs)[2][BK][BN], int cur, int a0,
                                                   int b0,
                                                   float (&acc)[WM_ITER * TM][WN_ITER * TN]) {
  constexpr int kSubM = WM / WM_ITER, kSubN = WN / WN_ITER;  // a sub-tile
  constexpr int kRows = WM_ITER * TM, kCols = WN_ITER * TN;  // this thread's results
  // BEGIN EXERCISE: the warp's multiply of one tile
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    // The thread's operands at this k, from shared memory into registers: TM consecutive floats
    // of column k of the A tile per sub-tile step down (one LDS.128 per 4), TN of row k of the B
    // tile per step across. The lanes of a warp that share a lane_row read the same A floats (a
    // broadcast), those that share a lane_col the same B floats: a warp reads only the
    // lane_rows() * TM + lane_cols() * TN distinct floats of its sub-tiles per step.
    float a[kRows], b[kCols];
#pragma unroll
    for (int i = 0; i < WM_ITER; ++i) {
#pragma unroll
      for (int t = 0; t < TM; t += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&As[cur][k][a0 + i * kSubM + t]);
        a[i * TM + t + 0] = v.x;
        a[i * TM + t + 1] = v.y;
        a[i * TM + t + 2] = v.z;
        a[i * TM + t + 3] = v.w;
      }
    }
#pragma unroll
    for (int j = 0; j < WN_ITER; ++j) {
#pragma unroll
      for (int t = 0; t < TN; t += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&Bs[cur][k][b0 + j * kSubN + t]);
        b[j * TN + t + 0] = v.x;
        b[j * TN + t + 1] = v.y;
        b[j * TN + t + 2] = v.z;
        b[j * TN + t + 3] = v.w;
      }
    }
    // The outer product: kRows + kCols floats from shared memory feed kRows * kCols FMAs.
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
#pragma unroll
      for (int j = 0; j < kCols; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }
  // END EXERCISE
}
//! [warp_multiply]

// ---- Task 6: the launch -----------------------------------------------------------------------

//! [launch]
/// How warptiled_sgemm<BM, BN, ..., MIN_BLOCKS> launches its kernel on an M x N x K problem: one
/// warp per WM x WN warp tile, so (BM / WM) * (BN / WN) * 32 threads per block (1D); one block per
/// BM x BN tile of C, the grid's x along the columns, both counts rounded up; and the path: `vec`
/// (every global access a float4) when every row of A, B and C starts on a 16-byte boundary.
template <int BM, int BN, int WM, int WN>
course::Launch warptiled_launch(int M, int N, int K, const float* A, const float* B,
                                const float* C) {
  // BEGIN EXERCISE: warptiled_launch
  course::Launch l;
  l.block = dim3((BM / WM) * (BN / WN) * 32);
  l.grid = dim3((N + BN - 1) / BN, (M + BM - 1) / BM);
  // Rows of A are K floats, rows of B and C are N floats: multiples of 4 floats, from aligned
  // pointers, start on 16-byte boundaries.
  l.vec = K % 4 == 0 && N % 4 == 0 && is_aligned16(A) && is_aligned16(B) && is_aligned16(C);
  return l;
  // END EXERCISE
}
//! [launch]

}  // namespace COURSE_LIBRARY
}  // namespace lesson08
