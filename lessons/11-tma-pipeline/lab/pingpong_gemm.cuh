// Lesson 11: the ping-pong persistent kernel. Each consumer warpgroup owns whole tiles (128 x 128,
// two m64n128 wgmma results stacked), the two take a block's tiles in turn, and an ordering barrier
// makes their K loops alternate: while one multiplies, the other runs its epilogue, so the tensor
// cores do not stop for epilogues. The producer loads the tiles' k-blocks in the order the
// consumers take them, which is simply the block's tiles one after the other.
//
// A kernel of the lab (lab.hpp): its own consumer loop around the ring of mainloop.cuh (ring_init,
// produce, issue, drain), built with the reference solution's pipeline_exercises.cuh.
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "lab_ptx.cuh"
#include "mainloop.cuh"
#include "pipeline_exercises.cuh"
#include "policies.cuh"
#include "ring_gemm.cuh"

#include <cuda.h>

namespace lesson11::lab {

//! [pingpong_config]
/// The ping-pong kernel's consumers: two wgmma warpgroups, each owning whole 128 x 128 tiles (two
/// m64n128 results stacked, 128 accumulators per thread), which they take in turn.
struct PingPongConsumer : WgmmaConsumer<128, 256> {
  static constexpr int kBlockM = 128, kBlockN = 128;
  static constexpr int kConsumerRows = 128, kParts = 2;
  using Accum = TileAccum<128, 2>;
  __device__ static void k_block(Accum& acc, std::uint32_t a, std::uint32_t b, int, int) {
    mma_k_block(acc, a, b);  // the whole tile: no offset into A
  }
  // Each consumer's results start at the tile's first row.
  __device__ static int first_row(int) { return 0; }
  static constexpr int kFragments = kParts;
  __device__ static Fragment fragment(int i, int cwarp) { return {64 * i, 0, cwarp % 4}; }
};

/// The ring of the ping-pong kernel: a stage holds one tile's k-block (32 KiB), so the ring has
/// room for more stages; each k-block is read by one consumer warpgroup, whose four warps release
/// the stage.
template <int STAGES>
struct PingPongMainloop : Mainloop<PingPongConsumer, STAGES> {
  static constexpr int kReleasingWarps = 4;
};

/// The ping-pong kernel's configurations: STAGES stages; the epilogue streamed through two staging
/// boxes per consumer and TMA stores (needs N % 8 == 0) or from registers; whole tiles, round
/// robin, in a run-time order.
template <int STAGES, class EPILOGUE>
using PingPongConfig = RingConfig<PingPongMainloop<STAGES>, EPILOGUE, StreamKTiles<false>>;
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
                         const __grid_constant__ CUtensorMap map_c, const typename Cfg::Params p) {
  using ML = typename Cfg::Mainloop;
  using Source = typename Cfg::TileSource;
  using Epilogue = typename Cfg::Epilogue;
  constexpr int BM = Cfg::kBlockM, BN = Cfg::kBlockN;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  const int k_blocks = p.tiles.sk.k_blocks;
  // The block's tiles, numbered i = 0, 1, 2, ...: its work units (whole tiles, round robin).
  auto has_tile = [&](int i) { return Source::unit(p.tiles, blockIdx.x, i).tile >= 0; };

  ring_init<ML>(st.barriers, p.mainloop);

  if (threadIdx.x < Cfg::Consumer::kProducerThreads) {
    //! [pingpong_producer]
    // The producer: the block's tiles in order, each one's k-blocks in order, whichever consumer
    // will take it.
    ML::producer_starts();
    if (threadIdx.x == 0) {
      ptx::prefetch_tensor_map(&map_a);
      ptx::prefetch_tensor_map(&map_b);
      int it = 0;
      for (int u = 0;; ++u) {
        const WorkUnit w = Source::unit(p.tiles, blockIdx.x, u);
        if (w.tile < 0) break;
        produce<ML>(st.stages, st.barriers, &map_a, &map_b, p.mainloop,
                    Source::tile(p.tiles, w.tile), w.k_begin, w.k_end, it, 0);
      }
    }
    //! [pingpong_producer]
  } else {
    //! [pingpong_consumer]
    ML::consumer_starts();
    const int cwarp = threadIdx.x / 32 - 4, lane = threadIdx.x % 32;
    const int consumer = cwarp / 4;
    typename Epilogue::State state;
    // Consumer c takes the block's tiles c, c + 2, c + 4, ...
    for (int i = consumer; has_tile(i); i += 2) {
      const TileCoord tile = Source::tile(p.tiles, Source::unit(p.tiles, blockIdx.x, i).tile);
      typename Cfg::Consumer::Accum acc;
      int it = i * k_blocks;  // the ring's count of tile i's first k-block
      if (i > 0) wait_for_turn(consumer);
      const int last =
          issue<ML>(st.stages, st.barriers, acc, it, k_blocks, cwarp, lane, 0, p.mainloop.limit);
      if (has_tile(i + 1)) pass_turn(consumer);  // the other consumer's next tile may start
      drain<ML>(st.barriers, last, lane, 0);
      // The epilogue runs while the other consumer's K loop keeps the tensor cores busy.
      Epilogue::template store<typename Cfg::Consumer>(st.staging, state, acc, p.problem, &map_c,
                                                       tile.m * BM, tile.n * BN, cwarp, lane);
    }
    Epilogue::finish(lane);
    //! [pingpong_consumer]
  }
}

}  // namespace lesson11::lab
