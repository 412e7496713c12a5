/// \file figures.hpp
/// \brief Lesson 05's figures: one block's walk along K on a toy product, phase by phase (the
/// stores into As and Bs, the two barriers, the multiply, the write of C), with every element of
/// the tiles fetched by your load_or_zero().
#pragma once

#include "lessons/05-tiling/tiled_sgemm.hpp"

#include "common/svg.hpp"

#include <vector>

namespace lesson05 {

/// One tile along K of one block's walk, as the kernel computes it on the GPU.
struct TileStep {
  int k0 = 0;  ///< the first column of A (row of B) of the tile
  /// The shared tiles after the stores, row-major T x T: As[ty][tx] = load_or_zero(A, M, K,
  /// row, k0 + tx), Bs[ty][tx] = load_or_zero(B, K, N, k0 + ty, col).
  std::vector<float> as, bs;
  /// Which element load_or_zero returned into each place of As (r * K + c of A) and of Bs
  /// (r * N + c of B); -1 where it returned its padding zero.
  std::vector<int> a_from, b_from;
  /// What each thread fetches into a_next and b_next during this tile's multiply: the element
  /// of the next tiles, at k0 + T (load_or_zero's zero past the edge, and past K after the last
  /// tile), row-major T x T; and which element that is, as a_from and b_from say it.
  std::vector<float> a_next, b_next;
  std::vector<int> a_next_from, b_next_from;
  /// Every thread's acc after this tile's multiply, row-major T x T.
  std::vector<float> acc;
};

/// The walk of block (block_row, block_col) of a TILE x TILE tiled GEMM of small integer matrices
/// A (M x K) and B (K x N): the tiles it stores, the sums its threads build.
struct BlockWalk {
  int M = 0, N = 0, K = 0, T = 0, block_row = 0, block_col = 0;
  std::vector<float> A, B;  ///< the inputs, row-major
  std::vector<TileStep> steps;
  /// Phases: per tile, store, barrier 1, multiply, barrier 2; then the write of C.
  int phases() const { return 4 * static_cast<int>(steps.size()) + 1; }
};

/// The walk of one block, the CPU doing what each thread of the block does on the GPU, every
/// element fetched through load_or_zero (yours, in `make lesson-5`'s pictures). The inputs are
/// small integers (1 to 3), so the sums are exact.
BlockWalk walk_block(int M, int N, int K, int T, int block_row, int block_col);

/// The element (r, c) of A and B the walk uses: small integers, never 0.
float example_a(int r, int c);
float example_b(int r, int c);

/// Phase `phase` (0 .. w.phases() - 1) of the walk `w`, with thread (ty, tx) of the block
/// highlighted: A, B and C with the block's tiles outlined, As and Bs as load_or_zero filled them,
/// every thread's partial sum; in a multiply phase, the next tiles being fetched, dashed. Tagged
/// for tests: each place of As is class "as TY TX A(R,C)" or "as TY TX pad" (likewise "bs ...
/// B(R,C)"); each cell of C the block writes, in the last phase, "c R C = V"; each thread of the
/// block outside C, "outside"; in a multiply phase, the highlighted thread's fetch of the next
/// tiles, "fetch a A(R,C)" or "fetch a pad" (likewise "fetch b"), and the next tiles' outlines
/// in A and B, "next a R C" and "next b R C" (their top-left element), where they exist.
course::svg::Scene tile_walk_scene(const BlockWalk& w, int phase, int ty, int tx);

}  // namespace lesson05
