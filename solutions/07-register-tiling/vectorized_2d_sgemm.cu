// Lesson 07, step 3 (the headline): the 2D thread tile with 128-bit loads. A thread fetches four
// consecutive floats of A or B from global memory with one instruction (float4), the A tile is
// stored transposed in shared memory so that a thread's values of A are consecutive too, and
// every read of a tile in the inner loop is a float4: four values per instruction.
//
// exercises/07-register-tiling/vectorized_2d_sgemm.cu is yours: fill in each region between
// "BEGIN EXERCISE" and "END EXERCISE"; nothing else needs to change. The contract is
// lessons/07-register-tiling/register_tiling.hpp; the chapter,
// lessons/07-register-tiling/README.md, explains the ideas. Row-major everywhere; x is the column,
// y the row.
#include "register_tiling.hpp"
#include "register_tiling_loads.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

#include <cstdint>

namespace lesson07 {

//! [fetch_tile4]
// Thread threadIdx.x's share of the ROWS x COLS tile at (r0, c0) of the row-major rows x cols
// matrix X, as float4: the tile's groups of four consecutive floats of a row are numbered
// e = 0, 1, ... along the rows, group e being row e / (COLS / 4), columns 4 * (e % (COLS / 4)) ..;
// the thread takes e = threadIdx.x + i * THREADS. `vec4` says that every row of X starts on a
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
    // BEGIN EXERCISE: 128-bit loads
    // One LDG.128 per group: the 16 bytes at X[r][c .. c + 3].
#pragma unroll
    for (int i = 0; i < ROWS * COLS / 4 / THREADS; ++i) {
      const int e = threadIdx.x + i * THREADS;
      const int r = r0 + e / kPerRow, c = c0 + 4 * (e % kPerRow);
      regs[i] = *reinterpret_cast<const float4*>(X + r * cols + c);
    }
    // END EXERCISE
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
  constexpr int kRowStep = 4 * (BM / TM), kColStep = 4 * (BN / TN);
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
    // BEGIN EXERCISE: store the tiles, A transposed
    // Group e of the A tile is A[row0 + r][k0 + c .. c + 3]: four values of one row of A, which
    // go to four rows of As (column r). The B groups are stored as they came, 16 bytes at once.
#pragma unroll
    for (int i = 0; i < kA4; ++i) {
      const int e = threadIdx.x + i * kThreads;
      const int r = e / (BK / 4), c = 4 * (e % (BK / 4));
      As[c + 0][r] = a_next[i].x;
      As[c + 1][r] = a_next[i].y;
      As[c + 2][r] = a_next[i].z;
      As[c + 3][r] = a_next[i].w;
    }
#pragma unroll
    for (int i = 0; i < kB4; ++i) {
      const int e = threadIdx.x + i * kThreads;
      const int r = e / (BN / 4), c = 4 * (e % (BN / 4));
      *reinterpret_cast<float4*>(&Bs[r][c]) = b_next[i];
    }
    // END EXERCISE
    __syncthreads();    // the tiles are complete before anyone reads them
    if (k0 + BK < K) {  // the next tiles travel while this one is multiplied
      fetch_tile4<BM, BK, kThreads>(A, M, K, row0, k0 + BK, vec4, a_next);
      fetch_tile4<BK, BN, kThreads>(B, K, N, k0 + BK, col0, vec4, b_next);
    }
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
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  //! [vec_loop]

  //! [vec_write]
  // BEGIN EXERCISE: write C, four elements at a time
  // acc[4 * g + q][4 * h + p] is C[row0 + g * kRowStep + ty * 4 + q][col0 + h * kColStep + tx * 4
  // + p]. Inside C, with aligned rows, the four values of p are one float4 store (and one float4
  // load of C when beta != 0); anywhere else, four checked scalar stores.
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
template <int BM, int BN, int BK, int TM, int TN>
void vectorized_2d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                         float beta, float* C) {
  const long grid_y = (static_cast<long>(M) + BM - 1) / BM;
  course::require_gemm_shape("vectorized_2d_sgemm", M, N, K, grid_y);
  // BEGIN EXERCISE: vectorized_2d_sgemm launch
  // The 128-bit path needs every row of A (K floats), B and C (N floats) to start on a 16-byte
  // boundary: the pointers aligned, and K and N multiples of 4.
  auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const bool vec4 = K % 4 == 0 && N % 4 == 0 && aligned(A) && aligned(B) && aligned(C);
  const dim3 block((BM / TM) * (BN / TN));
  const dim3 grid(static_cast<unsigned>((static_cast<long>(N) + BN - 1) / BN),
                  static_cast<unsigned>(grid_y));
  vectorized_2d_kernel<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C, vec4);
  CHECK_LAUNCH();
  // END EXERCISE
}
//! [vec_launch]

// Given: the kernel itself, for cudaFuncGetAttributes and lesson 06's occupancy calculator.
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
