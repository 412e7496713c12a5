// Lesson 07, step 3 (the headline): the 2D thread tile with 128-bit loads, four floats per
// instruction from global memory, into shared memory (the A tile transposed, so that a thread's
// values of A are consecutive too), and from shared memory in the inner loop.
//
// exercises/07-register-tiling/vectorized_2d_parts.cuh is yours: fill in each region between
// "BEGIN EXERCISE" and "END EXERCISE". The kernel that calls these functions is given:
// lessons/07-register-tiling/calls-yours/vectorized_2d_sgemm.cu includes this file, so your
// functions are compiled with the kernel and inlined into it. solutions/07-register-tiling/ holds
// this file with the regions filled in. The contract is lessons/07-register-tiling/
// register_tiling.hpp; the chapter, lessons/07-register-tiling/README.md, explains the ideas.
// Row-major everywhere; x is the column, y the row.
//
// A thread (ty, tx) owns TM x TN elements of the block's tile in groups of 4 x 4, kRowStep =
// 4 * (BM / TM) rows and kColStep = 4 * (BN / TN) columns apart (64 for a 128 x 128 tile with
// 8 x 8 per thread): the float4 reads of 8 threads then cover 32 consecutive words, all 32 banks.
#pragma once

#include "register_tiling_loads.cuh"  // store_c
#include "thread_tile_2d_parts.cuh"   // thread_tile_2d_launch: the same blocks and grid

#include "common/launch.hpp"
#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

#include <cstdint>

namespace lesson07 {
inline namespace COURSE_LIBRARY {  // yours or reference, named by the build (common/library.hpp)

//! [fetch_tile4_inside]
/// The fast path of the kernel's fetch_tile4: thread threadIdx.x's groups of four floats (group
/// e = threadIdx.x + i * THREADS into regs[i]) of the ROWS x COLS tile at (r0, c0) of the row-major
/// matrix X of `cols` columns, for a tile wholly inside X whose rows start on 16-byte boundaries.
template <int ROWS, int COLS, int THREADS>
__device__ __forceinline__ void fetch_tile4_inside(const float* __restrict__ X, int cols, int r0,
                                                   int c0,
                                                   float4 (&regs)[ROWS * COLS / 4 / THREADS]) {
  // BEGIN EXERCISE: 128-bit loads
  // TODO: for each i < ROWS * COLS / 4 / THREADS, group e = threadIdx.x + i * THREADS is row
  // r0 + e / kPerRow, columns c0 + 4 * (e % kPerRow) .. + 3 of X, with kPerRow = COLS / 4 (the
  // scalar path of fetch_tile4 has the same indices). Load its four floats into regs[i] with ONE
  // 128-bit load: read the address X + r * cols + c as a const float4*.
  // END EXERCISE
}
//! [fetch_tile4_inside]

//! [vec_store]
/// Stores the groups fetch_tile4 fetched into the tiles: a_next[i] is group e = threadIdx.x + i *
/// THREADS of the BM x BK tile of A, b_next[i] group e of the BK x BN tile of B. A goes in
/// TRANSPOSED, As[k][m] = A(row0 + m, k0 + k); B as it is, Bs[k][n] = B(k0 + k, col0 + n).
template <int BM, int BN, int BK, int THREADS>
__device__ __forceinline__ void vectorized_2d_store(float (&As)[BK][BM], float (&Bs)[BK][BN],
                                                    const float4 (&a_next)[BM * BK / 4 / THREADS],
                                                    const float4 (&b_next)[BK * BN / 4 / THREADS]) {
  // BEGIN EXERCISE: store the tiles, A transposed
  // TODO: a_next[i] is group e = threadIdx.x + i * THREADS of the A tile,
  // A[row0 + r][k0 + c .. c + 3] with r = e / (BK / 4) and c = 4 * (e % (BK / 4)): store its
  // four values TRANSPOSED, into As[c + 0][r] .. As[c + 3][r]. b_next[i] is group e of the B
  // tile, row e / (BN / 4), columns 4 * (e % (BN / 4)) ..: store it into Bs as it is, with one
  // float4 store.
  // END EXERCISE
}
//! [vec_store]

//! [vec_multiply]
/// Adds this step's tiles to the thread's TM x TN sums, every read of a tile a float4:
/// `acc[4 * g + q][4 * h + p]` += row g * kRowStep + ty * 4 + q of the A tile (a column of As)
/// times column h * kColStep + tx * 4 + p of Bs, over the BK values of k.
/// `__host__ __device__`: the kernel runs it on the GPU, the chapter's pictures on the CPU (so
/// use what both have: plain arithmetic, fmaf, float4 through reinterpret_cast).
template <int BM, int BN, int BK, int TM, int TN>
__host__ __device__ __forceinline__ void vectorized_2d_multiply(const float (&As)[BK][BM],
                                                                const float (&Bs)[BK][BN], int tx,
                                                                int ty, float (&acc)[TM][TN]) {
  constexpr int kRowStep = 4 * (BM / TM), kColStep = 4 * (BN / TN);
  // BEGIN EXERCISE: the outer product from float4 reads
  // TODO: for each step k of the tile: the thread's TM values of A are TM / 4 float4 in row k
  // of As, at As[k][g * kRowStep + ty * 4] for g < TM / 4, and its TN values of B are TN / 4
  // float4 at Bs[k][h * kColStep + tx * 4] for h < TN / 4. Read them as float4 into a[TM] and
  // b[TN], then add a[i] * b[j] to acc[i][j] for every i and j. (Delete the next line: it only
  // keeps the compiler quiet while the two steps are unused.)
  (void)kRowStep, (void)kColStep;
  // END EXERCISE
}
//! [vec_multiply]

//! [vec_write]
/// Writes the thread's TM x TN results: `acc[4 * g + q][4 * h + p]` is C(row0 + g * kRowStep +
/// ty * 4 + q, col0 + h * kColStep + tx * 4 + p), scaled as `alpha * acc + beta * C`; results
/// outside the M x N matrix C are not written. `vec4`: every row of C starts on a 16-byte boundary.
/// `__host__ __device__`, like the multiply (make_float4 and float4 stores work on both).
template <int BM, int BN, int TM, int TN>
__host__ __device__ __forceinline__ void vectorized_2d_write(float* __restrict__ C, int M, int N,
                                                             int row0, int col0, int tx, int ty,
                                                             float alpha,
                                                             const float (&acc)[TM][TN], float beta,
                                                             bool vec4) {
  constexpr int kRowStep = 4 * (BM / TM), kColStep = 4 * (BN / TN);
  // BEGIN EXERCISE: write C, four elements at a time
  // TODO: when vec4 holds and the block's whole tile lies inside C, write the four values of p
  // with one float4 store: alpha * acc, plus beta times the old float4 of C only when
  // beta != 0. Otherwise write each element with store_c. (Delete the next line: it only keeps
  // the compiler quiet while the two steps are unused.)
  (void)kRowStep, (void)kColStep;
  // END EXERCISE
}
//! [vec_write]

//! [vec_launch]
/// How vectorized_2d_sgemm<BM, BN, BK, TM, TN> launches its kernel on an M x N x K problem: the
/// blocks and the grid of thread_tile_2d_sgemm, and `vec` (the kernel's vec4: 128-bit loads and
/// stores allowed) when every row of A (K floats), B and C (N floats) starts on a 16-byte
/// boundary.
template <int BM, int BN, int TM, int TN>
course::Launch vectorized_2d_launch(int M, int N, int K, const float* A, const float* B,
                                    const float* C) {
  // BEGIN EXERCISE: vectorized_2d_sgemm launch
  // TODO: the blocks and grid of your thread_tile_2d_launch<BM, BN, TM, TN>, and vec: true when
  // K % 4 == 0, N % 4 == 0 and A, B and C are all 16-byte aligned
  // (reinterpret_cast<std::uintptr_t>(p) % 16 == 0).
  course::not_implemented(
      "vectorized_2d_launch (exercises/07-register-tiling/vectorized_2d_parts.cuh)");
  // END EXERCISE
}
//! [vec_launch]

}  // namespace COURSE_LIBRARY
}  // namespace lesson07
