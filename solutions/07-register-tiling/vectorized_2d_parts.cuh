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
  // One LDG.128 per group: the 16 bytes at X[r][c .. c + 3].
  constexpr int kPerRow = COLS / 4;  // float4 groups in a row of the tile
#pragma unroll
  for (int i = 0; i < ROWS * COLS / 4 / THREADS; ++i) {
    const int e = threadIdx.x + i * THREADS;
    const int r = r0 + e / kPerRow, c = c0 + 4 * (e % kPerRow);
    regs[i] = *reinterpret_cast<const float4*>(X + r * cols + c);
  }
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
  // Group e of the A tile is A[row0 + r][k0 + c .. c + 3]: four values of one row of A, which
  // go to four rows of As (column r). The B groups are stored as they came, 16 bytes at once.
#pragma unroll
  for (int i = 0; i < BM * BK / 4 / THREADS; ++i) {
    const int e = threadIdx.x + i * THREADS;
    const int r = e / (BK / 4), c = 4 * (e % (BK / 4));
    As[c + 0][r] = a_next[i].x;
    As[c + 1][r] = a_next[i].y;
    As[c + 2][r] = a_next[i].z;
    As[c + 3][r] = a_next[i].w;
  }
#pragma unroll
  for (int i = 0; i < BK * BN / 4 / THREADS; ++i) {
    const int e = threadIdx.x + i * THREADS;
    const int r = e / (BN / 4), c = 4 * (e % (BN / 4));
    *reinterpret_cast<float4*>(&Bs[r][c]) = b_next[i];
  }
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
  // Step k: the thread's TM values of A are TM / 4 float4 in row k of As, its TN values of B
  // TN / 4 float4 in row k of Bs. Within a quarter-warp (8 threads, one pass of a 128-bit
  // shared load) the 8 values of tx read 8 consecutive float4 of Bs: 32 words, 32 banks.
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    float a[TM], b[TN];
#pragma unroll
    for (int g = 0; g < TM / 4; ++g) {
      const float4 v = *reinterpret_cast<const float4*>(&As[k][g * kRowStep + ty * 4]);
      a[4 * g + 0] = v.x;
      a[4 * g + 1] = v.y;
      a[4 * g + 2] = v.z;
      a[4 * g + 3] = v.w;
    }
#pragma unroll
    for (int h = 0; h < TN / 4; ++h) {
      const float4 v = *reinterpret_cast<const float4*>(&Bs[k][h * kColStep + tx * 4]);
      b[4 * h + 0] = v.x;
      b[4 * h + 1] = v.y;
      b[4 * h + 2] = v.z;
      b[4 * h + 3] = v.w;
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }
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
  // Inside C, with aligned rows, the four values of p are one float4 store (and one float4 load
  // of C when beta != 0); anywhere else, four checked scalar stores.
  const bool fast = vec4 && row0 + BM <= M && col0 + BN <= N;
#pragma unroll
  for (int g = 0; g < TM / 4; ++g) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int i = 4 * g + q;
      const int row = row0 + g * kRowStep + ty * 4 + q;
#pragma unroll
      for (int h = 0; h < TN / 4; ++h) {
        const int j = 4 * h;
        const int col = col0 + h * kColStep + tx * 4;
        if (fast) {
          float4* c = reinterpret_cast<float4*>(C + static_cast<size_t>(row) * N + col);
          float4 out = make_float4(alpha * acc[i][j], alpha * acc[i][j + 1], alpha * acc[i][j + 2],
                                   alpha * acc[i][j + 3]);
          if (beta != 0.0f) {  // C is read only when beta != 0
            const float4 old = *c;
            out.x += beta * old.x;
            out.y += beta * old.y;
            out.z += beta * old.z;
            out.w += beta * old.w;
          }
          *c = out;
        } else {
#pragma unroll
          for (int p = 0; p < 4; ++p) store_c(C, M, N, row, col + p, alpha, acc[i][j + p], beta);
        }
      }
    }
  }
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
  // The 128-bit path needs every row of A (K floats), B and C (N floats) to start on a 16-byte
  // boundary: the pointers aligned, and K and N multiples of 4.
  course::Launch l = thread_tile_2d_launch<BM, BN, TM, TN>(M, N);
  auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  l.vec = K % 4 == 0 && N % 4 == 0 && aligned(A) && aligned(B) && aligned(C);
  return l;
  // END EXERCISE
}
//! [vec_launch]

}  // namespace COURSE_LIBRARY
}  // namespace lesson07
