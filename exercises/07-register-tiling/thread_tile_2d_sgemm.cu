// Lesson 07, step 2: a 2D thread tile. Every thread computes a TM x TN patch of C as a sum of
// outer products: at each step k it reads TM values of A and TN values of B from shared memory
// into registers and does TM * TN multiply-adds with them.
//
// exercises/07-register-tiling/thread_tile_2d_sgemm.cu is yours: fill in each region between
// "BEGIN EXERCISE" and "END EXERCISE"; nothing else needs to change. The contract is
// lessons/07-register-tiling/register_tiling.hpp; the chapter,
// lessons/07-register-tiling/README.md, explains the ideas. Row-major everywhere; x is the column,
// y the row.
#include "register_tiling.hpp"
#include "register_tiling_loads.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

namespace lesson07 {

//! [tile2d_head]
// One block computes a BM x BN tile of C with (BM / TM) * (BN / TN) threads, laid out as
// BM / TM rows of BN / TN threads; thread (ty, tx) owns the TM x TN patch whose top-left corner
// is (ty * TM, tx * TN) in the tile.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    thread_tile_2d_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                          const float* __restrict__ B, float beta, float* __restrict__ C) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  static_assert(BM % TM == 0 && BN % TN == 0, "whole thread tiles");
  static_assert(kThreads <= 1024, "a block holds at most 1024 threads");
  __shared__ float As[BM][BK];  // A[row0 ..][k0 ..]
  __shared__ float Bs[BK][BN];  // B[k0 ..][col0 ..]

  const int tx = threadIdx.x % (BN / TN);  // the thread's column of threads
  const int ty = threadIdx.x / (BN / TN);  // and its row of threads
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  // TM x TN running sums: 64 registers for an 8 x 8 tile. Every index into acc is a compile-time
  // constant after unrolling; an index the compiler cannot resolve would move acc to (slow,
  // off-chip) local memory.
  float acc[TM][TN] = {};
  float a_next[BM * BK / kThreads], b_next[BK * BN / kThreads];
  fetch_tile<BM, BK, kThreads>(A, M, K, row0, 0, a_next);
  fetch_tile<BK, BN, kThreads>(B, K, N, 0, col0, b_next);
  //! [tile2d_head]

  //! [tile2d_loop]
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int i = 0; i < BM * BK / kThreads; ++i) {
      const int e = threadIdx.x + i * kThreads;
      As[e / BK][e % BK] = a_next[i];
    }
#pragma unroll
    for (int i = 0; i < BK * BN / kThreads; ++i) {
      const int e = threadIdx.x + i * kThreads;
      Bs[e / BN][e % BN] = b_next[i];
    }
    __syncthreads();    // the tiles are complete before anyone reads them
    if (k0 + BK < K) {  // the next tiles travel while this one is multiplied
      fetch_tile<BM, BK, kThreads>(A, M, K, row0, k0 + BK, a_next);
      fetch_tile<BK, BN, kThreads>(B, K, N, k0 + BK, col0, b_next);
    }
    // BEGIN EXERCISE: the outer product
    // TODO: for each step k of the tile: copy the thread's TM values of A, As[ty * TM + i][k],
    // into a register array a[TM], and its TN values of B, Bs[k][tx * TN + j], into b[TN]; then
    // add a[i] * b[j] to acc[i][j] for every i and j (fmaf; #pragma unroll on every loop).
    // END EXERCISE
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  //! [tile2d_loop]

  //! [tile2d_write]
  // BEGIN EXERCISE: write the TM x TN results
  // TODO: acc[i][j] belongs to C[row0 + ty * TM + i][col0 + tx * TN + j]; write each with
  // store_c. (Delete the next line: it only keeps the compiler quiet while these are unused.)
  (void)acc, (void)tx, (void)ty;
  // END EXERCISE
}
//! [tile2d_write]

//! [tile2d_launch]
template <int BM, int BN, int BK, int TM, int TN>
void thread_tile_2d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C) {
  const long grid_y = (static_cast<long>(M) + BM - 1) / BM;
  course::require_gemm_shape("thread_tile_2d_sgemm", M, N, K, grid_y);
  // BEGIN EXERCISE: thread_tile_2d_sgemm launch
  // TODO: launch thread_tile_2d_kernel<BM, BN, BK, TM, TN> with a 1D block of
  // (BM / TM) * (BN / TN) threads and a grid of ceil(N / BN) x ceil(M / BM) blocks, then
  // CHECK_LAUNCH().
  course::not_implemented(
      "thread_tile_2d_sgemm (exercises/07-register-tiling/thread_tile_2d_sgemm.cu)");
  // END EXERCISE
}
//! [tile2d_launch]

// Given: the kernel itself, for cudaFuncGetAttributes and lesson 06's occupancy calculator.
template <int BM, int BN, int BK, int TM, int TN>
const void* thread_tile_2d_sgemm_kernel() {
  void (*kernel)(int, int, int, float, const float*, const float*, float, float*) =
      thread_tile_2d_kernel<BM, BN, BK, TM, TN>;
  return reinterpret_cast<const void*>(kernel);
}

template void thread_tile_2d_sgemm<128, 128, 8, 8, 8>(int, int, int, float, const float*,
                                                      const float*, float, float*);
template const void* thread_tile_2d_sgemm_kernel<128, 128, 8, 8, 8>();

}  // namespace lesson07
