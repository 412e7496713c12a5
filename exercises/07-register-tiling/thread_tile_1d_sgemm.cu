// Lesson 07, step 1: a 1D thread tile. C = alpha * A * B + beta * C with the tiles of lesson 05,
// but every thread computes TM elements of one column of C instead of one element: each value of
// B it reads from shared memory is used TM times, from a register.
//
// exercises/07-register-tiling/thread_tile_1d_sgemm.cu is yours: fill in each region between
// "BEGIN EXERCISE" and "END EXERCISE"; nothing else needs to change. The contract is
// lessons/07-register-tiling/register_tiling.hpp; the chapter,
// lessons/07-register-tiling/README.md, explains the ideas. Row-major everywhere; x is the column,
// y the row.
//
// `make grade-7` grades it on the GPU, `make lesson-7` runs it against cuBLAS, `make hint-7`
// gives the next hint.
#include "register_tiling.hpp"
#include "register_tiling_loads.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

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
    __syncthreads();  // the tiles are complete before anyone reads them
    // The next tiles travel from global memory while this one is multiplied (lesson 05).
    if (k0 + BK < K) {
      fetch_tile<BM, BK, kThreads>(A, M, K, row0, k0 + BK, a_next);
      fetch_tile<BK, BN, kThreads>(B, K, N, k0 + BK, col0, b_next);
    }
    // BEGIN EXERCISE: the 1D thread tile
    // TODO: for each step k of the tile (0 .. BK - 1): read Bs[k][tx] into a register once, then
    // add As[ty * TM + i][k] times it to acc[i] for each of the thread's TM rows i. Put
    // #pragma unroll on both loops, so acc[i] stays a register.
    // END EXERCISE
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  //! [tile1d_loop]

  //! [tile1d_write]
  // BEGIN EXERCISE: write the TM results
  // TODO: acc[i] belongs to row row0 + ty * TM + i and column col0 + tx of C. Write each with
  // store_c (register_tiling_loads.cuh: it skips elements outside C and reads C only when
  // beta != 0). (Delete the next line: it only keeps the compiler quiet while these are unused.)
  (void)acc, (void)tx, (void)ty;
  // END EXERCISE
}
//! [tile1d_write]

//! [tile1d_launch]
template <int BM, int BN, int BK, int TM>
void thread_tile_1d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C) {
  const long grid_y = (static_cast<long>(M) + BM - 1) / BM;
  course::require_gemm_shape("thread_tile_1d_sgemm", M, N, K, grid_y);
  // BEGIN EXERCISE: thread_tile_1d_sgemm launch
  // TODO: launch thread_tile_1d_kernel<BM, BN, BK, TM> with a 1D block of (BM / TM) * BN threads
  // and a grid of ceil(N / BN) x ceil(M / BM) blocks (x along the columns; grid_y is the second
  // number already), then CHECK_LAUNCH().
  course::not_implemented(
      "thread_tile_1d_sgemm (exercises/07-register-tiling/thread_tile_1d_sgemm.cu)");
  // END EXERCISE
}
//! [tile1d_launch]

// Given: the kernel itself, for cudaFuncGetAttributes and lesson 06's occupancy calculator.
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
