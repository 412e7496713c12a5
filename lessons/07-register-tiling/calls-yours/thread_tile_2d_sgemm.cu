// Lesson 07, step 2: the kernel and the launcher of the 2D thread tile, given code that calls
// yours (thread_tile_2d_parts.cuh: the outer product, the write of the results, the launch). The
// build compiles this file twice: with exercises/07-register-tiling/thread_tile_2d_parts.cuh
// (yours: what `make lesson-7` runs and `make grade-7` grades) and with solutions/
// 07-register-tiling/thread_tile_2d_parts.cuh (the reference). Row-major everywhere; x is the
// column, y the row.
#include "thread_tile_2d_parts.cuh"  // yours

#include "register_tiling.hpp"
#include "register_tiling_loads.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/launch.hpp"

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
    store_tile<BM, BK, kThreads>(As, a_next);
    store_tile<BK, BN, kThreads>(Bs, b_next);
    __syncthreads();    // the tiles are complete before anyone reads them
    if (k0 + BK < K) {  // the next tiles travel while this one is multiplied
      fetch_tile<BM, BK, kThreads>(A, M, K, row0, k0 + BK, a_next);
      fetch_tile<BK, BN, kThreads>(B, K, N, k0 + BK, col0, b_next);
    }
    thread_tile_2d_multiply<BM, BN, BK, TM, TN>(As, Bs, tx, ty, acc);  // yours
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  thread_tile_2d_write<TM, TN>(C, M, N, row0, col0, tx, ty, alpha, acc, beta);  // yours
}
//! [tile2d_loop]

template <int BM, int BN, int BK, int TM, int TN>
void thread_tile_2d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C) {
  course::require_gemm_shape("thread_tile_2d_sgemm", M, N, K, (static_cast<long>(M) + BM - 1) / BM);
  const course::Launch l = thread_tile_2d_launch<BM, BN, TM, TN>(M, N);  // yours
  thread_tile_2d_kernel<BM, BN, BK, TM, TN><<<l.grid, l.block>>>(M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
}

// The kernel itself, for cudaFuncGetAttributes and lesson 06's occupancy calculator.
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
