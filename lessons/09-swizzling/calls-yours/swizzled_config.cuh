// Lesson 09: the final SGEMM's tile configurations and where each thread's copies and reads of the
// A tile go. Given code, included by calls-yours/swizzled_kernel.cuh after your swizzle_parts.cuh
// (a_index calls your padded_index and swizzled_a_index, declared in smem_swizzle.hpp) and by
// calls-yours/swizzled_sgemm.cu, the table of configurations (which names the tiles and calls none
// of the functions here).
#pragma once

#include "smem_swizzle.hpp"
#include "swizzled_sgemm.hpp"

#include "common/todo.hpp"

#include <cstddef>

namespace lesson09 {

// A padded row of the A tile ends with one float4 of padding: it moves the next row 4 banks round
// and keeps every row 16-byte aligned for the float4 reads.
constexpr int kPad = 4;

//! [tile_config]
// One configuration of the kernel, everything derived from the template parameters.
//   BM x BN   the tile of C a block computes; BK the slice of K per stage
//   WARPS_M x WARPS_N   the block's warps; each computes a WM x WN warp tile
//   a warp's 32 lanes form 4 x 8 threads, each computing a TM x TN register tile, as
//   (TM / 4) x (TN / 4) float4-wide pieces 16 rows and 32 columns apart
//   STAGES   tiles of A and B in flight (cp.async); LAYOUT   the A tile's layout
template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_, ALayout LAYOUT_>
struct Tile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WARPS_M = WARPS_M_, WARPS_N = WARPS_N_;
  static constexpr int STAGES = STAGES_;
  static constexpr ALayout LAYOUT = LAYOUT_;
  static constexpr int kThreads = 32 * WARPS_M * WARPS_N;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;  // the warp tile
  static constexpr int TM = WM / 4, TN = WN / 8;              // the thread tile (4 x 8 lanes)
  // Floats per stage: the A tile (BK rows of BM, padded or not) and the B tile (BK rows of BN).
  static constexpr int kAStage = LAYOUT == ALayout::kPadded ? BK * (BM + kPad) : BK * BM;
  static constexpr int kBStage = BK * BN;
  static constexpr std::size_t kSmemBytes = sizeof(float) * STAGES * (kAStage + kBStage);
  // Up to 64 accumulators a thread, ask for two blocks per SM (at most 128 registers a thread);
  // larger register tiles get one block and up to 255 registers.
  static constexpr int kMinBlocks = TM * TN <= 64 ? 2 : 1;
  static constexpr int kACopies = BM * BK / kThreads;     // 4-byte copies of A per thread
  static constexpr int kBCopies = BK * BN / kThreads;     // 4-byte copies of B per thread
  static constexpr int kBQuads = BK * BN / 4 / kThreads;  // 16-byte copies of B per thread

  static_assert(BM % WARPS_M == 0 && BN % WARPS_N == 0, "whole warp tiles");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles of whole float4s");
  static_assert(BM % 32 == 0 && BK % 8 == 0, "32-column panels of A, 8-k sectors");
  static_assert(BM % (kThreads / 8) == 0 && kThreads % (BN / 4) == 0 && kThreads % BN == 0 &&
                    (BM * BK) % kThreads == 0 && (BK * BN / 4) % kThreads == 0,
                "every thread copies the same number of A sectors and B quads, in whole passes");
  static_assert(STAGES >= 1 && kSmemBytes <= 227 * 1024, "227 KB of shared memory per block");
};
//! [tile_config]

namespace {

// The lanes of a warp as 4 rows x 8 columns of threads, interleaved: lanes 2i and 2i + 1 sit in
// the same row (they read the same float4s of A), lanes i and i ^ 2 in the same column (the same
// float4s of B), the arrangement of CUTLASS's SIMT kernels. The hardware serves such pairs of
// lanes together: an LDS.128 takes two wavefronts instead of four (Nsight Compute counts exactly
// half on the H100).
COURSE_HD constexpr int lane_row(int lane) {
  return (lane >> 1) & 3;
}
COURSE_HD constexpr int lane_col(int lane) {
  return (lane & 1) | ((lane >> 2) & 6);
}

//! [a_index]
// Where A(m, k) of the tile is stored, in floats from the stage's base: the one place that knows
// the layout. The kernel's cp.async stores and LDS.128 loads both go through it.
template <class T>
COURSE_HD inline int a_index(int k, int m) {
  if constexpr (T::LAYOUT == ALayout::kPlain) {
    return k * T::BM + m;
  } else if constexpr (T::LAYOUT == ALayout::kPadded) {
    return padded_index(k, m, T::BM, kPad);
  } else {
    return swizzled_a_index(k, m, T::BK);
  }
}
//! [a_index]

// The copy plan: what thread tid copies of every stage, fixed for the whole kernel.
// - A, kACopies floats: copy i is (k, m) = (tid % 8 + a_copy_k(i), tid / 8 + a_copy_m(i)). Eight
//   consecutive threads take the 8 consecutive k of one row of A (one 32-byte sector of global
//   memory): a warp copies 4 rows x 8 k, a pass of the block kThreads / 8 rows; after BM rows the
//   passes move on by 8 along k.
// - B, kBQuads float4s: quad i is (k, n .. n + 3) = (tid / (BN / 4) + b_copy_k(i), 4 (tid % (BN /
// 4))):
//   a warp copies 128 consecutive floats of one row of B.
template <class T>
COURSE_HD constexpr int a_copy_m(int i) {
  return (i * (T::kThreads / 8)) % T::BM;
}
template <class T>
COURSE_HD constexpr int a_copy_k(int i) {
  return 8 * ((i * (T::kThreads / 8)) / T::BM);
}
template <class T>
COURSE_HD constexpr int b_copy_k(int i) {
  return i * (T::kThreads / (T::BN / 4));
}
template <class T>
COURSE_HD inline void a_copy_coords(int tid, int i, int& k, int& m) {
  k = (tid & 7) + a_copy_k<T>(i);
  m = (tid >> 3) % (T::kThreads / 8) + a_copy_m<T>(i);
}
template <class T>
COURSE_HD inline void b_quad_coords(int tid, int i, int& k, int& n) {
  k = tid / (T::BN / 4) + b_copy_k<T>(i);
  n = 4 * (tid % (T::BN / 4));
}

}  // namespace

//! [configs]
// The lesson's configurations: the one list of them, which the table (calls-yours/
// swizzled_sgemm.cu) and the build (the record's configs table: a file a line) both expand. One
// line a configuration: X(tag, ladder step or 0, its Tile). The tag `quick` marks what the lesson's
// tests need on any GPU: the final tile in its three layouts (the ladder's steps 4 to 6) and the
// two smaller tiles final_sgemm falls back to. A save grades with those alone (make grade-9, make
// watch), and with every line once that passes on a GPU (and in make grade, make test).
#define LESSON09_CONFIGS(X)                                                                        \
  /* The ladder of the chapter, one change a step. */                                              \
  X(full, 1, Tile<128, 128, 8, 4, 2, 1, ALayout::kPlain>)   /* 8 x 8 register tiles, no overlap */ \
  X(full, 2, Tile<128, 128, 8, 4, 2, 2, ALayout::kPlain>)   /* + double buffering */               \
  X(full, 3, Tile<128, 256, 8, 4, 2, 2, ALayout::kPlain>)   /* + 8 x 16 register tiles */          \
  X(quick, 4, Tile<128, 256, 8, 4, 2, 4, ALayout::kPlain>)  /* + 4 stages */                       \
  X(quick, 5, Tile<128, 256, 8, 4, 2, 4, ALayout::kPadded>) /* + padding */                        \
  X(quick, 6, Tile<128, 256, 8, 4, 2, 4, ALayout::kSwizzled>) /* the swizzle instead: Final */     \
  /* Other tiles, stages and layouts, for the sweep (make lesson-9 ARGS=--sweep). */               \
  X(full, 0, Tile<128, 128, 8, 4, 2, 1, ALayout::kPadded>)                                         \
  X(full, 0, Tile<128, 128, 8, 4, 2, 1, ALayout::kSwizzled>)                                       \
  X(quick, 0, Tile<128, 128, 8, 4, 2, 2, ALayout::kSwizzled>) /* Middle */                         \
  X(full, 0, Tile<128, 128, 16, 4, 2, 3, ALayout::kPlain>)                                         \
  X(full, 0, Tile<128, 128, 16, 4, 2, 3, ALayout::kPadded>)                                        \
  X(full, 0, Tile<128, 128, 16, 4, 2, 3, ALayout::kSwizzled>)                                      \
  X(full, 0, Tile<128, 256, 8, 4, 2, 2, ALayout::kSwizzled>)                                       \
  X(full, 0, Tile<128, 256, 8, 4, 2, 3, ALayout::kSwizzled>)                                       \
  X(full, 0, Tile<128, 256, 8, 4, 2, 6, ALayout::kSwizzled>)                                       \
  X(full, 0, Tile<128, 256, 16, 4, 2, 3, ALayout::kPadded>)                                        \
  X(full, 0, Tile<128, 256, 16, 4, 2, 3, ALayout::kSwizzled>)                                      \
  X(full, 0, Tile<128, 256, 16, 4, 2, 4, ALayout::kSwizzled>)                                      \
  X(full, 0, Tile<128, 256, 32, 4, 2, 3, ALayout::kSwizzled>)                                      \
  X(full, 0, Tile<256, 128, 8, 4, 2, 4, ALayout::kSwizzled>)                                       \
  X(quick, 0, Tile<64, 128, 16, 2, 4, 3, ALayout::kSwizzled>) /* Small */                          \
  X(full, 0, Tile<64, 64, 16, 4, 2, 3, ALayout::kSwizzled>)
//! [configs]

}  // namespace lesson09
