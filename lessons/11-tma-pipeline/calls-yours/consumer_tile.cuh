// Lesson 11: what the persistent kernels with a streamed epilogue (cooperative_gemm.cuh and
// pingpong_gemm.cuh) have in common: a consumer warpgroup's accumulators and its wgmmas on one
// k-block; the release of a stage; and the epilogue that streams a tile to C through two small
// staging boxes per consumer. Their shared memory is a RingStorage (ring_storage.cuh). Given code.
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "pipeline_exercises.cuh"
#include "ring_storage.cuh"

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

//! [consume_tile]
/// A consumer warpgroup's K loop over one tile: k-blocks `it` .. `it` + k_blocks - 1 of the ring
/// (`it` advances), `a_offset` bytes into each A stage. Each k-block's stage is released as soon as
/// the next k-block's wgmmas are issued and its own have completed. `after_issue` runs once the
/// last k-block's wgmmas are issued, before they complete (the ping-pong kernel passes its turn
/// there).
template <int CL, ptx::Wait WAIT, class Storage, int N, int PARTS, class AfterIssue>
__device__ inline void consume_tile(Storage& st, TileAccum<N, PARTS>& acc, int& it, int k_blocks,
                                    std::uint32_t a_offset, int stages, int lane, int rank,
                                    const ptx::WaitLimit& limit, AfterIssue after_issue) {
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
#pragma unroll
    for (int i = 0; i < N / 2; ++i) acc.part[h].d[i] = 0.0f;
  }
  int previous_stage = -1;
  for (int kb = 0; kb < k_blocks; ++kb, ++it) {
    const RingSlot slot = consumer_slot(it, stages);
    ptx::mbarrier_wait<WAIT>(&st.full[slot.stage], slot.parity, limit, ptx::Waiter::kFull,
                             slot.stage);
    mma_k_block(acc, ptx::smem_addr(st.a[slot.stage]) + a_offset, ptx::smem_addr(st.b[slot.stage]));
    // This k-block's wgmmas keep running; the previous k-block's have completed, so its stage
    // goes back to the producer.
    ptx::wgmma_wait<1>();
    if (previous_stage >= 0) release_stage<CL>(&st.empty[previous_stage], lane, rank);
    previous_stage = slot.stage;
  }
  after_issue();
  ptx::wgmma_wait<0>();
  release_stage<CL>(&st.empty[previous_stage], lane, rank);
}
//! [consume_tile]

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
/// C's tensor map has boxes of 16 rows x 64 columns.
template <bool kStmatrix, bool kReadC, int N, int PARTS>
__device__ void store_tile_streamed_impl(const TileAccum<N, PARTS>& acc, const GemmParams& p,
                                         const CUtensorMap* map_c, StagingBox* boxes, int row0,
                                         int col0, int warp, int lane, SliceRound& round) {
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
#pragma unroll
    for (int j = 0; j < N / 64; ++j) {
      unsigned char* slice_ptr =
          reinterpret_cast<unsigned char*>(&boxes[round.written & 1]) + warp * 16 * 128;
      const std::uint32_t slice = ptx::smem_addr(slice_ptr);
      const int row = row0 + 64 * h + 16 * warp, col = col0 + 64 * j;
      if (lane == 0) {
        if (round.last_stored) {
          ptx::tma_store_wait_read_pending<1>();
        } else {
          ptx::tma_store_wait_read_pending<0>();
        }
      }
      __syncwarp();
      if constexpr (kStmatrix) {
        stage_slice_stmatrix<N, kReadC>(acc.part[h], j, p, slice, row, col, lane);
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

template <bool kStmatrix, int N, int PARTS>
__device__ inline void store_tile_streamed(const TileAccum<N, PARTS>& acc, const GemmParams& p,
                                           const CUtensorMap* map_c, StagingBox* boxes, int row0,
                                           int col0, int warp, int lane, SliceRound& round) {
  if (p.beta == 0.0f) {
    store_tile_streamed_impl<kStmatrix, false>(acc, p, map_c, boxes, row0, col0, warp, lane, round);
  } else {
    store_tile_streamed_impl<kStmatrix, true>(acc, p, map_c, boxes, row0, col0, warp, lane, round);
  }
}

}  // namespace lesson11
