// Lesson 11, rungs 1 and 2: TMA loads and wgmma, with no specialization. One warpgroup (128
// threads) computes a 64 x BN tile; its thread 0 also issues the copies, STAGES k-blocks ahead.
// Every thread waits for each k-block on the stage's "full" mbarrier, the warpgroup multiplies it
// with four m64nBNk16 wgmmas, waits for them, and only then (after a __syncthreads) may thread 0
// refill the stage: no "empty" barrier is needed, at the price of the copies and the math never
// overlapping inside the block.
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "pipeline_exercises.cuh"

#include <cuda.h>

namespace lesson11 {

//! [tma_wgmma_config]
template <int BN, int STAGES>
struct TmaWgmmaConfig {
  static constexpr int kBlockM = 64, kBlockN = BN, kBlockK = 64, kStages = STAGES;
  static constexpr int kThreads = 128;
  static constexpr int kATileBytes = 64 * kBlockK * 2, kBTileBytes = BN * kBlockK * 2;
  static constexpr int kSmemBytes = 1024 + STAGES * (kATileBytes + kBTileBytes) + STAGES * 8;
};
//! [tma_wgmma_config]

template <class Cfg>
__global__ void __launch_bounds__(128)
    tma_wgmma_kernel(const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b, GemmParams p) {
  constexpr int S = Cfg::kStages, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  unsigned char* a_tiles = smem;
  unsigned char* b_tiles = a_tiles + S * Cfg::kATileBytes;
  auto* full = reinterpret_cast<std::uint64_t*>(b_tiles + S * Cfg::kBTileBytes);

  const int k_blocks = (p.K + BK - 1) / BK;
  const int tile_m = blockIdx.y, tile_n = blockIdx.x;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  //! [tma_issue]
  // Thread 0 announces a k-block's bytes on the stage's barrier and asks TMA for both tiles.
  auto load = [&](int kb) {
    const int stage = consumer_slot(kb, S).stage;
    ptx::mbarrier_arrive_expect_tx(&full[stage], p.stage_bytes);
    ptx::tma_load_2d(a_tiles + stage * Cfg::kATileBytes, &map_a, &full[stage], kb * BK,
                     tile_m * 64);
    ptx::tma_load_2d(b_tiles + stage * Cfg::kBTileBytes, &map_b, &full[stage], kb * BK,
                     tile_n * BN);
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_barrier_init();
    for (int kb = 0; kb < S && kb < k_blocks; ++kb) load(kb);
  }
  __syncthreads();
  //! [tma_issue]

  //! [wgmma_loop]
  ptx::WgmmaAccum<BN> acc;
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc.d[i] = 0.0f;
  for (int kb = 0; kb < k_blocks; ++kb) {
    const RingSlot slot = consumer_slot(kb, S);
    ptx::mbarrier_wait(&full[slot.stage], slot.parity);
    const std::uint32_t a = ptx::smem_addr(a_tiles + slot.stage * Cfg::kATileBytes);
    const std::uint32_t b = ptx::smem_addr(b_tiles + slot.stage * Cfg::kBTileBytes);
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BK / 16; ++kk) {
      ptx::wgmma_m64k16<BN>(acc, make_smem_descriptor(a + kk * 32),
                            make_smem_descriptor(b + kk * 32), 1);
    }
    ptx::wgmma_commit();
    ptx::wgmma_wait<0>();  // the stage has been read...
    __syncthreads();       // ...by all four warps: thread 0 may refill it
    if (threadIdx.x == 0 && kb + S < k_blocks) load(kb + S);
  }
  //! [wgmma_loop]
  store_accumulators<BN>(acc, p, tile_m * 64, tile_n * BN, warp, lane);
}

}  // namespace lesson11
