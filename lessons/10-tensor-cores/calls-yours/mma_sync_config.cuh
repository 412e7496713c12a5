// Lesson 10: the mma.sync GEMM's tile configurations, and the one list of them. Given code,
// included by calls-yours/mma_sync_kernel.cuh (which adds each lane's offsets, calling your
// fragment mappings) and by calls-yours/mma_sync_gemm.cu, the table of configurations (compiled
// without yours).
#pragma once

#include "mma_fragment.hpp"
#include "mma_sync_gemm.hpp"
#include "ptx.cuh"
#include "smem_tile.hpp"
#include "wmma_gemm.hpp"  // require_bf16_tensor_cores

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"
#include "common/variants.hpp"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson10 {

using course::bf16;

// ---- The kernel's configuration (given code) -------------------------------------------------

//! [tile_config]
// One configuration of the kernel, everything derived from the template parameters.
//   BM x BN   the tile of C a block computes; BK the values of k per stage (32 or 64: rows of
//             64 or 128 bytes in shared memory)
//   WARPS_M x WARPS_N   the block's warps; each computes a WM x WN warp tile of C as MT x NT
//             mma tiles of 16 x 8
//   STAGES    tiles of A and B in shared memory at once (cp.async pipeline); SWIZZLED their layout
template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_, bool SWIZZLED_>
struct Tile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WARPS_M = WARPS_M_, WARPS_N = WARPS_N_;
  static constexpr int STAGES = STAGES_;
  static constexpr bool SWIZZLED = SWIZZLED_;
  static constexpr int kThreads = 32 * WARPS_M * WARPS_N;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;  // the warp tile
  static constexpr int MT = WM / 16, NT = WN / 8;             // its mma tiles
  static constexpr int KSTEPS = BK / 16;                      // mma steps along k per stage
  static constexpr int kRowBytes = 2 * BK;                    // a row of a tile: BK bf16
  static constexpr int kChunks = BK / 8;                      // 16-byte chunks per row
  static constexpr int kAStageBytes = BM * kRowBytes, kBStageBytes = BN * kRowBytes;
  static constexpr int kStageBytes = kAStageBytes + kBStageBytes;
  static constexpr int k16RowsBytes = 16 * kRowBytes;  // the next mma tile along M (or N pair)
  // One pass of the block's copies fills kCopyRows rows (a thread: one chunk of one row).
  static constexpr int kCopyRows = kThreads / kChunks;
  static constexpr int kACopies = BM / kCopyRows, kBCopies = BN / kCopyRows;
  // C leaves through shared memory as bf16 rows of BN + 8 (16 bytes of padding per row).
  static constexpr int kOutLd = BN + 8;
  static constexpr std::size_t kOutBytes = std::size_t(2) * BM * kOutLd;
  static constexpr std::size_t kSmemBytes =
      std::max<std::size_t>(std::size_t(STAGES) * kStageBytes, kOutBytes);
  // Up to 4 warps a block, ask for two blocks per SM (at most 255 registers a thread either way).
  static constexpr int kMinBlocks = kThreads <= 128 ? 2 : 1;

  static_assert(BK == 32 || BK == 64, "rows of 64 or 128 bytes, the two swizzle modes used");
  static_assert(BM % WARPS_M == 0 && BN % WARPS_N == 0, "whole warp tiles");
  static_assert(WM % 16 == 0 && WN % 16 == 0, "m16 tiles; n8 tiles in pairs (one ldmatrix.x4)");
  static_assert(kThreads % kChunks == 0 && kCopyRows % 8 == 0,
                "a thread's copies sit whole groups of 8 rows apart: the swizzle repeats");
  static_assert(BM % kCopyRows == 0 && BN % kCopyRows == 0 && kBCopies <= 32,
                "every thread copies the same number of chunks, in whole passes");
  static_assert(BN % 64 == 0, "rows of staged C are BN / 2 + 4 words: 4 banks apart, no conflict");
  static_assert((BM * BN / 8) % kThreads == 0, "the 16-byte stores of C in whole passes");
  static_assert(STAGES >= 2 && kSmemBytes <= 227 * 1024, "2 stages or more, 227 KB per block");
};
//! [tile_config]

namespace {

// The grid is one-dimensional; blocks are handed out by columns of 8 tiles of C: consecutive
// blocks, which run at the same time, share the same few rows of A and columns of B, so more of
// what they read is still in L2.
__device__ __forceinline__ void block_tile(int block, int tiles_m, int tiles_n, int& tile_m,
                                           int& tile_n) {
  constexpr int kGroup = 8;
  const int per_group = kGroup * tiles_n, group = block / per_group;
  const int first = group * kGroup, rows = tiles_m - first < kGroup ? tiles_m - first : kGroup;
  const int in_group = block - group * per_group;
  tile_m = first + in_group % rows;
  tile_n = in_group / rows;
}

}  // namespace

//! [configs]
// The lesson's configurations: the one list of them, which the table (calls-yours/mma_sync_gemm.cu)
// and the build (the record's configs table: a file a line) both expand. One line a configuration:
// X(tag, ladder step or 0, its Tile<BM, BN, BK, WARPS_M, WARPS_N, STAGES, SWIZZLED>). The tag
// `quick` marks what the lesson's tests need on any GPU: the tiles mma_sync_gemm chooses from and
// the headline's plain twin. A save grades with those alone (make grade-10, make watch), and with
// every line once that passes on a GPU (and in make grade, make test). Four warps of 64 x 64 a
// block and two blocks an SM: while one block waits at its barrier, the other keeps the tensor
// cores busy (the sweep's 128 x 256 tiles, eight warps and one block, are slower).
#define LESSON10_CONFIGS(X)                                                                       \
  /* The ladder of the chapter, one change a step. */                                             \
  X(full, 1, Tile<128, 128, 32, 2, 2, 2, false>) /* mma.sync + ldmatrix, 2 stages, plain tiles */ \
  X(full, 2, Tile<128, 128, 32, 2, 2, 2, true>)  /* + swizzled tiles */                           \
  X(full, 3, Tile<128, 128, 32, 2, 2, 4, true>)  /* + 4 stages */                                 \
  X(quick, 4, Tile<128, 128, 64, 2, 2, 3, true>) /* + 64 k a stage (128-byte rows): Large */      \
  X(quick, 0, Tile<64, 128, 32, 2, 2, 4, true>)  /* Middle: grids too small for Large */          \
  X(quick, 0, Tile<64, 64, 32, 2, 2, 4, true>)   /* Small: grids too small for Middle */          \
  /* Other tiles, depths and layouts, for the sweep (make lesson-10 ARGS=--sweep). */             \
  X(quick, 0, Tile<128, 128, 64, 2, 2, 3, false>) /* LargePlain: Large without the swizzle */     \
  X(full, 0, Tile<128, 128, 32, 2, 2, 6, true>)                                                   \
  X(full, 0, Tile<128, 128, 64, 2, 2, 2, true>)                                                   \
  X(full, 0, Tile<128, 128, 32, 2, 4, 4, true>)                                                   \
  X(full, 0, Tile<128, 256, 32, 2, 4, 4, true>)                                                   \
  X(full, 0, Tile<128, 256, 64, 2, 4, 3, true>)                                                   \
  X(full, 0, Tile<256, 128, 64, 4, 2, 3, true>)                                                   \
  /* LargeShallow: Large's tile in half the shared memory (3 stages of 32 k, 48 KiB), two    */   \
  /* blocks on an SM that cannot hold two of Large's 96 KiB (164 KiB on 8.0, 100 KiB on 8.6, */   \
  /* 8.9 and 12.0). */                                                                            \
  X(quick, 0, Tile<128, 128, 32, 2, 2, 3, true>)
//! [configs]

}  // namespace lesson10
