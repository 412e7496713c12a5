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
  // TODO: warp = tid / 32 and lane = tid % 32; the warps row by row over the block tile
  // (s.warp_cols() per row), the lanes row by row over a sub-tile (s.lane_cols() per row).
  COURSE_TODO_HD("thread_place (exercises/08-warp-shuffle/warptiled_parts.cuh)", ThreadPlace{});
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
  // TODO: for each k of the tile (0 .. BK - 1, #pragma unroll):
  //   load this thread's kRows floats of A into registers: for each sub-tile step i, TM floats
  //   from As[cur][k][a0 + i * kSubM ..], read as float4s (TM / 4 LDS.128);
  //   load its kCols floats of B: for each step j, TN floats from Bs[cur][k][b0 + j * kSubN ..];
  //   add their outer product to acc: acc[i][j] += a[i] * b[j] for every i and j (fmaf).
  // Every index must be a compile-time constant after unrolling, or acc leaves the registers.
  // (Delete the next line: it only keeps the compiler quiet while these are unused.)
  (void)kSubM, (void)kSubN, (void)kRows, (void)kCols;
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
  // TODO: a course::Launch with one warp per warp tile, (BM / WM) * (BN / WN) * 32 threads per
  // block, and one block per BM x BN tile of C (x along the columns, rounding up); vec (the
  // float4 path) when K and N are multiples of 4 and A, B and C are 16-byte aligned
  // (is_aligned16), false otherwise.
  course::not_implemented("warptiled_launch (exercises/08-warp-shuffle/warptiled_parts.cuh)");
  // END EXERCISE
}
//! [launch]

}  // namespace COURSE_LIBRARY
}  // namespace lesson08
