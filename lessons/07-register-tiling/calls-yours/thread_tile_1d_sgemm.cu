// Lesson 07, step 1: the kernel and the launcher of the 1D thread tile, given code that calls
// yours (thread_tile_1d_parts.cuh: the multiply, the write of the results, the launch). The build
// compiles this file twice: with exercises/07-register-tiling/thread_tile_1d_parts.cuh (yours:
// what `make lesson-7` runs and `make grade-7` grades) and with solutions/07-register-tiling/
// thread_tile_1d_parts.cuh (the reference). Row-major everywhere; x is the column, y the row.
#include "thread_tile_1d_parts.cuh"  // yours

#include "register_tiling.hpp"
#include "register_tiling_loads.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/launch.hpp"

namespace lesson07 {

//! [tile1d_head]
// One block computes a BM x BN tile of C with (BM / TM) * BN threads; thread t owns column
// t % BN of the tile and the TM rows starting at (t / BN) * TM.
template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__((BM / TM) * BN)
    thread_tile_1d_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                          const float* __restrict__ B, float beta, float* __restrict__ C) {
  constexpr int kThreads = (BM / TM) * BN;
  static_assert(BM % TM == 0, "whole thread tiles along M");
  static_assert(kThreads <= 1024, "a block holds at most 1024 threads");
  // A warp is 32 consecutive threads: with BN a multiple of 32 they share one `ty`, so they read
  // the same element of As (a broadcast) and 32 consecutive elements of a row of Bs.
  static_assert(BN % 32 == 0, "a warp lies within one row of threads");
  __shared__ float As[BM][BK];  // A[row0 ..][k0 ..]
  __shared__ float Bs[BK][BN];  // B[k0 ..][col0 ..]

  const int tx = threadIdx.x % BN;  // the column of the tile this thread computes
  const int ty = threadIdx.x / BN;  // its rows are ty * TM .. ty * TM + TM - 1
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  // TM running sums: the thread tile, in registers (TM is a compile-time constant and every loop
  // over it is unrolled, so acc[i] is a register, never memory).
  float acc[TM] = {};
  // This thread's elements of the next tiles, on their way from global memory.
  float a_next[BM * BK / kThreads], b_next[BK * BN / kThreads];
  fetch_tile<BM, BK, kThreads>(A, M, K, row0, 0, a_next);
  fetch_tile<BK, BN, kThreads>(B, K, N, 0, col0, b_next);
  //! [tile1d_head]

  //! [tile1d_loop]
  for (int k0 = 0; k0 < K; k0 += BK) {
    // The registers into the tiles, each element where fetch_tile took it from.
    store_tile<BM, BK, kThreads>(As, a_next);
    store_tile<BK, BN, kThreads>(Bs, b_next);
    __syncthreads();  // the tiles are complete before anyone reads them
    // The next tiles travel from global memory while this one is multiplied (lesson 05).
    if (k0 + BK < K) {
      fetch_tile<BM, BK, kThreads>(A, M, K, row0, k0 + BK, a_next);
      fetch_tile<BK, BN, kThreads>(B, K, N, k0 + BK, col0, b_next);
    }
    thread_tile_1d_multiply<BM, BN, BK, TM>(As, Bs, tx, ty, acc);  // yours
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  thread_tile_1d_write<TM>(C, M, N, row0, col0, tx, ty, alpha, acc, beta);  // yours
}
//! [tile1d_loop]

//! [tile1d_launcher]
template <int BM, int BN, int BK, int TM>
void thread_tile_1d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C) {
  course::require_gemm_shape("thread_tile_1d_sgemm", M, N, K, (static_cast<long>(M) + BM - 1) / BM);
  const course::Launch l = thread_tile_1d_launch<BM, BN, TM>(M, N);  // yours
  thread_tile_1d_kernel<BM, BN, BK, TM><<<l.grid, l.block>>>(M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
}
//! [tile1d_launcher]

// The kernel itself, for cudaFuncGetAttributes and lesson 06's occupancy calculator.
template <int BM, int BN, int BK, int TM>
const void* thread_tile_1d_sgemm_kernel() {
  void (*kernel)(int, int, int, float, const float*, const float*, float, float*) =
      thread_tile_1d_kernel<BM, BN, BK, TM>;
  return reinterpret_cast<const void*>(kernel);
}

template void thread_tile_1d_sgemm<64, 64, 8, 8>(int, int, int, float, const float*, const float*,
                                                 float, float*);
template const void* thread_tile_1d_sgemm_kernel<64, 64, 8, 8>();

}  // namespace lesson07
