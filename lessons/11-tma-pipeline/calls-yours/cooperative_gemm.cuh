// Lesson 11: the cooperative persistent kernel with a streamed epilogue. Like rung 5
// (staged_store_gemm), a producer warpgroup and two consumer warpgroups share each output tile;
// unlike it, the epilogue needs only two 8 KiB staging boxes per consumer instead of the whole
// tile, so the ring keeps four stages. The tile (128 x 256 or 256 x 128), the stage count, the way
// the staging boxes are written (st.shared or stmatrix) and clusters of two with TMA multicast (of
// B, or of A) are template parameters; the order of the tiles and the stream-K split of the last
// wave are run-time ones (GemmParams::order, GemmParams::sk).
//
// Given code: the ring's parities, the expected bytes, the empty barrier's arrival count and the
// descriptors come from pipeline_exercises.cuh (yours).
#pragma once

#include "consumer_tile.cuh"
#include "hopper_ptx.cuh"
#include "pipeline_exercises.cuh"
#include "stream_k.hpp"
#include "tile_order.hpp"

#include <cuda.h>

namespace lesson11 {

//! [cooperative_config]
/// The tiles, the ring and the epilogue of the cooperative kernel.
/// \tparam BM rows of a block's tile: the two consumers take BM / 2 each, as one m64 wgmma result
///         (BM = 128) or two stacked (BM = 256)
/// \tparam BN columns of a block's tile: the N of every wgmma (256 with BM = 128, 128 with
///         BM = 256: either way 128 accumulators per consumer thread)
/// \tparam STAGES shared-memory stages in the ring
/// \tparam TMA_STORE epilogue streamed through two staging boxes per consumer and TMA stores (needs
///         N % 8 == 0); else from registers
/// \tparam STMATRIX the staging boxes written with stmatrix (else st.shared: the same bytes)
/// \tparam CLUSTER_M, CLUSTER_N a cluster of two blocks on tiles adjacent along M (they share B:
///         each loads half of it and multicasts it to both) or along N (they share A)
/// \tparam STAGGER clock cycles by which the second consumer starts later than the first (0: both
///         start together)
template <int BM, int BN, int STAGES, bool TMA_STORE, bool STMATRIX, int CLUSTER_M = 1,
          int CLUSTER_N = 1, int STAGGER = 0>
struct CooperativeConfig {
  static constexpr int kBlockM = BM, kBlockN = BN, kBlockK = 64, kStages = STAGES;
  static constexpr int kConsumers = 2, kThreads = 128 * (1 + kConsumers);
  static constexpr int kConsumerRows = BM / kConsumers, kParts = kConsumerRows / 64;
  static constexpr bool kTmaStore = TMA_STORE, kStmatrix = STMATRIX;
  static constexpr int kClusterM = CLUSTER_M, kClusterN = CLUSTER_N;
  static constexpr int kCluster = CLUSTER_M * CLUSTER_N;
  static constexpr int kStaggerCycles = STAGGER;
  // With clusters, a stage's barriers also count the peer's bytes and arrivals.
  static constexpr ptx::Wait kWait =
      kCluster > 1 ? ptx::Wait::kTryWaitCluster : ptx::Wait::kTryWait;
  // Every consumer warp of the cluster releases every block's copy of a stage.
  static constexpr int kReleasingWarps = kCluster * 4 * kConsumers;
  using Storage = RingStorage<BM, BN, STAGES, TMA_STORE ? 2 * kConsumers : 0>;
  static constexpr int kSmemBytes = dynamic_smem_bytes<Storage>();
  // 40 x 128 + 232 x 256 = 64512 of the SM's 65536 registers. (ptxas compiles the whole kernel for
  // the launch bound's 168 registers; these only move the allocation at run time.)
  static constexpr int kProducerRegs = 40, kConsumerRegs = 232;
  // The kernel walks GemmParams::sk's work units, so it can split tiles along K (stream-K).
  static constexpr bool kStreamK = true;
  static_assert(kParts * BN == 256, "128 accumulators per consumer thread: 128 x 256 or 256 x 128");
  static_assert(kCluster == 1 || kCluster == 2, "clusters of one or two blocks");
  static_assert(kSmemBytes <= kMaxDynamicSmem, "the ring and the staging boxes exceed 227 KiB");
};
//! [cooperative_config]

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    cooperative_gemm_kernel(const __grid_constant__ CUtensorMap map_a,
                            const __grid_constant__ CUtensorMap map_b,
                            const __grid_constant__ CUtensorMap map_c, GemmParams p) {
  constexpr int S = Cfg::kStages, BM = Cfg::kBlockM, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  constexpr int CM = Cfg::kClusterM, CN = Cfg::kClusterN, CL = Cfg::kCluster;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  const int warpgroup = threadIdx.x / 128;
  // A cluster walks a grid of "cluster tiles", CM x CN tiles each; block `rank` takes the rank-th.
  // The plan (stream_k.hpp) deals out whole cluster tiles and pieces of them to the clusters.
  const int rank = CL > 1 ? static_cast<int>(ptx::cluster_rank()) : 0;
  const int grid_m = (p.tiles_m + CM - 1) / CM, grid_n = (p.tiles_n + CN - 1) / CN;
  const int cluster = blockIdx.x / CL;
  auto tile_of = [&](int t) {
    const TileCoord c = tile_at(t, grid_m, grid_n, p.order, p.group);
    return TileCoord{c.m * CM + (CM > 1 ? rank : 0), c.n * CN + (CN > 1 ? rank : 0)};
  };

  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&st.full[s], 1);
      ptx::mbarrier_init(&st.empty[s], p.empty_arrivals);
    }
    ptx::fence_barrier_init();
  }
  // The peer block multicasts into this block's stages and arrives on its barriers: both must be
  // initialized before anyone starts.
  if constexpr (CL > 1) {
    ptx::cluster_sync();
  } else {
    __syncthreads();
  }

  if (warpgroup == 0) {
    //! [cooperative_producer]
    ptx::setmaxnreg_dec<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) {
      ptx::prefetch_tensor_map(&map_a);
      ptx::prefetch_tensor_map(&map_b);
      int it = 0;  // k-blocks loaded so far, over every tile of this block
      for (int u = 0;; ++u) {
        const WorkUnit w = work_unit(p.sk, cluster, u);
        if (w.tile < 0) break;
        const TileCoord tile = tile_of(w.tile);
        for (int kb = w.k_begin; kb < w.k_end; ++kb, ++it) {
          const RingSlot slot = producer_slot(it, S);
          ptx::mbarrier_wait<Cfg::kWait>(&st.empty[slot.stage], slot.parity, p.limit,
                                         ptx::Waiter::kEmpty, slot.stage);
          // The whole stage lands in this block, whichever block loads each part of it.
          ptx::mbarrier_arrive_expect_tx(&st.full[slot.stage], p.stage_bytes);
          if constexpr (CN == 1) {
            ptx::tma_load_2d(st.a[slot.stage], &map_a, &st.full[slot.stage], kb * BK, tile.m * BM);
          } else {  // this block's half of the shared A tile, into both blocks
            constexpr int rows = BM / 2;
            ptx::tma_load_2d_multicast(st.a[slot.stage] + rank * rows * BK, &map_a,
                                       &st.full[slot.stage], kb * BK, tile.m * BM + rank * rows,
                                       0x3);
          }
          if constexpr (CM == 1) {
            ptx::tma_load_2d(st.b[slot.stage], &map_b, &st.full[slot.stage], kb * BK, tile.n * BN);
          } else {  // this block's half of the shared B tile, into both blocks
            constexpr int rows = BN / 2;
            ptx::tma_load_2d_multicast(st.b[slot.stage] + rank * rows * BK, &map_b,
                                       &st.full[slot.stage], kb * BK, tile.n * BN + rank * rows,
                                       0x3);
          }
        }
      }
    }
    //! [cooperative_producer]
  } else {
    //! [cooperative_consumer]
    ptx::setmaxnreg_inc<Cfg::kConsumerRegs>();
    const int consumer = warpgroup - 1, warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
    const std::uint32_t a_offset = consumer * Cfg::kConsumerRows * 128;  // this consumer's rows
    const int thread = threadIdx.x - 128;  // among both consumers' 256 threads
    int it = 0;  // k-blocks consumed so far, counted exactly as the producer counts them
    SliceRound round;
    // Staggered consumers (a variant): the second starts a few k-blocks behind the first, so that
    // while one converts and stores its half of a tile the other still has k-blocks to multiply,
    // and one warpgroup's wgmmas can keep the tensor cores busy alone. Nothing but the ring keeps
    // the two in step. Measured, it gained nothing on the H100 (the chapter's variants).
    if constexpr (Cfg::kStaggerCycles > 0) {
      if (consumer == 1) {
        const long long start = clock64();
        while (clock64() - start < Cfg::kStaggerCycles) {
        }
      }
    }
    for (int u = 0;; ++u) {
      const WorkUnit w = work_unit(p.sk, cluster, u);
      if (w.tile < 0) break;
      const TileCoord tile = tile_of(w.tile);
      TileAccum<BN, Cfg::kParts> acc;
      consume_tile<CL, Cfg::kWait>(st, acc, it, w.k_end - w.k_begin, a_offset, S, lane, rank,
                                   p.limit, [] {});
      //! [stream_k_fixup]
      // A split tile: the pieces after the first hand their sums over (a block's first split unit,
      // early in its share of the last wave); the piece that starts the tile (its block's last
      // unit, near the end) adds theirs, from the clusters after its own, then stores the tile.
      // Each block of the grid has one tile of sums in the workspace, at its blockIdx.x: a block
      // hands over at most one piece per launch.
      if (hands_over(w)) {
        hand_over_sums(acc, p, blockIdx.x, thread);
        continue;
      }
      if (finishes_split(p.sk, w)) {
        const int last = last_contributor(p.sk, w.tile);
        if (last - cluster >= kMaxPieces) __trap();  // a plan the grader would have refused
#pragma unroll
        for (int i = 1; i < kMaxPieces; ++i) {
          if (cluster + i <= last) add_sums_of(acc, p, (cluster + i) * CL + rank, thread);
        }
      }
      //! [stream_k_fixup]
      const int row0 = tile.m * BM + consumer * Cfg::kConsumerRows, col0 = tile.n * BN;
      if constexpr (Cfg::kTmaStore) {
        store_tile_streamed<Cfg::kStmatrix>(acc, p, &map_c, &st.staging.box[2 * consumer], row0,
                                            col0, warp, lane, round);
      } else {
        store_tile_registers(acc, p, row0, col0, warp, lane);
      }
    }
    // A block must not exit with its TMA stores still writing.
    if (Cfg::kTmaStore && lane == 0) ptx::tma_store_wait_all();
    //! [cooperative_consumer]
  }
  // Nor while its peer may still arrive on its barriers.
  if constexpr (CL > 1) ptx::cluster_sync();
}

}  // namespace lesson11
