// Lesson 07, step 2: a 2D thread tile. Every thread computes a TM x TN patch of C: at every step k
// it reads TM values of A and TN values of B from shared memory into registers and adds their
// outer product, TM * TN multiply-adds for TM + TN loads.
//
// exercises/07-register-tiling/thread_tile_2d_parts.cuh is yours: fill in each region between
// "BEGIN EXERCISE" and "END EXERCISE". The kernel that calls these functions is given:
// lessons/07-register-tiling/calls-yours/thread_tile_2d_sgemm.cu includes this file, so your
// functions are compiled with the kernel and inlined into it. solutions/07-register-tiling/ holds
// this file with the regions filled in. The contract is lessons/07-register-tiling/
// register_tiling.hpp; the chapter, lessons/07-register-tiling/README.md, explains the ideas.
// Row-major everywhere; x is the column, y the row.
#pragma once

#include "register_tiling_loads.cuh"  // store_c

#include "common/launch.hpp"
#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

namespace lesson07 {
inline namespace COURSE_LIBRARY {  // yours or reference, named by the build (common/library.hpp)

//! [tile2d_multiply]
/// Adds this step's tiles to the thread's TM x TN sums: `acc[i][j]` += row `ty * TM + i` of As
/// times column `tx * TN + j` of Bs, over the BK values of k the tiles hold.
/// \param As the block's BM x BK tile of A: As[m][k] is A(row0 + m, k0 + k)
/// \param Bs its BK x BN tile of B: Bs[k][n] is B(k0 + k, col0 + n)
/// \param tx the thread's column of threads: its columns are tx * TN .. tx * TN + TN - 1
/// \param ty its row of threads: its rows are ty * TM .. ty * TM + TM - 1
/// `__host__ __device__`: the kernel runs it on the GPU, the chapter's pictures on the CPU (so
/// use what both have: plain arithmetic, fmaf).
template <int BM, int BN, int BK, int TM, int TN>
__host__ __device__ __forceinline__ void thread_tile_2d_multiply(const float (&As)[BM][BK],
                                                                 const float (&Bs)[BK][BN], int tx,
                                                                 int ty, float (&acc)[TM][TN]) {
  // BEGIN EXERCISE: the outer product
  // TODO: for each step k of the tile: copy the thread's TM values of A, As[ty * TM + i][k],
  // into a register array a[TM], and its TN values of B, Bs[k][tx * TN + j], into b[TN]; then
  // add a[i] * b[j] to acc[i][j] for every i and j (fmaf; #pragma unroll on every loop).
  // END EXERCISE
}
//! [tile2d_multiply]

//! [tile2d_write]
/// Writes the thread's TM x TN results: `acc[i][j]` is C(row0 + ty * TM + i, col0 + tx * TN + j),
/// scaled as `alpha * acc + beta * C`; results outside the M x N matrix C are not written.
/// `__host__ __device__`, like the multiply: the chapter's pictures run it on the CPU.
template <int TM, int TN>
__host__ __device__ __forceinline__ void thread_tile_2d_write(float* __restrict__ C, int M, int N,
                                                              int row0, int col0, int tx, int ty,
                                                              float alpha,
                                                              const float (&acc)[TM][TN],
                                                              float beta) {
  // BEGIN EXERCISE: write the TM x TN results
  // TODO: acc[i][j] belongs to C[row0 + ty * TM + i][col0 + tx * TN + j]; write each with
  // store_c.
  // END EXERCISE
}
//! [tile2d_write]

//! [tile2d_launch]
/// How thread_tile_2d_sgemm<BM, BN, BK, TM, TN> launches its kernel on an M x N problem: one 1D
/// block of (BM / TM) * (BN / TN) threads per BM x BN tile of C, a grid of ceil(N / BN) x
/// ceil(M / BM) blocks (x along the columns). vectorized_2d_sgemm launches the same way.
template <int BM, int BN, int TM, int TN>
course::Launch thread_tile_2d_launch(int M, int N) {
  // BEGIN EXERCISE: thread_tile_2d_sgemm launch
  // TODO: a course::Launch with a 1D block of (BM / TM) * (BN / TN) threads and a grid of
  // ceil(N / BN) x ceil(M / BM) blocks, as in step 1.
  course::not_implemented(
      "thread_tile_2d_launch (exercises/07-register-tiling/thread_tile_2d_parts.cuh)");
  // END EXERCISE
}
//! [tile2d_launch]

}  // namespace COURSE_LIBRARY
}  // namespace lesson07
