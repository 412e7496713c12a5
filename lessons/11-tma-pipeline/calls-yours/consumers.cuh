// Lesson 11: the consumers of the ring (ring_gemm.cuh), its two kinds of math, and what the
// consumers of the wgmma kernels do with their accumulators: the hand-over of a split tile's sums
// (stream-K) and the epilogue that streams a tile to C through two small staging boxes per
// consumer.
//   - WgmmaConsumer (sm_90a): two consumer warpgroups, each multiplying its half of the tile with
//     asynchronous wgmmas that read A and B straight from the swizzled stages;
//   - MmaSyncConsumer (any GPU with TMA: sm_90, sm_100, sm_120): eight consumer warps, each
//     loading its fragments from the swizzled stages with ldmatrix and multiplying them with
//     mma.sync m16n8k16, as in lesson 10.
// Given code: the descriptors come from pipeline_exercises.cuh (yours).
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "pipeline_exercises.cuh"
#include "ring_storage.cuh"

#include "lessons/10-tensor-cores/ptx.cuh"  // ldmatrix_x4, mma_m16n8k16_bf16

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>

namespace lesson11 {

// ---- a consumer warpgroup's tile ----------------------------------------------------------------
/// The accumulators of a consumer warpgroup's 64 PARTS x N tile: PARTS m64nN wgmma results stacked
/// along M. 128 floats per thread in every kernel here (N = 256 and one part, or N = 128 and two).
template <int N, int PARTS>
struct TileAccum {
  ptx::WgmmaAccum<N> part[PARTS];
};

//! [mma_k_block]
/// The wgmmas of one k-block, committed as one group. `a`: the shared address of the warpgroup's
/// first row of A in the stage (its 64 PARTS rows follow); `b`: of B's first row. Each k-step of
/// 16 is 32 bytes further along every row; each part's A is 64 rows (8 KiB) further down.
template <int N, int PARTS>
__device__ inline void mma_k_block(TileAccum<N, PARTS>& acc, std::uint32_t a, std::uint32_t b) {
  ptx::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < 4; ++kk) {
#pragma unroll
    for (int h = 0; h < PARTS; ++h) {
      ptx::wgmma_m64k16<N>(acc.part[h], make_smem_descriptor(a + h * 64 * 128 + kk * 32),
                           make_smem_descriptor(b + kk * 32), 1);
    }
  }
  ptx::wgmma_commit();
}
//! [mma_k_block]

/// Releases a stage: lane 0 of each consumer warp arrives once on the stage's empty barrier of
/// every block of the cluster, since each block's producer wrote into this block's copy of it.
template <int CL>
__device__ inline void release_stage(std::uint64_t* empty, int lane, int rank) {
  if (lane != 0) return;
  if constexpr (CL == 1) {
    ptx::mbarrier_arrive(empty);
  } else {
    for (int r = 0; r < CL; ++r) {
      if (r == rank) {
        ptx::mbarrier_arrive(empty);
      } else {
        ptx::mbarrier_arrive_cluster(empty, r);
      }
    }
  }
}

// ---- the two consumers
// ---------------------------------------------------------------------------
//! [wgmma_consumer]
/// WARPGROUPS consumer warpgroups of wgmma, each owning BM / WARPGROUPS rows of the BM x BN tile as
/// one or two m64nBN results; a producer warpgroup that hands most of its registers to them
/// (setmaxnreg). Two warpgroups hold 128 accumulators a thread (128 x 256 or 256 x 128); three,
/// 80 (192 x 160: with the producer, 512 threads share the SM's 65536 registers, 128 each at
/// launch). The wgmmas of a k-block run asynchronously: the ring's k-loop gives a stage back once
/// the next k-block's are issued and its own have completed.
template <int BM, int BN, int WARPGROUPS = 2>
struct WgmmaConsumer {
  static constexpr int kBlockM = BM, kBlockN = BN;
  static constexpr int kProducerThreads = 128, kConsumerWarps = 4 * WARPGROUPS;
  static constexpr int kConsumerRows = BM / WARPGROUPS, kParts = kConsumerRows / 64;
  static constexpr bool kWgmma = true, kAsync = true;
  using Accum = TileAccum<BN, kParts>;
  static_assert(kConsumerRows % 64 == 0, "a warpgroup's rows are whole m64 results");
  static_assert(WARPGROUPS == 2 ? kParts * BN == 256 : WARPGROUPS == 3 && kParts * BN <= 160,
                "two warpgroups of 128 accumulators a thread, or three of at most 80");

  template <int kRegs>
  __device__ static void producer_starts() {
    ptx::setmaxnreg_dec<kRegs>();
  }
  template <int kRegs>
  __device__ static void consumer_starts() {
    ptx::setmaxnreg_inc<kRegs>();
  }
  __device__ static void zero(Accum& acc) {
#pragma unroll
    for (int h = 0; h < kParts; ++h) {
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) acc.part[h].d[i] = 0.0f;
    }
  }
  /// One k-block: consumer warp `cwarp` belongs to warpgroup cwarp / 4, whose rows start
  /// kConsumerRows rows (128 bytes each) into the stage's A tile.
  __device__ static void k_block(Accum& acc, std::uint32_t a, std::uint32_t b, int cwarp, int) {
    mma_k_block(acc, a + (cwarp / 4) * kConsumerRows * 128, b);
  }
  /// From registers, any M and N (the fallback when N % 8 != 0).
  __device__ static void store_registers(const Accum& acc, const GemmParams& p, int row0, int col0,
                                         int cwarp, int lane) {
    store_tile_registers(acc, p, row0 + (cwarp / 4) * kConsumerRows, col0, cwarp % 4, lane);
  }
};
//! [wgmma_consumer]

//! [mma_sync_consumer]
/// Eight consumer warps of mma.sync, 2 x 4 over the BM x BN tile: each owns a (BM / 2) x (BN / 4)
/// warp tile, as 16 x 8 results of m16n8k16 (64 x 32 and 64 accumulators per thread for 128 x 128);
/// one producer warp. The math is synchronous: once the warp's ldmatrix loads of a k-block are
/// done, the stage can go back.
///
/// The stages hold what TMA wrote with its 128-byte swizzle: the 16-byte chunk c of row r of a
/// tile (8 bf16 along K) lies at chunk c ^ (r % 8) of the row. ldmatrix takes one row address per
/// lane, so undoing the swizzle costs one XOR per address: each lane's rows have r % 8 == lane % 8
/// (the fragments start on multiples of 8 rows), a constant of the lane.
template <int BM, int BN>
struct MmaSyncConsumer {
  static constexpr int kBlockM = BM, kBlockN = BN;
  static constexpr int kProducerThreads = 32, kConsumerWarps = 8;
  static constexpr int kWarpM = BM / 2, kWarpN = BN / 4;             // a warp's tile
  static constexpr int kTilesM = kWarpM / 16, kTilesN = kWarpN / 8;  // its mma results
  static constexpr int kConsumerRows = kWarpM;  // (not used: only the wgmma epilogues ask)
  static constexpr bool kWgmma = false, kAsync = false;
  /// Result (i, j) of the warp, rows 16 i.., columns 8 j..: d[i].d[4 j .. 4 j + 3], the layout of
  /// a 16 x 8 C fragment (and of wgmma's accumulators, so the register epilogue is shared).
  using Accum = ptx::WgmmaAccum<kWarpN>[kTilesM];
  static_assert(kTilesN % 2 == 0, "B's fragments come two 8-column tiles per ldmatrix.x4");

  template <int kRegs>
  __device__ static void producer_starts() {}
  template <int kRegs>
  __device__ static void consumer_starts() {}
  __device__ static void zero(Accum& acc) {
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
      for (int k = 0; k < kWarpN / 2; ++k) acc[i].d[k] = 0.0f;
    }
  }
  //! [mma_sync_k_block]
  /// One k-block (64 along K: four k-steps of 16) of warp `cwarp`'s tile.
  __device__ static void k_block(Accum& acc, std::uint32_t a, std::uint32_t b, int cwarp,
                                 int lane) {
    const int warp_m = cwarp / 4, warp_n = cwarp % 4;
    // ldmatrix.x4 of A: lanes 0-15 give rows 0-15 of a 16-row fragment at k 0-7, lanes 16-31 the
    // same rows at k 8-15: registers a0..a3 of mma's A fragment.
    const std::uint32_t a_row = a + (warp_m * kWarpM + lane % 16) * 128;
    const int a_half = lane / 16;
    // ldmatrix.x4 of B (N x K, K-major): lanes 0-7 and 8-15 give columns 0-7 at k 0-7 and 8-15,
    // lanes 16-31 columns 8-15: b0, b1 of two 8-column tiles.
    const std::uint32_t b_row = b + (warp_n * kWarpN + lane % 8 + 8 * (lane / 16)) * 128;
    const int b_half = (lane / 8) % 2;
    const int swz = lane % 8;  // r % 8 of every row this lane addresses
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
      std::uint32_t fa[kTilesM][4], fb[kTilesN / 2][4];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        lesson10::ldmatrix_x4(fa[i], a_row + i * 16 * 128 + (((2 * kk + a_half) ^ swz) << 4));
      }
#pragma unroll
      for (int j = 0; j < kTilesN / 2; ++j) {
        lesson10::ldmatrix_x4(fb[j], b_row + j * 16 * 128 + (((2 * kk + b_half) ^ swz) << 4));
      }
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) {
          float d[4] = {acc[i].d[4 * j], acc[i].d[4 * j + 1], acc[i].d[4 * j + 2],
                        acc[i].d[4 * j + 3]};
          const std::uint32_t bj[2] = {fb[j / 2][2 * (j % 2)], fb[j / 2][2 * (j % 2) + 1]};
          lesson10::mma_m16n8k16_bf16(d, fa[i], bj);
#pragma unroll
          for (int k = 0; k < 4; ++k) acc[i].d[4 * j + k] = d[k];
        }
      }
    }
  }
  //! [mma_sync_k_block]
  /// From registers, any M and N: each 16-row strip as wgmma's warp 0 would store it.
  __device__ static void store_registers(const Accum& acc, const GemmParams& p, int row0, int col0,
                                         int cwarp, int lane) {
    const int r = row0 + (cwarp / 4) * kWarpM, c = col0 + (cwarp % 4) * kWarpN;
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) store_accumulators<kWarpN>(acc[i], p, r + 16 * i, c, 0, lane);
  }
};
//! [mma_sync_consumer]

// ---- the pieces of a split tile (stream-K) ------------------------------------------------------
/// The two consumer warpgroups' barrier (named barrier 1, their 256 threads). One barrier with a
/// constant id and no branch around it: the consumers multiply every k-block together anyway, and
/// a barrier chosen per consumer (a branch on the warpgroup) costs the K loop its uniform
/// registers: ptxas then computes the descriptors and the stage addresses per thread.
__device__ inline void consumers_sync() {
  ptx::named_barrier_sync<1>(256);
}

/// Where consumer thread `thread` (0..255: both warpgroups) of block `slot` keeps its partial
/// sums: vector v (accumulators 4v .. 4v + 3) of every thread lies together, so a warp stores or
/// loads 512 contiguous bytes at a time. The finisher's thread of the same index holds the same
/// elements of the tile in the same registers, so it reads them back in this order.
template <int N, int PARTS>
__device__ inline float4* partial_sums(const GemmParams& p, int slot, int thread) {
  constexpr int kVectors = PARTS * N / 8;  // 128 accumulators: 32 float4
  return reinterpret_cast<float4*>(p.partials) + static_cast<long>(slot) * kVectors * 256 + thread;
}

//! [hand_over]
/// A piece that does not start its tile: stores the consumers' sums, unscaled (only the finisher
/// applies alpha and beta), and raises the block's flag. The stores bypass L1 (st.global.cg):
/// another SM reads them. The barrier orders every consumer thread's stores before the release
/// by consumer thread 0.
template <int N, int PARTS>
__device__ inline void hand_over_sums(const TileAccum<N, PARTS>& acc, const GemmParams& p, int slot,
                                      int thread) {
  float4* out = partial_sums<N, PARTS>(p, slot, thread);
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
#pragma unroll
    for (int v = 0; v < N / 8; ++v) {
      const float* d = &acc.part[h].d[4 * v];
      __stcg(out + (h * N / 8 + v) * 256, make_float4(d[0], d[1], d[2], d[3]));
    }
  }
  consumers_sync();
  if (thread == 0) ptx::st_release_gpu(p.flags + slot, p.epoch);
}

/// The finisher of a split tile: waits for block `slot`'s flag (consumer thread 0, then the
/// barrier passes its acquire on to the others) and adds that block's sums to its own.
template <int N, int PARTS>
__device__ inline void add_sums_of(TileAccum<N, PARTS>& acc, const GemmParams& p, int slot,
                                   int thread) {
  if (thread == 0) ptx::wait_flag(p.flags + slot, p.epoch, p.limit, slot);
  consumers_sync();
  const float4* in = partial_sums<N, PARTS>(p, slot, thread);
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
#pragma unroll
    for (int v = 0; v < N / 8; ++v) {
      const float4 s = __ldcg(in + (h * N / 8 + v) * 256);
      float* d = &acc.part[h].d[4 * v];
      d[0] += s.x, d[1] += s.y, d[2] += s.z, d[3] += s.w;
    }
  }
}
//! [hand_over]

// ---- the epilogues ------------------------------------------------------------------------------
/// From registers, any M and N (the fallback when N % 8 != 0: C's tensor map needs a row stride
/// that is a multiple of 16 bytes).
template <int N, int PARTS>
__device__ inline void store_tile_registers(const TileAccum<N, PARTS>& acc, const GemmParams& p,
                                            int row0, int col0, int warp, int lane) {
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
    store_accumulators<N>(acc.part[h], p, row0 + 64 * h, col0, warp, lane);
  }
}

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
///  2. the warp writes the slice (st.shared or stmatrix: the same bytes);
///  3. every lane fences its writes against the async proxy, which the TMA store belongs to;
///  4. lane 0 stores the slice (clipped at C's edges) and commits it as one bulk group.
/// C's tensor map has boxes of 16 rows x SLICE columns (64, or 32 for a tile 160 wide).
template <bool kStmatrix, int SLICE, bool kReadC, int N, int PARTS>
__device__ void store_tile_streamed_impl(const TileAccum<N, PARTS>& acc, const GemmParams& p,
                                         const CUtensorMap* map_c, StagingBox* boxes, int row0,
                                         int col0, int warp, int lane, SliceRound& round) {
  static_assert(N % SLICE == 0 && (SLICE == 64 || (SLICE == 32 && kStmatrix)),
                "slices of 64 columns, or of 32 written with stmatrix");
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
      if constexpr (kStmatrix) {
        stage_slice_stmatrix<N, kReadC, SLICE>(acc.part[h], j, p, slice, row, col, lane);
      } else {
        stage_slice_st_shared<N, kReadC>(acc.part[h], j, p, slice, row, col, lane);
      }
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

template <bool kStmatrix, int SLICE, int N, int PARTS>
__device__ inline void store_tile_streamed(const TileAccum<N, PARTS>& acc, const GemmParams& p,
                                           const CUtensorMap* map_c, StagingBox* boxes, int row0,
                                           int col0, int warp, int lane, SliceRound& round) {
  if (p.beta == 0.0f) {
    store_tile_streamed_impl<kStmatrix, SLICE, false>(acc, p, map_c, boxes, row0, col0, warp, lane,
                                                      round);
  } else {
    store_tile_streamed_impl<kStmatrix, SLICE, true>(acc, p, map_c, boxes, row0, col0, warp, lane,
                                                     round);
  }
}

}  // namespace lesson11
