// Lesson 10: the mma.sync GEMM's tile configurations and each lane's shared-memory offsets. Given
// code, included by calls-yours/mma_sync_kernel.cuh after your mma_sync_parts.cuh (the offsets call
// your fragment mappings, declared in mma_fragment.hpp) and by calls-yours/mma_sync_gemm.cu, the
// table of configurations (which names the tiles and calls none of the offsets).
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

//! [lane_offsets]
// Where thread tid's first cp.async of a stage goes, in bytes from the A tile's start (the same
// offset in the B tile): chunk tid % kChunks of row tid / kChunks. Its other copies are whole
// passes (kCopyRows rows, a multiple of 8) further, where the swizzle repeats: a constant apart.
template <class T>
COURSE_HD inline std::uint32_t copy_offset(int tid) {
  return tile_offset<T::kRowBytes, T::SWIZZLED>(tid / T::kChunks, tid % T::kChunks);
}

// ldmatrix.x4: lane L gives the address of row L % 8 of matrix L / 8, and matrix q becomes
// register q of every lane. Row r of the matrix that becomes register q is what lanes 4r ..
// 4r + 3 hold in register q, so it starts at the element that lane 4r holds first in it:
// element 2q of lane 4r. Your mapping says where that is.
template <class T>
COURSE_HD inline std::uint32_t a_ldmatrix_offset(int warp, int lane, int kk) {
  const FragmentCoord at = a_fragment_coord(4 * (lane & 7), 2 * (lane >> 3));  // (row, k)
  const int row = (warp / T::WARPS_N) * T::WM + at.row;
  return tile_offset<T::kRowBytes, T::SWIZZLED>(row, (16 * kk + at.col) / 8);
}

// For B one ldmatrix.x4 loads two n8 tiles: matrices 0 and 1 are registers 0 and 1 of the first
// (k 0 .. 7 and 8 .. 15), matrices 2 and 3 those of the next, 8 values of n further. B's tile is
// stored like A's, a row per n and k along the row, right after A's tile in the stage.
template <class T>
COURSE_HD inline std::uint32_t b_ldmatrix_offset(int warp, int lane, int kk) {
  const FragmentCoord at = b_fragment_coord(4 * (lane & 7), 2 * ((lane >> 3) & 1));  // (k, n)
  const int n = (warp % T::WARPS_N) * T::WN + at.col + 8 * (lane >> 4);
  return T::kAStageBytes + tile_offset<T::kRowBytes, T::SWIZZLED>(n, (16 * kk + at.row) / 8);
}
//! [lane_offsets]

// The grid is one-dimensional; blocks are handed out by columns of 8 tiles of C: consecutive
// blocks, which run at the same time, share the same few rows of A and columns of B, so more of
// what they read is still in L2.
__device__ __forceinline__ void block_tile(int block, int tiles_m, int tiles_n, int& tile_m,
                                           int& tile_n) {
  constexpr int kGroup = 8;
  const int per_group = kGroup * tiles_n, group = block / per_group;
  const int first = group * kGroup, rows = min(tiles_m - first, kGroup);
  const int in_group = block - group * per_group;
  tile_m = first + in_group % rows;
  tile_n = in_group / rows;
}

}  // namespace

}  // namespace lesson10
