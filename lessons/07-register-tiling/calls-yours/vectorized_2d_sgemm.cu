// Lesson 07, step 3 (the headline): the kernel and the launcher of the 2D thread tile with 128-bit
// loads, given code that calls yours (vectorized_2d_parts.cuh: the 128-bit fetch, the transposed
// store, the float4 outer product, the float4 write, the launch). The build compiles this file
// twice: with exercises/07-register-tiling/vectorized_2d_parts.cuh (yours: what `make lesson-7`
// runs and `make grade-7` grades) and with solutions/07-register-tiling/vectorized_2d_parts.cuh
// (the reference). Row-major everywhere; x is the column, y the row.
#include "vectorized_2d_parts.cuh"  // yours

#include "register_tiling.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/launch.hpp"

namespace lesson07 {

//! [fetch_tile4]
// Thread threadIdx.x's share of the ROWS x COLS tile at (r0, c0) of the row-major rows x cols
// matrix X, as float4 groups (group e: row e / (COLS / 4), columns 4 * (e % (COLS / 4)) ..; the
// thread takes e = threadIdx.x + i * THREADS). `vec4` says that every row of X starts on a
// 16-byte boundary (X aligned, cols % 4 == 0), which a 128-bit load needs.
template <int ROWS, int COLS, int THREADS>
__device__ __forceinline__ void fetch_tile4(const float* __restrict__ X, int rows, int cols, int r0,
                                            int c0, bool vec4,
                                            float4 (&regs)[ROWS * COLS / 4 / THREADS]) {
  static_assert(COLS % 4 == 0 && (ROWS * COLS / 4) % THREADS == 0,
                "every thread fetches as many float4 as the next");
  constexpr int kPerRow = COLS / 4;  // float4 groups in a row of the tile
  // The same answer for the whole block: the fast path, or the scalar one for a tile that
  // crosses an edge of X (or an X whose rows are not 16-byte aligned).
  const bool fast = vec4 && r0 + ROWS <= rows && c0 + COLS <= cols;
  if (fast) {
    fetch_tile4_inside<ROWS, COLS, THREADS>(X, cols, r0, c0, regs);  // yours: one LDG.128 a group
  } else {
    // Four scalar loads per group, each checked: zeros outside X.
#pragma unroll
    for (int i = 0; i < ROWS * COLS / 4 / THREADS; ++i) {
      const int e = threadIdx.x + i * THREADS;
      const int r = r0 + e / kPerRow, c = c0 + 4 * (e % kPerRow);
      const bool row_in = r < rows;
      regs[i].x = (row_in && c + 0 < cols) ? X[r * cols + c + 0] : 0.0f;
      regs[i].y = (row_in && c + 1 < cols) ? X[r * cols + c + 1] : 0.0f;
      regs[i].z = (row_in && c + 2 < cols) ? X[r * cols + c + 2] : 0.0f;
      regs[i].w = (row_in && c + 3 < cols) ? X[r * cols + c + 3] : 0.0f;
    }
  }
}
//! [fetch_tile4]

//! [vec_head]
// One block computes a BM x BN tile of C with (BM / TM) * (BN / TN) threads. Thread (ty, tx) owns
// TM x TN elements in groups of 4 x 4: rows g * kRowStep + ty * 4 + {0..3} (g < TM / 4) and columns
// h * kColStep + tx * 4 + {0..3} (h < TN / 4), where kRowStep = 4 * (BM / TM) is the height of
// the threads' first groups together (64 for a 128 x 128 tile with 8 x 8 per thread).
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    vectorized_2d_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                         const float* __restrict__ B, float beta, float* __restrict__ C,
                         bool vec4) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "float4 groups");
  static_assert(BM % TM == 0 && BN % TN == 0, "whole thread tiles");
  static_assert(kThreads <= 1024, "a block holds at most 1024 threads");
  constexpr int kA4 = BM * BK / 4 / kThreads;  // float4 of A each thread fetches per step
  constexpr int kB4 = BK * BN / 4 / kThreads;  // and of B
  static_assert(kA4 >= 1 && kB4 >= 1, "every thread fetches at least one float4 of each tile");
  // As is the A tile TRANSPOSED: As[k][m] = A[row0 + m][k0 + k]. A column of the A tile (what a
  // thread needs at step k) is then a row of As: consecutive floats, readable as float4.
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];  // B[k0 + k][col0 + n], as in B

  const int tx = threadIdx.x % (BN / TN);
  const int ty = threadIdx.x / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  float acc[TM][TN] = {};
  float4 a_next[kA4], b_next[kB4];
  fetch_tile4<BM, BK, kThreads>(A, M, K, row0, 0, vec4, a_next);
  fetch_tile4<BK, BN, kThreads>(B, K, N, 0, col0, vec4, b_next);
  //! [vec_head]

  //! [vec_loop]
  for (int k0 = 0; k0 < K; k0 += BK) {
    vectorized_2d_store<BM, BN, BK, kThreads>(As, Bs, a_next, b_next);  // yours: A transposed
    __syncthreads();    // the tiles are complete before anyone reads them
    if (k0 + BK < K) {  // the next tiles travel while this one is multiplied
      fetch_tile4<BM, BK, kThreads>(A, M, K, row0, k0 + BK, vec4, a_next);
      fetch_tile4<BK, BN, kThreads>(B, K, N, k0 + BK, col0, vec4, b_next);
    }
    vectorized_2d_multiply<BM, BN, BK, TM, TN>(As, Bs, tx, ty, acc);  // yours
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  vectorized_2d_write<BM, BN, TM, TN>(C, M, N, row0, col0, tx, ty, alpha, acc, beta,
                                      vec4);  // yours
}
//! [vec_loop]

//! [vec_launcher]
template <int BM, int BN, int BK, int TM, int TN>
void vectorized_2d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                         float beta, float* C) {
  course::require_gemm_shape("vectorized_2d_sgemm", M, N, K, (static_cast<long>(M) + BM - 1) / BM);
  const course::Launch l = vectorized_2d_launch<BM, BN, TM, TN>(M, N, K, A, B, C);  // yours
  vectorized_2d_kernel<BM, BN, BK, TM, TN>
      <<<l.grid, l.block>>>(M, N, K, alpha, A, B, beta, C, l.vec);
  CHECK_LAUNCH();
}
//! [vec_launcher]

// The kernel itself, for cudaFuncGetAttributes and lesson 06's occupancy calculator.
template <int BM, int BN, int BK, int TM, int TN>
const void* vectorized_2d_sgemm_kernel() {
  void (*kernel)(int, int, int, float, const float*, const float*, float, float*, bool) =
      vectorized_2d_kernel<BM, BN, BK, TM, TN>;
  return reinterpret_cast<const void*>(kernel);
}

template void vectorized_2d_sgemm<128, 128, 8, 8, 8>(int, int, int, float, const float*,
                                                     const float*, float, float*);
template const void* vectorized_2d_sgemm_kernel<128, 128, 8, 8, 8>();

}  // namespace lesson07
