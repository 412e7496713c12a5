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
#include <type_traits>

namespace lesson11 {

/// The accumulators of a consumer warpgroup's 64 PARTS x N tile: PARTS m64nN wgmma results stacked
/// along M. 128 floats per thread in every kernel here (N = 256 and one part, or N = 128 and two).
template <int N, int PARTS>
struct TileAccum {
  ptx::WgmmaAccum<N> part[PARTS];
  __device__ void zero() {
#pragma unroll
    for (int h = 0; h < PARTS; ++h) {
#pragma unroll
      for (int i = 0; i < N / 2; ++i) part[h].d[i] = 0.0f;
    }
  }
};

/// Where fragment i of a consumer warp's results (a 16-row strip of wgmma's accumulator layout)
/// lies: its first row and column in the tile, and the warp of an m64 wgmma result whose rows the
/// layout gives it (accum_row).
struct Fragment {
  int row, col, warp;
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

// Accumulators i and i + 1, C(row, col) and C(row, col + 1), as a bf16 pair: alpha * acc, plus
// beta * C when kReadC.
template <bool kReadC, int N>
__device__ inline __nv_bfloat162 scaled_pair(const ptx::WgmmaAccum<N>& acc, int i, const Problem& p,
                                             int row, int col) {
  float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
  if constexpr (kReadC) {
    v0 = scaled(acc.d[i], p, row, col);
    v1 = scaled(acc.d[i + 1], p, row, col + 1);
  }
  return __floats2bfloat162_rn(v0, v1);
}

// Runs `store(std::bool_constant<kReadC>)` with kReadC = (beta != 0): each epilogue is compiled
// twice, and the one for beta = 0 never reads C.
template <class Store>
__device__ inline void by_beta(const Problem& p, Store store) {
  if (p.beta == 0.0f) {
    store(std::false_type{});
  } else {
    store(std::true_type{});
  }
}

/// Straight from registers to global memory: each thread stores its pairs of adjacent columns
/// (4 bytes) where they exist. Any M and N. C is read only when beta != 0 (kReadC).
template <int N>
__device__ void store_accumulators(const ptx::WgmmaAccum<N>& acc, const Problem& p, int row0,
                                   int col0, int warp, int lane) {
  // A pair can be stored as one bf16x2 when N is even: then every (row, even col) is 4-byte
  // aligned.
  const bool pairs = (p.N % 2) == 0;
  by_beta(p, [&](auto read_c) {
#pragma unroll
    for (int i = 0; i < N / 2; i += 2) {
      const int row = row0 + accum_row(i, warp, lane), col = col0 + accum_col(i, lane);
      if (row >= p.M || col >= p.N) continue;
      float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
      if constexpr (decltype(read_c)::value) {
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
  });
}

/// Into a shared-memory staging tile laid out as TMA's 128-byte swizzle expects: 64 x N as N / 64
/// boxes of 64 rows x 128 bytes, each box's 16-byte chunk c of row r stored at chunk c ^ (r % 8).
/// The XOR also makes the stores conflict-free: the 8 rows a warp writes at once land in 8
/// different chunks, all 32 banks.
template <bool kReadC, int N>
__device__ void stage_accumulators(const ptx::WgmmaAccum<N>& acc, const Problem& p,
                                   unsigned char* staging, int row0, int col0, int warp, int lane) {
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
    __nv_bfloat162 pair =
        scaled_pair<kReadC>(acc, i, p, row0 + accum_row(i, warp, lane), col0 + accum_col(i, lane));
    const std::uint32_t offset = (j / 8) * 64 * 128 + half * 128 + (((j % 8) ^ row_xor) << 4);
    ptx::st_shared_b32(base + offset, *reinterpret_cast<std::uint32_t*>(&pair));
  }
  //! [stage_store]
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

//! [stage_slice_stmatrix]
/// The streamed epilogue's writer of a slice, with stmatrix: 4 instructions per thread, each 16
/// columns by 16 rows. Its four matrices are the four 8 x 8 blocks of accumulators d[i] .. d[i +
/// 7], in register order: a wgmma fragment is already what stmatrix wants; only the addresses
/// follow the swizzle.
struct StmatrixSlices {
  template <int N, bool kReadC, int SLICE>
  __device__ static void write(const ptx::WgmmaAccum<N>& acc, int j, const Problem& p,
                               std::uint32_t slice, int row0, int col0, int lane) {
    const int row = lane / 4, col = 2 * (lane % 4);  // this thread's first value, as above
#pragma unroll
    for (int pair = 0; pair < SLICE / 16; ++pair) {
      const int i = SLICE / 2 * j + 8 * pair;
      __nv_bfloat162 r[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {  // matrix k: rows + 8 (k % 2), columns + 8 (k / 2)
        r[k] = scaled_pair<kReadC>(acc, i + 2 * k, p, row0 + row + 8 * (k % 2),
                                   col0 + 16 * pair + 8 * (k / 2) + col);
      }
      const auto* u = reinterpret_cast<const std::uint32_t*>(r);
      ptx::stmatrix_x4(slice + staging_offset(stmatrix_row(lane), stmatrix_col(lane, pair)), u[0],
                       u[1], u[2], u[3]);
    }
  }
};
//! [stage_slice_stmatrix]

// ---- the three policies -------------------------------------------------------------------------
/// The two consumer warpgroups' barrier (named barrier 1, their 256 threads). One barrier with a
/// constant id and no branch around it: the consumers multiply every k-block together anyway, and
/// a barrier chosen per consumer (a branch on the warpgroup) costs the K loop its uniform
/// registers: ptxas then computes the descriptors and the stage addresses per thread.
__device__ inline void consumers_sync() {
  ptx::named_barrier_sync<1>(256);
}

//! [epilogues]
/// From registers, any M and N: each of the consumer's fragments (a 16-row strip per warp, laid out
/// as wgmma's accumulators) with store_accumulators. No shared memory, no TMA store: C's tensor map
/// is never read, so N need not make its rows a multiple of 16 bytes.
struct RegistersEpilogue {
  static constexpr bool kTmaStore = false;
  template <class Consumer>
  using Staging = StagingBoxes<0>;
  struct State {};

  template <class Consumer, class Staging>
  __device__ static void store(Staging&, State&, const typename Consumer::Accum& acc,
                               const Problem& p, const CUtensorMap*, int row0, int col0, int cwarp,
                               int lane) {
#pragma unroll
    for (int i = 0; i < Consumer::kFragments; ++i) {
      const Fragment f = Consumer::fragment(i, cwarp);
      store_accumulators(acc.part[i], p, row0 + f.row, col0 + f.col, f.warp, lane);
    }
  }
  __device__ static void finish(int) {}
};
//! [epilogues]

//! [staged_tile]
/// The whole tile through shared memory (rung 5): each consumer warpgroup writes its 64 x BN half
/// of the tile into its BN / 64 staging boxes, laid out as TMA's 128-byte swizzle expects (64 KiB
/// for 128 x 256), then its thread 0 stores them with TMA, which clips at C's edges. Its two
/// warpgroups meet at consumers_sync(): written for two warpgroups of one m64 result each.
struct StagedTileEpilogue {
  static constexpr bool kTmaStore = true;
  static constexpr int kStoreRows = 64;
  template <int BN>
  static constexpr int kStoreCols = 64;
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
    StagingBox* my_boxes = &staging.box[consumer * (BN / 64)];
    row0 += Consumer::first_row(consumer);
    const bool issuer = warp == 0 && lane == 0;
    // The previous tile's TMA stores must have read the staging tile before it is rewritten.
    if (issuer) ptx::tma_store_wait_read<0>();
    consumers_sync();
    by_beta(p, [&](auto read_c) {
      stage_accumulators<decltype(read_c)::value>(
          acc.part[0], p, reinterpret_cast<unsigned char*>(my_boxes), row0, col0, warp, lane);
    });
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
  /// A block must not exit with its TMA stores still writing.
  __device__ static void finish(int lane) {
    if (lane == 0) ptx::tma_store_wait_all();
  }
};
//! [staged_tile]

//! [streamed_epilogue]
/// The headline's epilogue (rung 6), per warp: 16-row slices, 64 columns wide (32 for a tile whose
/// width is not a multiple of 64: 160), through two staging boxes per consumer warpgroup and TMA
/// stores; the ring keeps the room of a stage. Warp w writes rows 16 w .. 16 w + 15 of its boxes,
/// so the four warps never wait for each other: a warp writes a slice into one box while the TMA
/// store of its previous slice still reads the other. Per slice:
///  1. lane 0 waits until the store that last read this box (two slices ago) is done reading it:
///     at most one group, the previous slice's, may still be pending;
///  2. the warp writes the slice (Writer: stmatrix);
///  3. every lane fences its writes against the async proxy, which the TMA store belongs to;
///  4. lane 0 stores the slice (clipped at C's edges) and commits it as one bulk group.
/// State: how many slices the warp has written (the parity picks the box) and whether it stored
/// the last one (a slice wholly outside C is not stored).
template <class Writer = StmatrixSlices>
struct StreamedEpilogue {
  static constexpr bool kTmaStore = true;
  static constexpr int kStoreRows = 16;
  template <int BN>
  static constexpr int kStoreCols = BN % 64 == 0 ? 64 : 32;
  template <class Consumer>
  using Staging = StagingBoxes<2 * Consumer::kConsumerWarps / 4>;
  struct State {
    int written = 0;
    bool last_stored = false;
  };

  template <class Consumer, class Staging>
  __device__ static void store(Staging& staging, State& round, const typename Consumer::Accum& acc,
                               const Problem& p, const CUtensorMap* map_c, int row0, int col0,
                               int cwarp, int lane) {
    static_assert(Consumer::kWgmma, "the streamed epilogue reads wgmma's accumulator layout");
    constexpr int N = Consumer::kBlockN, SLICE = kStoreCols<N>;
    const int consumer = cwarp / 4, warp = cwarp % 4;
    StagingBox* boxes = &staging.box[2 * consumer];
    row0 += Consumer::first_row(consumer);
    by_beta(p, [&](auto read_c) {
#pragma unroll
      for (int h = 0; h < Consumer::kParts; ++h) {
#pragma unroll
        for (int j = 0; j < N / SLICE; ++j) {
          unsigned char* slice_ptr =
              reinterpret_cast<unsigned char*>(&boxes[round.written & 1]) + warp * 16 * 128;
          const std::uint32_t slice = ptx::smem_addr(slice_ptr);
          const int row = row0 + 64 * h + 16 * warp, col = col0 + SLICE * j;
          if (lane == 0) {
            round.last_stored ? ptx::tma_store_wait_read<1>() : ptx::tma_store_wait_read<0>();
          }
          __syncwarp();
          Writer::template write<N, decltype(read_c)::value, SLICE>(acc.part[h], j, p, slice, row,
                                                                    col, lane);
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
    });
  }
  /// A block must not exit with its TMA stores still writing.
  __device__ static void finish(int lane) {
    if (lane == 0) ptx::tma_store_wait_all();
  }
};
//! [streamed_epilogue]

}  // namespace lesson11
