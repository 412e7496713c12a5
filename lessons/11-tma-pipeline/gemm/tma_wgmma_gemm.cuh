// Lesson 11, rungs 1 and 2: TMA loads and wgmma, with no specialization. One warpgroup (128
// threads) computes a 64 x BN tile; its thread 0 also issues the copies, STAGES k-blocks ahead.
// Every thread waits for each k-block on the stage's "full" mbarrier, the warpgroup multiplies it
// with four m64nBNk16 wgmmas, waits for them, and only then (after a __syncthreads) may thread 0
// refill the stage: no "empty" barrier is needed, at the price of the copies and the math never
// overlapping inside the block.
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "mainloop.cuh"  // RingParams
#include "your_functions.hpp"
#include "ring_gemm.cuh"  // require_ready
#include "ring_storage.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/library.hpp"  // COURSE_LIBRARY

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace lesson11 {
inline namespace COURSE_LIBRARY {  // compiled with your functions (common/library.hpp)

//! [tma_wgmma_config]
template <int BN, int STAGES>
struct TmaWgmmaConfig {
  static constexpr int kBlockM = 64, kBlockN = BN, kBlockK = 64, kStages = STAGES;
  static constexpr int kThreads = 128;
  static constexpr bool kWgmma = true;
  /// The CPU model's view of this ring: its four warps read every stage (they meet at a
  /// __syncthreads() before thread 0 refills it).
  static constexpr int kReleasingWarps = 4;
  /// The block's shared memory: STAGES tiles of A (64 rows) and of B (BN rows), K-major rows of
  /// 64 bf16, each tile 1024-byte aligned for the 128-byte swizzle; and a "full" barrier per stage.
  struct Storage {
    alignas(1024) __nv_bfloat16 a[STAGES][64 * kBlockK];
    alignas(1024) __nv_bfloat16 b[STAGES][BN * kBlockK];
    std::uint64_t full[STAGES];  // thread 0's expect_tx arrival, then TMA's bytes
  };
  static constexpr int kSmemBytes = dynamic_smem_bytes<Storage>();  // + 1024 to align the start
};
//! [tma_wgmma_config]

template <class Cfg>
__global__ void __launch_bounds__(128)
    tma_wgmma_kernel(const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b, const Problem problem,
                     const RingParams ring) {
  constexpr int S = Cfg::kStages, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  const int k_blocks = (problem.K + BK - 1) / BK;
  const int tile_m = blockIdx.y, tile_n = blockIdx.x;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  //! [tma_issue]
  // Thread 0 announces a k-block's bytes on the stage's barrier and asks TMA for both tiles.
  auto load = [&](int kb) {
    const int stage = consumer_slot(kb, S).stage;
    ptx::mbarrier_arrive_expect_tx(&st.full[stage], ring.stage_bytes);
    ptx::tma_load_2d(st.a[stage], &map_a, &st.full[stage], kb * BK, tile_m * 64);
    ptx::tma_load_2d(st.b[stage], &map_b, &st.full[stage], kb * BK, tile_n * BN);
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) ptx::mbarrier_init(&st.full[s], 1);
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
    ptx::mbarrier_wait(&st.full[slot.stage], slot.parity, ring.limit, ptx::Waiter::kFull,
                       slot.stage);
    const std::uint32_t a = ptx::smem_addr(st.a[slot.stage]);
    const std::uint32_t b = ptx::smem_addr(st.b[slot.stage]);
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
  store_accumulators<BN>(acc, problem, tile_m * 64, tile_n * BN, warp, lane);
}

/// Launches rung 1 or 2: one block per 64 x BN tile.
template <class Cfg>
void launch_tma_wgmma(const char* name, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  course::require_gemm_shape(name, M, N, K, (static_cast<long>(M) + 63) / 64);
  require_ready<Cfg>(name);
  resident_blocks<Cfg>(name, &tma_wgmma_kernel<Cfg>);  // its shared memory allowed, and it fits
  const dim3 grid((N + Cfg::kBlockN - 1) / Cfg::kBlockN, (M + 63) / 64);
  tma_wgmma_kernel<Cfg><<<grid, Cfg::kThreads, Cfg::kSmemBytes>>>(
      *detail::tensor_map(A, M, K, 64, 64), *detail::tensor_map(B, N, K, Cfg::kBlockN, 64),
      Problem{M, N, K, alpha, beta, C}, ring_params<Cfg>());
  CHECK_LAUNCH();
}

}  // namespace COURSE_LIBRARY
}  // namespace lesson11
