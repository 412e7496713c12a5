// Lesson 11: the ping-pong persistent kernel. Each consumer warpgroup owns whole tiles (128 x 128,
// two m64n128 wgmma results stacked), the two take a block's tiles in turn, and an ordering barrier
// makes their K loops alternate: while one multiplies, the other runs its epilogue, so the tensor
// cores do not stop for epilogues. The producer loads the tiles' k-blocks in the order the
// consumers take them, which is simply the block's tiles one after the other.
//
// A kernel of the lab (lab.hpp): its own consumer loop around the ring of ring_gemm.cuh (init_ring,
// produce, consume), built with the reference solution's pipeline_exercises.cuh.
#pragma once

#include "hopper_ptx.cuh"
#include "pipeline_exercises.cuh"
#include "ring_gemm.cuh"
#include "tile_order.hpp"

#include <cuda.h>

namespace lesson11 {

//! [pingpong_config]
/// The ping-pong kernel's consumers: two wgmma warpgroups, each owning whole 128 x 128 tiles (two
/// m64n128 results stacked, 128 accumulators per thread), which they take in turn.
struct PingPongConsumer : WgmmaConsumer<128, 256> {
  static constexpr int kBlockM = 128, kBlockN = 128;
  static constexpr int kConsumerRows = 128, kParts = 2;
  using Accum = TileAccum<128, 2>;
  __device__ static void zero(Accum& acc) {
#pragma unroll
    for (int h = 0; h < kParts; ++h) {
#pragma unroll
      for (int i = 0; i < 64; ++i) acc.part[h].d[i] = 0.0f;
    }
  }
  __device__ static void k_block(Accum& acc, std::uint32_t a, std::uint32_t b, int, int) {
    mma_k_block(acc, a, b);  // the whole tile: no offset into A
  }
  __device__ static void store_registers(const Accum& acc, const GemmParams& p, int row0, int col0,
                                         int cwarp, int lane) {
    store_tile_registers(acc, p, row0, col0, cwarp % 4, lane);
  }
};

/// The ring and the epilogue of the ping-pong kernel: a stage holds one tile's k-block (32 KiB), so
/// the ring has room for more stages.
/// \tparam STAGES shared-memory stages in the ring
/// \tparam TMA_STORE epilogue streamed through two staging boxes per consumer and TMA stores (needs
///         N % 8 == 0); else from registers
/// \tparam STMATRIX the staging boxes written with stmatrix (else st.shared)
template <int STAGES, bool TMA_STORE, bool STMATRIX>
struct PingPongConfig
    : RingConfig<PingPongConsumer, STAGES, TMA_STORE ? Epilogue::kStreamed : Epilogue::kRegisters,
                 STMATRIX> {
  // Each k-block is read by one consumer warpgroup: its four warps release the stage.
  static constexpr int kReleasingWarps = 4;
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
  constexpr int BM = Cfg::kBlockM, BN = Cfg::kBlockN;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  const int k_blocks = p.sk.k_blocks;
  auto tile_of = [&](int t) { return tile_at(t, p.tiles_m, p.tiles_n, p.order, p.group); };
  // The block's tiles, numbered i = 0, 1, 2, ...: its work units (whole tiles, round robin).
  auto has_tile = [&](int i) { return work_unit(p.sk, blockIdx.x, i).tile >= 0; };

  init_ring<1>(st, Cfg::kStages, p.empty_arrivals);

  if (threadIdx.x < Cfg::kProducerThreads) {
    //! [pingpong_producer]
    // The producer: the block's tiles in order, each one's k-blocks in order, whichever consumer
    // will take it.
    ptx::setmaxnreg_dec<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) produce<Cfg>(st, &map_a, &map_b, p, blockIdx.x, 0, tile_of);
    //! [pingpong_producer]
  } else {
    //! [pingpong_consumer]
    ptx::setmaxnreg_inc<Cfg::kConsumerRegs>();
    const int cwarp = threadIdx.x / 32 - 4, lane = threadIdx.x % 32;
    const int consumer = cwarp / 4, warp = cwarp % 4;
    SliceRound round;
    // Consumer c takes the block's tiles c, c + 2, c + 4, ...
    for (int i = consumer; has_tile(i); i += 2) {
      const TileCoord tile = tile_of(work_unit(p.sk, blockIdx.x, i).tile);
      typename Cfg::Consumer::Accum acc;
      int it = i * k_blocks;  // the ring's count of tile i's first k-block
      if (i > 0) wait_for_turn(consumer);
      consume<Cfg>(st, acc, it, k_blocks, cwarp, lane, 0, p.limit, [&] {
        if (has_tile(i + 1)) pass_turn(consumer);  // the other consumer's next tile may start
      });
      // The epilogue runs while the other consumer's K loop keeps the tensor cores busy.
      const int row0 = tile.m * BM, col0 = tile.n * BN;
      if constexpr (Cfg::kTmaStore) {
        store_tile_streamed<Cfg::kStmatrix, Cfg::kStoreCols>(
            acc, p, &map_c, &st.staging.box[2 * consumer], row0, col0, warp, lane, round);
      } else {
        store_tile_registers(acc, p, row0, col0, warp, lane);
      }
    }
    if (Cfg::kTmaStore && lane == 0) ptx::tma_store_wait_all();
    //! [pingpong_consumer]
  }
}

}  // namespace lesson11
