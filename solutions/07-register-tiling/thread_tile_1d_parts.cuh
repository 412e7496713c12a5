// Lesson 07, step 1: a 1D thread tile. The tiled SGEMM of lesson 05, but every thread computes TM
// elements of one column of C instead of one element: each value of B it reads from shared memory
// is used TM times, from a register.
//
// exercises/07-register-tiling/thread_tile_1d_parts.cuh is yours: fill in each region between
// "BEGIN EXERCISE" and "END EXERCISE". The kernel that calls these functions is given:
// lessons/07-register-tiling/calls-yours/thread_tile_1d_sgemm.cu includes this file, so your
// functions are compiled with the kernel and inlined into it. solutions/07-register-tiling/ holds
// this file with the regions filled in. The contract is lessons/07-register-tiling/
// register_tiling.hpp; the chapter, lessons/07-register-tiling/README.md, explains the ideas.
// Row-major everywhere; x is the column, y the row.
//
// `make grade-7` grades it on the GPU, `make lesson-7` runs it against cuBLAS, `make hint-7`
// gives the next hint.
#pragma once

#include "register_tiling_loads.cuh"  // store_c

#include "common/launch.hpp"
#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

namespace lesson07 {
inline namespace COURSE_LIBRARY {  // yours or reference, named by the build (common/library.hpp)

//! [tile1d_multiply]
/// Adds this step's tiles to the thread's TM sums: `acc[i]` += row `ty * TM + i` of As times column
/// `tx` of Bs, over the BK values of k the tiles hold.
/// \param As the block's BM x BK tile of A: As[m][k] is A(row0 + m, k0 + k)
/// \param Bs its BK x BN tile of B: Bs[k][n] is B(k0 + k, col0 + n)
/// \param tx the thread's column of the tile
/// \param ty its group of rows: ty * TM .. ty * TM + TM - 1
template <int BM, int BN, int BK, int TM>
__device__ __forceinline__ void thread_tile_1d_multiply(const float (&As)[BM][BK],
                                                        const float (&Bs)[BK][BN], int tx, int ty,
                                                        float (&acc)[TM]) {
  // BEGIN EXERCISE: the 1D thread tile
  // One element of B per step k, from shared memory into a register, and TM multiply-adds with
  // it: the TM elements of A in column k of the thread's rows. As[ty * TM + i][k] is the same
  // address for the whole warp (one broadcast read).
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    const float b = Bs[k][tx];
#pragma unroll
    for (int i = 0; i < TM; ++i) acc[i] = fmaf(As[ty * TM + i][k], b, acc[i]);
  }
  // END EXERCISE
}
//! [tile1d_multiply]

//! [tile1d_write]
/// Writes the thread's TM results: `acc[i]` is C(row0 + ty * TM + i, col0 + tx), scaled as
/// `alpha * acc + beta * C`; results outside the M x N matrix C are not written.
template <int TM>
__device__ __forceinline__ void thread_tile_1d_write(float* __restrict__ C, int M, int N, int row0,
                                                     int col0, int tx, int ty, float alpha,
                                                     const float (&acc)[TM], float beta) {
  // BEGIN EXERCISE: write the TM results
  // Result i belongs to row row0 + ty * TM + i, column col0 + tx; store_c writes it if it lies
  // inside C (a block at the bottom or right edge computes some elements nobody needs).
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    store_c(C, M, N, row0 + ty * TM + i, col0 + tx, alpha, acc[i], beta);
  }
  // END EXERCISE
}
//! [tile1d_write]

//! [tile1d_launch]
/// How thread_tile_1d_sgemm<BM, BN, BK, TM> launches its kernel on an M x N problem: one 1D block
/// of (BM / TM) * BN threads per BM x BN tile of C, a grid of ceil(N / BN) x ceil(M / BM) blocks
/// (x along the columns).
template <int BM, int BN, int TM>
course::Launch thread_tile_1d_launch(int M, int N) {
  // BEGIN EXERCISE: thread_tile_1d_sgemm launch
  // x covers the N columns, y the M rows, both rounded up (in long: N + BN - 1 may not fit an
  // int).
  course::Launch l;
  l.block = dim3((BM / TM) * BN);
  l.grid = dim3(static_cast<unsigned>((static_cast<long>(N) + BN - 1) / BN),
                static_cast<unsigned>((static_cast<long>(M) + BM - 1) / BM));
  return l;
  // END EXERCISE
}
//! [tile1d_launch]

}  // namespace COURSE_LIBRARY
}  // namespace lesson07
