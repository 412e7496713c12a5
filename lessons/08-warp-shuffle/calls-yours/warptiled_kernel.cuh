// Lesson 08: the warp-tiled SGEMM's kernel, its launcher and the entry of a configuration in the
// table of variants. C = alpha * A * B + beta * C with three levels of tiles: a block tile staged
// in shared memory, a warp tile per warp, a thread tile per thread, each level matched to a level
// of the hardware (SM, warp scheduler, registers).
//
// Given code that calls yours (warptiled_parts.cuh: thread_place, warp_tile_multiply,
// warptiled_launch), included by the files that compile the configurations,
// a file a line of LESSON08_CONFIGS, which the build writes twice: with your
// exercises/08-warp-shuffle/warptiled_parts.cuh (what `make lesson-8` runs and `make grade-8`
// grades) and with the reference, solutions/08-warp-shuffle/warptiled_parts.cuh. Row-major
// everywhere; x is the column, y the row.
#pragma once

#include "warptiled_parts.cuh"  // yours: thread_place, warp_tile_multiply, warptiled_launch

#include "warptiled_sgemm.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace lesson08 {

namespace {

// ---- Given: moving tiles from global memory to shared memory ----------------------------------

//! [fetch_tile]
// This thread's share of a ROWS x COLS tile of the row-major rows x cols matrix X, whose corner is
// (r0, c0), into registers: float4 number e = tid + i * THREADS of the tile (row e / (COLS / 4),
// columns 4 * (e % (COLS / 4)) .. + 3). Consecutive threads take consecutive float4s along a row,
// so a warp reads whole 32-byte sectors. Outside X the values are zeros.
//
// VEC (cols % 4 == 0 and X 16-byte aligned): one 128-bit load (LDG.128) per float4. A float4
// starts at a multiple of 4, so it lies either wholly inside X or wholly past its last column.
// Otherwise one load per float, each with its own bound.
template <int ROWS, int COLS, int THREADS, bool VEC>
__device__ __forceinline__ void fetch_tile(float4 (&regs)[ROWS * COLS / 4 / THREADS],
                                           const float* __restrict__ X, int rows, int cols, int r0,
                                           int c0, int tid) {
  constexpr int kGroups = COLS / 4;  // float4s per row of the tile
#pragma unroll
  for (int i = 0; i < ROWS * COLS / 4 / THREADS; ++i) {
    const int e = tid + i * THREADS;
    const int r = r0 + e / kGroups, c = c0 + 4 * (e % kGroups);
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (VEC) {
      if (r < rows && c < cols) {
        v = *reinterpret_cast<const float4*>(X + static_cast<std::size_t>(r) * cols + c);
      }
    } else if (r < rows) {
      const float* src = X + static_cast<std::size_t>(r) * cols + c;
      if (c < cols) v.x = src[0];
      if (c + 1 < cols) v.y = src[1];
      if (c + 2 < cols) v.z = src[2];
      if (c + 3 < cols) v.w = src[3];
    }
    regs[i] = v;
  }
}

// The A tile (BM x BK) goes into shared memory transposed, As[k][m] = A[row0 + m][k0 + k], so that
// a thread's TM consecutive rows of A at one k are TM consecutive floats: one 128-bit shared load
// (LDS.128) per 4 of them. Four 32-bit stores per float4.
template <int BM, int BK, int THREADS>
__device__ __forceinline__ void store_a_transposed(float (*As)[BM],
                                                   const float4 (&regs)[BM * BK / 4 / THREADS],
                                                   int tid) {
#pragma unroll
  for (int i = 0; i < BM * BK / 4 / THREADS; ++i) {
    const int e = tid + i * THREADS;
    const int m = e / (BK / 4), k = 4 * (e % (BK / 4));
    As[k + 0][m] = regs[i].x;
    As[k + 1][m] = regs[i].y;
    As[k + 2][m] = regs[i].z;
    As[k + 3][m] = regs[i].w;
  }
}

// The B tile (BK x BN) keeps its layout: one 128-bit store per float4.
template <int BK, int BN, int THREADS>
__device__ __forceinline__ void store_b(float (*Bs)[BN],
                                        const float4 (&regs)[BK * BN / 4 / THREADS], int tid) {
#pragma unroll
  for (int i = 0; i < BK * BN / 4 / THREADS; ++i) {
    const int e = tid + i * THREADS;
    *reinterpret_cast<float4*>(&Bs[e / (BN / 4)][4 * (e % (BN / 4))]) = regs[i];
  }
}
//! [fetch_tile]

// ---- The kernel -------------------------------------------------------------------------------

//! [kernel_head]
// One block computes one BM x BN tile of C; warp w of the block one WM x WN warp tile of it; each
// lane (WM_ITER * TM) x (WN_ITER * TN) results, kept in registers for the whole of K.
template <int BM, int BN, int BK, int WM, int WN, int WM_ITER, int WN_ITER, int TM, int TN,
          int MIN_BLOCKS, bool VEC>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, MIN_BLOCKS)
    warptiled_sgemm_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                           const float* __restrict__ B, float beta, float* __restrict__ C) {
  constexpr WarpTileShape kShape{BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN};
  constexpr int kThreads = kShape.threads();
  constexpr int kSubM = kShape.sub_m(), kSubN = kShape.sub_n();
  constexpr int kRows = WM_ITER * TM, kCols = WN_ITER * TN;  // this thread's results
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % WM_ITER == 0 && WN % WN_ITER == 0,
                "the levels must divide each other");
  static_assert(kSubM % TM == 0 && kSubN % TN == 0 && kShape.lane_rows() * kShape.lane_cols() == 32,
                "the 32 lanes of a warp must tile a sub-tile exactly");
  static_assert(BK % 4 == 0 && TM % 4 == 0 && TN % 4 == 0, "float4 steps");
  static_assert((BM * BK / 4) % kThreads == 0 && (BK * BN / 4) % kThreads == 0,
                "every thread loads the same number of float4s of each tile");

  // Two buffers of each tile: while the block multiplies one, the next tiles are stored into the
  // other, so one barrier per step suffices (lesson 05 needed two). 16-byte aligned for LDS.128.
  __shared__ __align__(16) float As[2][BK][BM];  // A tile, transposed: As[.][k][m]
  __shared__ __align__(16) float Bs[2][BK][BN];  // B tile: Bs[.][k][n]

  const int tid = threadIdx.x;
  const ThreadPlace p = thread_place(kShape, tid);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;  // the block tile's corner in C
  // The first of this thread's rows (of As) and columns (of Bs) in the tile; the others are at
  // + i * kSubM and + j * kSubN (sub-tile steps) plus 0 .. TM - 1 and 0 .. TN - 1.
  const int a0 = p.warp_row * WM + p.lane_row * TM;
  const int b0 = p.warp_col * WN + p.lane_col * TN;

  float acc[kRows][kCols];
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
#pragma unroll
    for (int j = 0; j < kCols; ++j) acc[i][j] = 0.0f;
  }

  // The block's next tiles on their way from global memory, as in lesson 05.
  float4 a_next[BM * BK / 4 / kThreads], b_next[BK * BN / 4 / kThreads];
  fetch_tile<BM, BK, kThreads, VEC>(a_next, A, M, K, row0, 0, tid);
  fetch_tile<BK, BN, kThreads, VEC>(b_next, B, K, N, 0, col0, tid);
  store_a_transposed<BM, BK, kThreads>(As[0], a_next, tid);
  store_b<BK, BN, kThreads>(Bs[0], b_next, tid);
  __syncthreads();
  //! [kernel_head]

  //! [step_start]
  const int steps = (K + BK - 1) / BK;
  for (int s = 0; s < steps; ++s) {
    const int cur = s & 1;
    const bool more = s + 1 < steps;
    // Start the loads of the next tiles; they travel while this one is multiplied.
    if (more) {
      fetch_tile<BM, BK, kThreads, VEC>(a_next, A, M, K, row0, (s + 1) * BK, tid);
      fetch_tile<BK, BN, kThreads, VEC>(b_next, B, K, N, (s + 1) * BK, col0, tid);
    }
    // Your task 5: the multiply of this step's tiles into the thread's results.
    warp_tile_multiply<BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN>(As, Bs, cur, a0, b0, acc);
    //! [step_start]
    //! [step_end]
    // Store the next tiles into the other buffer. Nobody reads it now: its last readers were in
    // step s - 1, and they all passed the barrier at the end of that step.
    if (more) {
      store_a_transposed<BM, BK, kThreads>(As[cur ^ 1], a_next, tid);
      store_b<BK, BN, kThreads>(Bs[cur ^ 1], b_next, tid);
    }
    // The one barrier of the step: the next tiles are complete before step s + 1 reads them, and
    // every read of this step's buffer is done before step s + 1 stores into it.
    __syncthreads();
  }
  //! [step_end]

  //! [write_c]
  // Each result goes to C once, if it lies inside C. With VEC (N % 4 == 0) a thread's TN
  // consecutive columns are written as float4s, which are wholly inside or wholly outside C. As in
  // BLAS, C is read only when beta != 0.
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const int row = row0 + a0 + (i / TM) * kSubM + i % TM;
    if (row >= M) continue;
    float* c_row = C + static_cast<std::size_t>(row) * N;
#pragma unroll
    for (int j = 0; j < kCols; j += 4) {
      const int col = col0 + b0 + (j / TN) * kSubN + j % TN;
      float4 r = make_float4(alpha * acc[i][j], alpha * acc[i][j + 1], alpha * acc[i][j + 2],
                             alpha * acc[i][j + 3]);
      if (VEC) {
        if (col < N) {
          float4* c = reinterpret_cast<float4*>(c_row + col);
          if (beta != 0.0f) {
            const float4 old = *c;
            r.x += beta * old.x;
            r.y += beta * old.y;
            r.z += beta * old.z;
            r.w += beta * old.w;
          }
          *c = r;
        }
      } else {
        const float out[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
        for (int t = 0; t < 4; ++t) {
          if (col + t < N) {
            c_row[col + t] = (beta == 0.0f) ? out[t] : out[t] + beta * c_row[col + t];
          }
        }
      }
    }
  }
}
//! [write_c]

}  // namespace

//! [launcher]
// The launch itself, around your warptiled_launch (task 6): the shape's preconditions first, then
// the version of the kernel for the path it chose, then the check of the launch.
template <int BM, int BN, int BK, int WM, int WN, int WM_ITER, int WN_ITER, int TM, int TN,
          int MIN_BLOCKS>
void warptiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                     float* C) {
  course::require_gemm_shape("warptiled_sgemm", M, N, K, (static_cast<long>(M) + BM - 1) / BM);
  const course::Launch l = warptiled_launch<BM, BN, WM, WN>(M, N, K, A, B, C);
  if (l.vec) {
    warptiled_sgemm_kernel<BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN, MIN_BLOCKS, true>
        <<<l.grid, l.block>>>(M, N, K, alpha, A, B, beta, C);
  } else {
    warptiled_sgemm_kernel<BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN, MIN_BLOCKS, false>
        <<<l.grid, l.block>>>(M, N, K, alpha, A, B, beta, C);
  }
  CHECK_LAUNCH();
}
//! [launcher]

// The entry of one configuration in warptiled_configs() (declared in
// calls-yours/warptiled_sgemm.cu).
template <int BM, int BN, int BK, int WM, int WN, int WM_ITER, int WN_ITER, int TM, int TN,
          int MIN_BLOCKS>
WarpTiledConfig make_config() {
  WarpTiledConfig c;
  c.shape = WarpTileShape{BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN};
  c.name = "warptiled " + std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) +
           " w" + std::to_string(WM) + "x" + std::to_string(WN) + " t" +
           std::to_string(WM_ITER * TM) + "x" + std::to_string(WN_ITER * TN);
  c.kernel = reinterpret_cast<const void*>(
      &warptiled_sgemm_kernel<BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN, MIN_BLOCKS, true>);
  c.threads = c.shape.threads();
  c.static_smem_bytes = sizeof(float) * c.shape.smem_floats();  // As and Bs, double-buffered
  c.min_blocks = MIN_BLOCKS;
  c.intensity = c.shape.intensity();
  c.run = &warptiled_sgemm<BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN, MIN_BLOCKS>;
  return c;
}

}  // namespace lesson08

// Compiles one configuration, in namespace lesson08: its launcher (both paths of its kernel) and
// its entry in the table. The build writes a file for each line of LESSON08_CONFIGS that calls it.
#define LESSON08_CONFIG(...)                                                                   \
  template void warptiled_sgemm<__VA_ARGS__>(int, int, int, float, const float*, const float*, \
                                             float, float*);                                   \
  template WarpTiledConfig make_config<__VA_ARGS__>();
