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
  // TODO: X[r][c] of the rows x cols row-major matrix X, or 0.0f when (r, c) lies outside it.
  // Outside, do not read X at all: the address may not exist.
  COURSE_TODO_HD("load_or_zero (exercises/05-tiling/tiled_sgemm.cuh)", 0.0f);
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
  // TODO: this thread's element of the first tile of A (which starts at A[blockIdx.y * TILE][0])
  // into a_next, and of the first tile of B (at B[0][blockIdx.x * TILE]) into b_next, through
  // load_or_zero so a tile that hangs over an edge of A or B gets zeros there.
  // END EXERCISE
  //! [first_tiles]
  //! [tile_loop]
  for (int k0 = 0; k0 < K; k0 += TILE) {  // the tiles along K: A moves right, B moves down
    // BEGIN EXERCISE: one step along K
    // TODO: one step of the walk along K, in this order:
    //   store a_next and b_next into this thread's place in As and Bs;
    //   wait until the whole block has stored (why?);
    //   start fetching this thread's elements of the NEXT tiles (at k0 + TILE) into a_next and
    //   b_next, so they travel while this tile is multiplied;
    //   add row ty of As times column tx of Bs to acc;
    //   wait until the whole block is done reading As and Bs (why?).
    // END EXERCISE
  }
  //! [tile_loop]

  //! [write_c]
  // BEGIN EXERCISE: write C
  // TODO: threads inside C (row < M and col < N) write alpha * acc + beta * C[row][col];
  // when beta == 0, C must not be read (it may hold NaN): write alpha * acc alone. (Delete the
  // next line: it only keeps the compiler quiet while these variables are unused.)
  (void)row, (void)col, (void)acc, (void)a_next, (void)b_next, (void)As, (void)Bs;
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
  // TODO: launch tiled_sgemm_kernel<TILE> with blocks of TILE x TILE threads (x along the
  // columns) and enough blocks to cover all of C, rounding up; then CHECK_LAUNCH().
  course::not_implemented("tiled_sgemm (exercises/05-tiling/tiled_sgemm.cuh)");
  // END EXERCISE
}
//! [launch]

}  // namespace lesson05
