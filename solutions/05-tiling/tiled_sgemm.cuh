// Lesson 05: tiling. C = alpha * A * B + beta * C with TILE x TILE tiles of A and B staged in
// shared memory, so every element a block fetches from global memory is used TILE times.
//
// exercises/05-tiling/tiled_sgemm.cuh is yours: fill in each region between "BEGIN EXERCISE"
// and "END EXERCISE"; solutions/05-tiling/tiled_sgemm.cuh is this file with the regions filled in.
// lessons/05-tiling/calls-yours/tiled_sgemm.cu includes it and compiles the two tile sizes. The
// contract is lessons/05-tiling/tiled_sgemm.hpp; the chapter, lessons/05-tiling/README.md,
// explains the ideas. Row-major everywhere; x is the column, y the row.
// `make grade-5` grades it, `make lesson-5` runs it against cuBLAS, `make hint-5` gives the next
// hint.
#pragma once

#include "tiled_sgemm.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

#include <cstddef>

namespace lesson05 {

// ---- Task 1: an element of a tile, or a zero past the edge ------------------------------------

//! [load_or_zero]
COURSE_HD float load_or_zero(const float* X, int rows, int cols, int r, int c) {
  // BEGIN EXERCISE: load_or_zero
  // Outside the matrix: a zero, and no read (the address may not exist).
  if (r >= rows || c >= cols) return 0.0f;
  return X[static_cast<std::size_t>(r) * cols + c];
  // END EXERCISE
}
//! [load_or_zero]

// ---- Tasks 2 and 3: the tiled kernel and its launch -------------------------------------------

//! [kernel_head]
// One block computes one TILE x TILE tile of C, one thread per element. __launch_bounds__ tells
// the compiler the block size, so it never plans for more registers than a full block can have.
template <int TILE>
__global__ void __launch_bounds__(TILE* TILE)
    tiled_sgemm_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                       const float* __restrict__ B, float beta, float* __restrict__ C) {
  static_assert(TILE * TILE <= 1024, "a block holds at most 1024 threads");
  // On-chip, visible to every thread of the block, alive as long as the block: the staging area.
  __shared__ float As[TILE][TILE];  // A[row0 .. row0+TILE)[k0 .. k0+TILE)
  __shared__ float Bs[TILE][TILE];  // B[k0 .. k0+TILE)[col0 .. col0+TILE)

  const int tx = threadIdx.x;              // column within the tile (x is the column)
  const int ty = threadIdx.y;              // row within the tile
  const int row = blockIdx.y * TILE + ty;  // the row of C (and of A) this thread works on
  const int col = blockIdx.x * TILE + tx;  // the column of C (and of B)

  float acc = 0.0f;
  // This thread's element of the next tile of A and of B, on its way from global memory. Threads
  // outside C (row >= M or col >= N) take part like all the others: they load their share of the
  // tiles (zeros, where the tile hangs over the edge) and reach every __syncthreads().
  float a_next = 0.0f, b_next = 0.0f;
  //! [kernel_head]
  //! [first_tiles]
  // BEGIN EXERCISE: load the first tiles
  // Thread (ty, tx) fetches A[row][tx] and B[ty][col]: consecutive tx read consecutive addresses
  // of one row, so a warp's loads coalesce into whole 32-byte sectors.
  a_next = load_or_zero(A, M, K, row, tx);
  b_next = load_or_zero(B, K, N, ty, col);
  // END EXERCISE
  //! [first_tiles]
  //! [tile_loop]
  for (int k0 = 0; k0 < K; k0 += TILE) {  // the tiles along K: A moves right, B moves down
    // BEGIN EXERCISE: one step along K
    As[ty][tx] = a_next;
    Bs[ty][tx] = b_next;
    // Barrier 1: the tiles are complete. Thread (ty, tx) is about to read elements that other
    // threads (other warps, even) stored; none may be read before it has been written.
    __syncthreads();
    // Start fetching the next tiles now: the loads travel while this tile is multiplied, instead
    // of at the top of the next iteration where every warp would wait for them. Registers are
    // private, so this needs no barrier. Past the end of K, load_or_zero gives zeros.
    a_next = load_or_zero(A, M, K, row, k0 + TILE + tx);
    b_next = load_or_zero(B, K, N, k0 + TILE + ty, col);
    // A row of As times a column of Bs, from shared memory. As[ty][k] is the same address for
    // every thread of a tile row: one read, broadcast. Bs[k][tx] walks along a row of Bs:
    // consecutive threads, consecutive banks, no conflict.
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    // Barrier 2: everyone is done reading. The next iteration overwrites As and Bs; a fast warp
    // must not store its next elements while a slow one still reads these.
    __syncthreads();
    // END EXERCISE
  }
  //! [tile_loop]

  //! [write_c]
  // BEGIN EXERCISE: write C
  // Only threads inside C write; a partial tile's extra threads did their share of the loads and
  // stop here. As in BLAS, C is read only when beta != 0 (it may hold NaN when beta == 0).
  if (row < M && col < N) {
    float* c = C + static_cast<std::size_t>(row) * N + col;
    *c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * *c;
  }
  // END EXERCISE
}
//! [write_c]

//! [launch]
template <int TILE>
void tiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                 float* C) {
  // Sizes >= 1, small enough for int indices, and the grid's y (over the M rows) in its limit.
  course::require_gemm_shape("tiled_sgemm", M, N, K, (static_cast<long>(M) + TILE - 1) / TILE);
  // BEGIN EXERCISE: tiled_sgemm launch
  // One TILE x TILE block per tile of C, x along the columns (N), y along the rows (M), both
  // rounded up so a partial tile at the right and bottom edges gets its block too.
  const dim3 block(TILE, TILE);
  const dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  tiled_sgemm_kernel<TILE><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
  // END EXERCISE
}
//! [launch]

}  // namespace lesson05
