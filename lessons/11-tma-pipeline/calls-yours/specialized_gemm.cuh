// Lesson 11, rungs 3 and 4: the warp-specialized kernel. One producer warpgroup drives TMA into a
// ring of shared-memory stages; one or two consumer warpgroups multiply out of it with wgmma. The
// same code runs one tile per block (rung 3) or a persistent grid that walks the tiles in bands
// (rung 4), with the epilogue from registers or through shared memory and a TMA store.
//
// Given code: the ring's parities, the expected bytes, the empty barrier's arrival count and the
// descriptors come from pipeline_exercises.cuh (yours).
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "pipeline_exercises.cuh"
#include "ring_storage.cuh"
#include "tile_order.hpp"

#include <cuda.h>

namespace lesson11 {

//! [specialized_config]
/// The tiles and the ring of the warp-specialized kernel.
/// \tparam BM rows of a block's tile: 64 per consumer warpgroup (wgmma's M is 64)
/// \tparam BN columns of a block's tile: the N of each consumer's m64nNk16 (128 or 256)
/// \tparam STAGES shared-memory stages in the ring
/// \tparam TMA_STORE epilogue through shared memory and a TMA store (needs N % 8 == 0)
/// \tparam CLUSTER blocks per cluster (1 or 2): a cluster computes CLUSTER tiles stacked along M,
///         which share their B tile: each block loads 1/CLUSTER of it and multicasts it to all
/// \tparam WAIT how threads wait on the ring's barriers
template <int BM, int BN, int STAGES, bool TMA_STORE, int CLUSTER = 1,
          ptx::Wait WAIT = (CLUSTER > 1 ? ptx::Wait::kTryWaitCluster : ptx::Wait::kTryWait)>
struct SpecializedConfig {
  static constexpr int kBlockM = BM, kBlockN = BN, kStages = STAGES;
  static constexpr int kBlockK = 64;  // 64 bf16 = 128 bytes: one row of the 128-byte swizzle
  static constexpr int kConsumers = BM / 64;
  static constexpr int kThreads = 128 * (1 + kConsumers);
  static constexpr bool kTmaStore = TMA_STORE;
  static constexpr int kCluster = CLUSTER;
  static constexpr ptx::Wait kWait = WAIT;
  // The ring's tiles (each 1024-byte aligned, as the 128-byte swizzle needs), the whole tile of C
  // as staging boxes of 64 x 64 for the TMA store (when there is one), then the barriers; 1 KiB of
  // slack to align the dynamic shared memory's start.
  using Storage = RingStorage<BM, BN, STAGES, TMA_STORE ? BM * BN / (64 * 64) : 0>;
  static constexpr int kSmemBytes = dynamic_smem_bytes<Storage>();
  // With two consumers, 384 threads x 168 registers fill the SM's 64K: the producer keeps 24 and
  // the consumers get 240 each (24 x 128 + 240 x 256 = 168 x 384), room for 128 accumulators.
  static constexpr int kProducerRegs = 24, kConsumerRegs = 240;
  static_assert(BM % 64 == 0 && kConsumers >= 1 && kConsumers <= 2, "one or two consumers");
  static_assert(BN == 128 || BN == 256, "wgmma_m64k16 is written out for N = 128 and 256");
  static_assert(CLUSTER == 1 || CLUSTER == 2, "clusters of one or two blocks");
  static_assert(kSmemBytes <= kMaxDynamicSmem, "the ring and the staging tile exceed 227 KiB");
};
//! [specialized_config]

// A barrier for the 128 threads of one consumer warpgroup (ids 1 and 2; 0 is __syncthreads').
__device__ inline void consumer_barrier(int consumer) {
  if (consumer == 0) {
    ptx::named_barrier_sync<1>(128);
  } else {
    ptx::named_barrier_sync<2>(128);
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    specialized_gemm_kernel(const __grid_constant__ CUtensorMap map_a,
                            const __grid_constant__ CUtensorMap map_b,
                            const __grid_constant__ CUtensorMap map_c, GemmParams p) {
  constexpr int S = Cfg::kStages, BM = Cfg::kBlockM, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  constexpr int CL = Cfg::kCluster;
  const int k_blocks = (p.K + BK - 1) / BK;
  const int warpgroup = threadIdx.x / 128;
  // A cluster walks "cluster tiles" of CL tiles stacked along M; block `rank` takes the rank-th.
  const int rank = CL > 1 ? static_cast<int>(ptx::cluster_rank()) : 0;
  const int cluster_rows = (p.tiles_m + CL - 1) / CL;
  const int cluster_tiles = cluster_rows * p.tiles_n;
  const int first = blockIdx.x / CL, step = gridDim.x / CL;
  auto tile_of = [&](int t) {
    const TileCoord c = tile_at(t, cluster_rows, p.tiles_n, p.order, p.group);
    return TileCoord{c.m * CL + rank, c.n};
  };

  //! [barrier_init]
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&st.full[s], 1);  // the producer's expect_tx arrival (+ TMA's bytes)
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
  //! [barrier_init]

  if (warpgroup == 0) {
    //! [producer]
    // The producer: one thread issues every copy; the other 127 have nothing to do.
    if constexpr (Cfg::kConsumers == 2) ptx::setmaxnreg_dec<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) {
      ptx::prefetch_tensor_map(&map_a);
      ptx::prefetch_tensor_map(&map_b);
      int it = 0;  // k-blocks loaded so far, over every tile of this block
      for (int t = first; t < cluster_tiles; t += step) {
        const TileCoord tile = tile_of(t);
        for (int kb = 0; kb < k_blocks; ++kb, ++it) {
          const RingSlot slot = producer_slot(it, S);
          // Until the consumers have released the stage.
          ptx::mbarrier_wait<Cfg::kWait>(&st.empty[slot.stage], slot.parity, p.limit,
                                         ptx::Waiter::kEmpty, slot.stage);
          ptx::mbarrier_arrive_expect_tx(&st.full[slot.stage], p.stage_bytes);
          ptx::tma_load_2d(st.a[slot.stage], &map_a, &st.full[slot.stage], kb * BK, tile.m * BM);
          if constexpr (CL == 1) {
            ptx::tma_load_2d(st.b[slot.stage], &map_b, &st.full[slot.stage], kb * BK, tile.n * BN);
          } else {
            // This block's share of B (BN / CL rows of BK), into the same place in every block.
            constexpr int rows = BN / CL;
            ptx::tma_load_2d_multicast(st.b[slot.stage] + rank * rows * BK, &map_b,
                                       &st.full[slot.stage], kb * BK, tile.n * BN + rank * rows,
                                       (1u << CL) - 1);
          }
        }
      }
    }
    //! [producer]
  } else {
    //! [consumer]
    if constexpr (Cfg::kConsumers == 2) ptx::setmaxnreg_inc<Cfg::kConsumerRegs>();
    const int consumer = warpgroup - 1, tid = threadIdx.x % 128;
    const int warp = tid / 32, lane = tid % 32;
    int it = 0;  // k-blocks consumed so far, counted exactly as the producer counts them
    // Releases a stage: one arrival per consumer warp on the empty barrier of every block of the
    // cluster, since every block's producer wrote into this block's copy of the stage.
    auto release = [&](int stage) {
      if (lane != 0) return;
      if constexpr (CL == 1) {
        ptx::mbarrier_arrive(&st.empty[stage]);
      } else {
        for (int r = 0; r < CL; ++r) {
          if (r == rank) {
            ptx::mbarrier_arrive(&st.empty[stage]);
          } else {
            ptx::mbarrier_arrive_cluster(&st.empty[stage], r);
          }
        }
      }
    };
    for (int t = first; t < cluster_tiles; t += step) {
      const TileCoord tile = tile_of(t);
      ptx::WgmmaAccum<BN> acc;
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) acc.d[i] = 0.0f;
      int previous_stage = -1;
      for (int kb = 0; kb < k_blocks; ++kb, ++it) {
        const RingSlot slot = consumer_slot(it, S);
        // Until TMA has delivered k-block `it`.
        ptx::mbarrier_wait<Cfg::kWait>(&st.full[slot.stage], slot.parity, p.limit,
                                       ptx::Waiter::kFull, slot.stage);
        const std::uint32_t a =
            ptx::smem_addr(st.a[slot.stage]) + consumer * 64 * 128;  // this consumer's 64 rows
        const std::uint32_t b = ptx::smem_addr(st.b[slot.stage]);
        ptx::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < BK / 16; ++kk) {  // 16 columns = 32 bytes further along each row
          ptx::wgmma_m64k16<BN>(acc, make_smem_descriptor(a + kk * 32),
                                make_smem_descriptor(b + kk * 32), 1);
        }
        ptx::wgmma_commit();
        // Keep this k-block's wgmmas running; wait only for the previous k-block's, whose stage
        // then goes back to the producer.
        ptx::wgmma_wait<1>();
        if (previous_stage >= 0) release(previous_stage);
        previous_stage = slot.stage;
      }
      ptx::wgmma_wait<0>();
      release(previous_stage);
      //! [consumer]

      //! [epilogue]
      const int row0 = tile.m * BM + consumer * 64, col0 = tile.n * BN;
      if constexpr (Cfg::kTmaStore) {
        // This consumer's 64 x BN half of the tile: BN / 64 boxes of 64 x 64.
        StagingBox* my_boxes = &st.staging.box[consumer * (BN / 64)];
        // The previous tile's TMA stores must have read the staging tile before it is rewritten.
        if (tid == 0) ptx::tma_store_wait_read();
        consumer_barrier(consumer);
        stage_accumulators<BN>(acc, p, reinterpret_cast<unsigned char*>(my_boxes), row0, col0, warp,
                               lane);
        // Ordinary stores, then the copy engine reads them: the proxies must be ordered.
        ptx::fence_proxy_async_smem();
        consumer_barrier(consumer);
        if (tid == 0 && row0 < p.M) {  // boxes wholly outside C: nothing to store
          for (int box = 0; box < BN / 64; ++box) {
            ptx::tma_store_2d(&map_c, my_boxes[box].v, col0 + box * 64, row0);
          }
          ptx::tma_store_commit();
        }
      } else {
        store_accumulators<BN>(acc, p, row0, col0, warp, lane);
      }
      //! [epilogue]
    }
    // A block must not exit with its TMA stores still writing.
    if (Cfg::kTmaStore && tid == 0) ptx::tma_store_wait_all();
  }
  // Nor while its peer may still arrive on its barriers.
  if constexpr (CL > 1) ptx::cluster_sync();
}

}  // namespace lesson11
