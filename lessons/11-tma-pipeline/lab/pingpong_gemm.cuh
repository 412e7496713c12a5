// Lesson 11: the ping-pong persistent kernel. Each consumer warpgroup owns whole tiles (128 x 128,
// two m64n128 wgmma results stacked), the two take a block's tiles in turn, and an ordering barrier
// makes their K loops alternate: while one multiplies, the other runs its epilogue, so the tensor
// cores do not stop for epilogues. The producer loads the tiles' k-blocks in the order the
// consumers take them, which is simply the block's tiles one after the other.
//
// Given code: the ring's parities, the expected bytes, the empty barrier's arrival count and the
// descriptors come from pipeline_exercises.cuh (yours).
#pragma once

#include "consumer_tile.cuh"
#include "hopper_ptx.cuh"
#include "pipeline_exercises.cuh"
#include "tile_order.hpp"

#include <cuda.h>

namespace lesson11 {

//! [pingpong_config]
/// The ring and the epilogue of the ping-pong kernel: 128 x 128 tiles, one per consumer at a time,
/// and a stage holds one tile's k-block (32 KiB), so the ring has room for more stages.
/// \tparam STAGES shared-memory stages in the ring
/// \tparam TMA_STORE epilogue streamed through two staging boxes per consumer and TMA stores (needs
///         N % 8 == 0); else from registers
/// \tparam STMATRIX the staging boxes written with stmatrix (else st.shared)
template <int STAGES, bool TMA_STORE, bool STMATRIX>
struct PingPongConfig {
  static constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 64, kStages = STAGES;
  static constexpr int kConsumers = 2, kThreads = 128 * (1 + kConsumers);
  static constexpr int kParts = 2;  // m64n128 results per consumer tile
  static constexpr bool kTmaStore = TMA_STORE, kStmatrix = STMATRIX;
  static constexpr int kClusterM = 1, kClusterN = 1, kCluster = 1;
  static constexpr ptx::Wait kWait = ptx::Wait::kTryWait;
  // Each k-block is read by one consumer warpgroup: its four warps release the stage.
  static constexpr int kReleasingWarps = 4;
  using Storage = RingStorage<kBlockM, kBlockN, STAGES, TMA_STORE ? 2 * kConsumers : 0>;
  static constexpr int kSmemBytes = dynamic_smem_bytes<Storage>();
  static constexpr int kProducerRegs = 40, kConsumerRegs = 232;
  static constexpr bool kStreamK = false;  // whole tiles, round robin
  static_assert(kSmemBytes <= kMaxDynamicSmem, "the ring and the staging boxes exceed 227 KiB");
};
//! [pingpong_config]

//! [turns]
// The ordering barrier: consumer c waits for its turn on named barrier 1 + c, which the other
// consumer's 128 threads arrive on (bar.arrive, not waiting) when their K loop has issued its last
// wgmmas; 256 threads in all. Turns also keep the ring sound: a consumer only waits on a stage's
// full barrier once every earlier k-block of the ring has been waited for, so the barrier is never
// more than one phase behind the parity asked for.
__device__ inline void wait_for_turn(int consumer) {
  if (consumer == 0) {
    ptx::named_barrier_sync<1>(256);
  } else {
    ptx::named_barrier_sync<2>(256);
  }
}
__device__ inline void pass_turn(int consumer) {
  if (consumer == 0) {
    ptx::named_barrier_arrive<2>(256);
  } else {
    ptx::named_barrier_arrive<1>(256);
  }
}
//! [turns]

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    pingpong_gemm_kernel(const __grid_constant__ CUtensorMap map_a,
                         const __grid_constant__ CUtensorMap map_b,
                         const __grid_constant__ CUtensorMap map_c, GemmParams p) {
  constexpr int S = Cfg::kStages, BM = Cfg::kBlockM, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  const int k_blocks = (p.K + BK - 1) / BK;
  const int warpgroup = threadIdx.x / 128;
  const int tiles = p.tiles_m * p.tiles_n;
  // The block's tiles, numbered i = 0, 1, 2, ...: tile first + i * step of the grid.
  const int first = blockIdx.x, step = gridDim.x;
  auto tile_of = [&](int i) {
    return tile_at(first + i * step, p.tiles_m, p.tiles_n, p.order, p.group);
  };
  auto has_tile = [&](int i) { return first + i * step < tiles; };

  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&st.full[s], 1);
      ptx::mbarrier_init(&st.empty[s], p.empty_arrivals);
    }
    ptx::fence_barrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    //! [pingpong_producer]
    // The producer: the block's tiles in order, each one's k-blocks in order, whichever consumer
    // will take it.
    ptx::setmaxnreg_dec<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) {
      ptx::prefetch_tensor_map(&map_a);
      ptx::prefetch_tensor_map(&map_b);
      int it = 0;
      for (int i = 0; has_tile(i); ++i) {
        const TileCoord tile = tile_of(i);
        for (int kb = 0; kb < k_blocks; ++kb, ++it) {
          const RingSlot slot = producer_slot(it, S);
          ptx::mbarrier_wait(&st.empty[slot.stage], slot.parity, p.limit, ptx::Waiter::kEmpty,
                             slot.stage);
          ptx::mbarrier_arrive_expect_tx(&st.full[slot.stage], p.stage_bytes);
          ptx::tma_load_2d(st.a[slot.stage], &map_a, &st.full[slot.stage], kb * BK, tile.m * BM);
          ptx::tma_load_2d(st.b[slot.stage], &map_b, &st.full[slot.stage], kb * BK, tile.n * BN);
        }
      }
    }
    //! [pingpong_producer]
  } else {
    //! [pingpong_consumer]
    ptx::setmaxnreg_inc<Cfg::kConsumerRegs>();
    const int consumer = warpgroup - 1, warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
    SliceRound round;
    // Consumer c takes the block's tiles c, c + 2, c + 4, ...
    for (int i = consumer; has_tile(i); i += 2) {
      const TileCoord tile = tile_of(i);
      TileAccum<BN, Cfg::kParts> acc;
      int it = i * k_blocks;  // the ring's count of tile i's first k-block
      if (i > 0) wait_for_turn(consumer);
      consume_tile<1, Cfg::kWait>(st, acc, it, k_blocks, 0, S, lane, 0, p.limit, [&] {
        if (has_tile(i + 1)) pass_turn(consumer);  // the other consumer's next tile may start
      });
      // The epilogue runs while the other consumer's K loop keeps the tensor cores busy.
      const int row0 = tile.m * BM, col0 = tile.n * BN;
      if constexpr (Cfg::kTmaStore) {
        store_tile_streamed<Cfg::kStmatrix>(acc, p, &map_c, &st.staging.box[2 * consumer], row0,
                                            col0, warp, lane, round);
      } else {
        store_tile_registers(acc, p, row0, col0, warp, lane);
      }
    }
    if (Cfg::kTmaStore && lane == 0) ptx::tma_store_wait_all();
    //! [pingpong_consumer]
  }
}

}  // namespace lesson11
