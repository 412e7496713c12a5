// Lesson 11: the epilogues, what the consumers do with their accumulators once a tile's K loop is
// done, as three policy types of the ring (ring_gemm.cuh):
//   - RegistersEpilogue: straight from registers to C, any M and N (rungs 3, 4 and 7, and every
//     rung's fallback when N % 8 != 0);
//   - StagedTileEpilogue: the whole tile through shared memory, then TMA stores (rung 5);
//   - StreamedEpilogue: per warp, 16-row slices through two small staging boxes per consumer
//     warpgroup, each stored by TMA as soon as it is written (rung 6, the headline).
// Each owns its shared memory (Staging), its state across tiles (State) and the box of C's tensor
// map its TMA stores write. Given code, shared by the kernels.
#pragma once

#include "hopper_ptx.cuh"
#include "ring_storage.cuh"  // StagingBox
#include "staging_layout.hpp"

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>

namespace lesson11 {

/// The accumulators of a consumer warpgroup's 64 PARTS x N tile: PARTS m64nN wgmma results stacked
/// along M. 128 floats per thread in every kernel here (N = 256 and one part, or N = 128 and two).
template <int N, int PARTS>
struct TileAccum {
  ptx::WgmmaAccum<N> part[PARTS];
};

/// The problem a kernel solves, besides its tensor maps: C = alpha * A * B^T + beta * C.
struct Problem {
  int M = 0, N = 0, K = 0;
  float alpha = 1, beta = 0;
  __nv_bfloat16* C = nullptr;  ///< M x N row-major; read only when beta != 0
};

//! [accum_layout]
// Where accumulator i of a thread of a warpgroup's m64nN wgmma sits in the 64 x N result (PTX ISA,
// "wgmma D matrix fragment"): warp w owns rows 16w..16w+15; each group of 8 columns is laid out
// like mma.sync's 16 x 8 C fragment: lane l holds rows l/4 and l/4 + 8, columns 2(l%4) and +1.
__device__ inline int accum_row(int i, int warp, int lane) {
  return 16 * warp + lane / 4 + ((i & 2) ? 8 : 0);
}
__device__ inline int accum_col(int i, int lane) {
  return 8 * (i / 4) + 2 * (lane % 4) + (i & 1);
}
//! [accum_layout]

// alpha * acc + beta * C(row, col), C read only when beta != 0 and the element exists.
__device__ inline float scaled(float acc, const Problem& p, int row, int col) {
  float v = p.alpha * acc;
  if (p.beta != 0.0f && row < p.M && col < p.N) {
    v += p.beta * __bfloat162float(p.C[static_cast<long>(row) * p.N + col]);
  }
  return v;
}

/// Straight from registers to global memory: each thread stores its pairs of adjacent columns
/// (4 bytes) where they exist. Any M and N. C is read only when beta != 0 (kReadC).
template <int N, bool kReadC>
__device__ void store_accumulators_impl(const ptx::WgmmaAccum<N>& acc, const Problem& p, int row0,
                                        int col0, int warp, int lane) {
  // A pair can be stored as one bf16x2 when N is even: then every (row, even col) is 4-byte
  // aligned.
  const bool pairs = (p.N % 2) == 0;
#pragma unroll
  for (int i = 0; i < N / 2; i += 2) {
    const int row = row0 + accum_row(i, warp, lane), col = col0 + accum_col(i, lane);
    if (row >= p.M || col >= p.N) continue;
    float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
    if constexpr (kReadC) {
      v0 = scaled(acc.d[i], p, row, col);
      v1 = scaled(acc.d[i + 1], p, row, col + 1);
    }
    __nv_bfloat16* out = p.C + static_cast<long>(row) * p.N + col;
    if (pairs) {
      *reinterpret_cast<__nv_bfloat162*>(out) = __floats2bfloat162_rn(v0, v1);
    } else {
      out[0] = __float2bfloat16(v0);
      if (col + 1 < p.N) out[1] = __float2bfloat16(v1);
    }
  }
}

template <int N>
__device__ void store_accumulators(const ptx::WgmmaAccum<N>& acc, const Problem& p, int row0,
                                   int col0, int warp, int lane) {
  if (p.beta == 0.0f) {
    store_accumulators_impl<N, false>(acc, p, row0, col0, warp, lane);
  } else {
    store_accumulators_impl<N, true>(acc, p, row0, col0, warp, lane);
  }
}

/// Into a shared-memory staging tile laid out as TMA's 128-byte swizzle expects: 64 x N as N / 64
/// boxes of 64 rows x 128 bytes, each box's 16-byte chunk c of row r stored at chunk c ^ (r % 8).
/// The XOR also makes the stores conflict-free: the 8 rows a warp writes at once land in 8
/// different chunks, all 32 banks.
template <int N, bool kReadC>
__device__ void stage_accumulators_impl(const ptx::WgmmaAccum<N>& acc, const Problem& p,
                                        unsigned char* staging, int row0, int col0, int warp,
                                        int lane) {
  // Row r = 16 warp + lane / 4 (+ 8) and column 8 j + 2 (lane % 4): the chunk of a pair is
  // j % 8, XORed with r % 8 = (lane / 4) % 8, and the pair's byte in its chunk is 4 (lane % 4).
  // 32-bit shared addresses (st.shared) rather than generic pointers: 8 base registers, one per
  // XOR pattern, and every other part of an offset an immediate.
  //! [stage_store]
  const std::uint32_t base =
      ptx::smem_addr(staging) + (16 * warp + lane / 4) * 128 + 4 * (lane % 4);
  const int row_xor = (lane / 4) & 7;
#pragma unroll
  for (int i = 0; i < N / 2; i += 2) {
    const int j = i / 4, half = (i & 2) ? 8 : 0;
    float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
    if constexpr (kReadC) {
      const int row = row0 + accum_row(i, warp, lane), col = col0 + accum_col(i, lane);
      v0 = scaled(acc.d[i], p, row, col);
      v1 = scaled(acc.d[i + 1], p, row, col + 1);
    }
    const std::uint32_t offset = (j / 8) * 64 * 128 + half * 128 + (((j % 8) ^ row_xor) << 4);
    __nv_bfloat162 pair = __floats2bfloat162_rn(v0, v1);
    ptx::st_shared_b32(base + offset, *reinterpret_cast<std::uint32_t*>(&pair));
  }
  //! [stage_store]
}

template <int N>
__device__ void stage_accumulators(const ptx::WgmmaAccum<N>& acc, const Problem& p,
                                   unsigned char* staging, int row0, int col0, int warp, int lane) {
  if (p.beta == 0.0f) {
    stage_accumulators_impl<N, false>(acc, p, staging, row0, col0, warp, lane);
  } else {
    stage_accumulators_impl<N, true>(acc, p, staging, row0, col0, warp, lane);
  }
}

// ---- the streamed epilogue: one warp, one 16 x 64 slice at a time -------------------------------
// A warp owns rows 16 warp .. 16 warp + 15 of its warpgroup's m64nN result. These write the part of
// them in columns 64 j .. 64 j + 63 (accumulators d[32 j] to d[32 j + 31]: 8-column groups 8 j to
// 8 j + 7), scaled and rounded to bf16, into the 2 KB at shared address `slice`, a 1024-byte
// aligned 16-row piece of a staging box, swizzled as staging_offset says: byte for byte the rows
// 16 warp.. of stage_accumulators's box j. (row0, col0) is the slice's first element in C, for
// reading C when beta != 0. A tile whose width is not a multiple of 64 (160) goes out in slices
// of SLICE = 32 columns: columns 32 j .. 32 j + 31, accumulators d[16 j] on, in the first half of
// each 128-byte row of the same 2 KB (TMA's 128-byte swizzle gives a narrower box's rows 128 bytes
// each all the same).

// Value i of the accumulators, and its neighbour, as a bf16 pair: alpha * acc (+ beta * C).
template <int N, bool kReadC>
__device__ inline std::uint32_t scaled_pair(const ptx::WgmmaAccum<N>& acc, int i, const Problem& p,
                                            int row, int col) {
  float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
  if constexpr (kReadC) {
    v0 = scaled(acc.d[i], p, row, col);
    v1 = scaled(acc.d[i + 1], p, row, col + 1);
  }
  __nv_bfloat162 pair = __floats2bfloat162_rn(v0, v1);
  return *reinterpret_cast<std::uint32_t*>(&pair);
}

//! [stage_slice_stmatrix]
// With stmatrix: 4 instructions per thread, each 16 columns by 16 rows. Its four matrices are the
// four 8 x 8 blocks of accumulators d[i] .. d[i + 7], in register order: a wgmma fragment is
// already what stmatrix wants; only the addresses follow the swizzle.
template <int N, bool kReadC, int SLICE = 64>
__device__ void stage_slice_stmatrix(const ptx::WgmmaAccum<N>& acc, int j, const Problem& p,
                                     std::uint32_t slice, int row0, int col0, int lane) {
  const int row = lane / 4, col = 2 * (lane % 4);  // this thread's first value, as above
#pragma unroll
  for (int pair = 0; pair < SLICE / 16; ++pair) {
    const int i = SLICE / 2 * j + 8 * pair;
    std::uint32_t r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {  // matrix k: rows + 8 (k % 2), columns + 8 (k / 2)
      r[k] = scaled_pair<N, kReadC>(acc, i + 2 * k, p, row0 + row + 8 * (k % 2),
                                    col0 + 16 * pair + 8 * (k / 2) + col);
    }
    ptx::stmatrix_x4(slice + staging_offset(stmatrix_row(lane), stmatrix_col(lane, pair)), r[0],
                     r[1], r[2], r[3]);
  }
}
//! [stage_slice_stmatrix]

/// The streamed epilogue's writer of a slice: stmatrix, 64 or 32 columns wide.
struct StmatrixSlices {
  template <int N, bool kReadC, int SLICE>
  __device__ static void write(const ptx::WgmmaAccum<N>& acc, int j, const Problem& p,
                               std::uint32_t slice, int row0, int col0, int lane) {
    stage_slice_stmatrix<N, kReadC, SLICE>(acc, j, p, slice, row0, col0, lane);
  }
};

// ---- the staged tile (rung 5) -------------------------------------------------------------------
/// The two consumer warpgroups' barrier (named barrier 1, their 256 threads). One barrier with a
/// constant id and no branch around it: the consumers multiply every k-block together anyway, and
/// a barrier chosen per consumer (a branch on the warpgroup) costs the K loop its uniform
/// registers: ptxas then computes the descriptors and the stage addresses per thread.
__device__ inline void consumers_sync() {
  ptx::named_barrier_sync<1>(256);
}

//! [staged_tile]
/// The staged-tile epilogue (rung 5): each consumer warpgroup writes its 64 x BN half of the tile
/// into staging boxes laid out as TMA's 128-byte swizzle expects, then its thread 0 stores them
/// with TMA, which clips at C's edges. `my_boxes`: the warpgroup's BN / 64 boxes; `warp`, `lane`:
/// the thread's place in its warpgroup.
template <int BN>
__device__ inline void store_tile_staged(StagingBox* my_boxes, const ptx::WgmmaAccum<BN>& acc,
                                         const Problem& p, const CUtensorMap* map_c, int row0,
                                         int col0, int warp, int lane) {
  const bool issuer = warp == 0 && lane == 0;
  // The previous tile's TMA stores must have read the staging tile before it is rewritten.
  if (issuer) ptx::tma_store_wait_read();
  consumers_sync();
  stage_accumulators<BN>(acc, p, reinterpret_cast<unsigned char*>(my_boxes), row0, col0, warp,
                         lane);
  // Ordinary stores, then the copy engine reads them: the proxies must be ordered.
  ptx::fence_proxy_async_smem();
  consumers_sync();
  if (issuer && row0 < p.M) {  // boxes wholly outside C: nothing to store
    for (int box = 0; box < BN / 64; ++box) {
      ptx::tma_store_2d(map_c, my_boxes[box].v, col0 + box * 64, row0);
    }
    ptx::tma_store_commit();
  }
}
//! [staged_tile]

// ---- the streamed slices (rung 6) ---------------------------------------------------------------
/// Where a warp is in the round of its staging slices: how many it has written (the parity picks
/// the buffer) and whether it stored the last one (a slice wholly outside C is not stored).
struct SliceRound {
  int written = 0;
  bool last_stored = false;
};

//! [streamed_epilogue]
/// Through shared memory and TMA stores, one 16 x 64 slice per warp at a time. Each consumer has
/// two staging boxes; warp w writes rows 16 w .. 16 w + 15 of them, so the four warps never wait
/// for each other: a warp writes a slice into one box while the TMA store of its previous slice
/// still reads the other. Per slice:
///  1. lane 0 waits until the store that last read this box (two slices ago) is done reading it:
///     at most one group, the previous slice's, may still be pending;
///  2. the warp writes the slice (Writer: stmatrix);
///  3. every lane fences its writes against the async proxy, which the TMA store belongs to;
///  4. lane 0 stores the slice (clipped at C's edges) and commits it as one bulk group.
/// C's tensor map has boxes of 16 rows x SLICE columns (64, or 32 for a tile 160 wide).
template <class Writer, int SLICE, bool kReadC, int N, int PARTS>
__device__ void store_tile_streamed_impl(const TileAccum<N, PARTS>& acc, const Problem& p,
                                         const CUtensorMap* map_c, StagingBox* boxes, int row0,
                                         int col0, int warp, int lane, SliceRound& round) {
  static_assert(N % SLICE == 0, "whole slices");
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
#pragma unroll
    for (int j = 0; j < N / SLICE; ++j) {
      unsigned char* slice_ptr =
          reinterpret_cast<unsigned char*>(&boxes[round.written & 1]) + warp * 16 * 128;
      const std::uint32_t slice = ptx::smem_addr(slice_ptr);
      const int row = row0 + 64 * h + 16 * warp, col = col0 + SLICE * j;
      if (lane == 0) {
        if (round.last_stored) {
          ptx::tma_store_wait_read_pending<1>();
        } else {
          ptx::tma_store_wait_read_pending<0>();
        }
      }
      __syncwarp();
      Writer::template write<N, kReadC, SLICE>(acc.part[h], j, p, slice, row, col, lane);
      ptx::fence_proxy_async_smem();
      __syncwarp();
      const bool inside = row < p.M && col < p.N;
      if (lane == 0 && inside) {
        ptx::tma_store_2d(map_c, slice_ptr, col, row);
        ptx::tma_store_commit();
      }
      round.last_stored = inside;
      ++round.written;
    }
  }
}
//! [streamed_epilogue]

template <class Writer, int SLICE, int N, int PARTS>
__device__ inline void store_tile_streamed(const TileAccum<N, PARTS>& acc, const Problem& p,
                                           const CUtensorMap* map_c, StagingBox* boxes, int row0,
                                           int col0, int warp, int lane, SliceRound& round) {
  if (p.beta == 0.0f) {
    store_tile_streamed_impl<Writer, SLICE, false>(acc, p, map_c, boxes, row0, col0, warp, lane,
                                                   round);
  } else {
    store_tile_streamed_impl<Writer, SLICE, true>(acc, p, map_c, boxes, row0, col0, warp, lane,
                                                  round);
  }
}

// ---- the three policies -------------------------------------------------------------------------
//! [epilogues]
/// From registers, any M and N: each of the consumer's fragments (a 16-row strip per warp, laid out
/// as wgmma's accumulators) with store_accumulators. No shared memory, no TMA store: C's tensor map
/// is never read, so N need not make its rows a multiple of 16 bytes.
struct RegistersEpilogue {
  static constexpr bool kTmaStore = false;
  static constexpr int kStoreRows = 0;
  template <int BN>
  static constexpr int store_cols() {
    return 0;
  }
  template <class Consumer>
  using Staging = StagingBoxes<0>;
  struct State {};

  template <class Consumer, class Staging>
  __device__ static void store(Staging&, State&, const typename Consumer::Accum& acc,
                               const Problem& p, const CUtensorMap*, int row0, int col0, int cwarp,
                               int lane) {
#pragma unroll
    for (int i = 0; i < Consumer::kFragments; ++i) {
      store_accumulators<Consumer::kFragmentN>(
          Consumer::fragment(acc, i), p, row0 + Consumer::fragment_row(i, cwarp),
          col0 + Consumer::fragment_col(cwarp), Consumer::fragment_warp(cwarp), lane);
    }
  }
  __device__ static void finish(int) {}
};

/// The whole tile through a staging tile of 64 x 64 boxes (BM x BN x 2 bytes: 64 KiB for 128 x 256)
/// and TMA stores, one consumer warpgroup's 64 rows at a time (store_tile_staged). Its two
/// warpgroups meet at consumers_sync(): written for two warpgroups of one m64 result each.
struct StagedTileEpilogue {
  static constexpr bool kTmaStore = true;
  static constexpr int kStoreRows = 64;
  template <int BN>
  static constexpr int store_cols() {
    return 64;
  }
  template <class Consumer>
  using Staging = StagingBoxes<Consumer::kBlockM * Consumer::kBlockN / 4096>;
  struct State {};

  template <class Consumer, class Staging>
  __device__ static void store(Staging& staging, State&, const typename Consumer::Accum& acc,
                               const Problem& p, const CUtensorMap* map_c, int row0, int col0,
                               int cwarp, int lane) {
    constexpr int BN = Consumer::kBlockN;
    static_assert(Consumer::kWgmma && Consumer::kConsumerWarps == 8 && Consumer::kParts == 1,
                  "the staged tile is written for two wgmma warpgroups of one m64 result each");
    static_assert(BN % 64 == 0, "the staged tile goes out in boxes of 64 columns");
    const int consumer = cwarp / 4, warp = cwarp % 4;
    store_tile_staged<BN>(&staging.box[consumer * (BN / 64)], acc.part[0], p, map_c,
                          row0 + Consumer::first_row(consumer), col0, warp, lane);
  }
  /// A block must not exit with its TMA stores still writing.
  __device__ static void finish(int lane) {
    if (lane == 0) ptx::tma_store_wait_all();
  }
};

/// Per warp, through two staging boxes per consumer warpgroup and TMA stores of 16-row slices, 64
/// columns wide, or 32 for a tile whose width is not a multiple of 64 (160): the ring keeps the
/// room of a stage. `Writer`: how a warp writes a slice into its staging box.
template <class Writer = StmatrixSlices>
struct StreamedEpilogue {
  static constexpr bool kTmaStore = true;
  static constexpr int kStoreRows = 16;
  template <int BN>
  static constexpr int store_cols() {
    return BN % 64 == 0 ? 64 : 32;
  }
  template <class Consumer>
  using Staging = StagingBoxes<2 * Consumer::kConsumerWarps / 4>;
  using State = SliceRound;

  template <class Consumer, class Staging>
  __device__ static void store(Staging& staging, State& round, const typename Consumer::Accum& acc,
                               const Problem& p, const CUtensorMap* map_c, int row0, int col0,
                               int cwarp, int lane) {
    static_assert(Consumer::kWgmma, "the streamed epilogue reads wgmma's accumulator layout");
    const int consumer = cwarp / 4, warp = cwarp % 4;
    store_tile_streamed<Writer, store_cols<Consumer::kBlockN>()>(
        acc, p, map_c, &staging.box[2 * consumer], row0 + Consumer::first_row(consumer), col0, warp,
        lane, round);
  }
  /// A block must not exit with its TMA stores still writing.
  __device__ static void finish(int lane) {
    if (lane == 0) ptx::tma_store_wait_all();
  }
};
//! [epilogues]

}  // namespace lesson11
