// Lesson 11: rungs 1 to 5, the steps on the way to the headline. Given code that calls yours,
// compiled into both the exercise and the solution library with that library's
// pipeline_exercises.cuh. A save's grader leaves this file out (the _part2 in its name): the
// headline and the portable rung run every function you write, and these rungs are graded once
// those pass.
#include "pipeline_exercises.cuh"
#include "ring_gemm.cuh"
#include "tma_pipeline.hpp"
#include "tma_wgmma_gemm.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace lesson11 {

namespace {

template <class Cfg>
void launch_tma_wgmma(const char* name, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  course::require_gemm_shape(name, M, N, K, (static_cast<long>(M) + 63) / 64);
  detail::require_ready(name, true, Cfg::kStages, 4, 64, Cfg::kBlockN);
  const GemmParams p = detail::make_params(M, N, K, alpha, beta, C, 64, Cfg::kBlockN, 4);
  static const bool configured = [] {
    CUDA_CHECK(cudaFuncSetAttribute(tma_wgmma_kernel<Cfg>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes));
    return true;
  }();
  (void)configured;
  const dim3 grid(p.tiles_n, p.tiles_m);
  tma_wgmma_kernel<Cfg><<<grid, Cfg::kThreads, Cfg::kSmemBytes>>>(
      *detail::tensor_map(A, M, K, 64, 64), *detail::tensor_map(B, N, K, Cfg::kBlockN, 64), p);
  CHECK_LAUNCH();
}

//! [configs]
// Rungs 1 and 2: one warpgroup loads and multiplies 64 x 128 tiles, with 1 or 4 stages. Rungs 3
// and 4 are the ring of hopper_gemm.cu with the epilogue from registers (Specialized);
// rung 5 the same ring with the staged epilogue: the whole 64 KiB staging tile takes a stage's
// room, so 3 stages.
using OneStage = TmaWgmmaConfig<128, 1>;
using FourStages = TmaWgmmaConfig<128, 4>;
using StagedStore = RingConfig<WgmmaConsumer<128, 256>, 3, Epilogue::kStagedTile>;
//! [configs]

}  // namespace

void tma_wgmma_1stage_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B,
                           float beta, bf16* C) {
  launch_tma_wgmma<OneStage>("tma_wgmma_1stage_gemm", M, N, K, alpha, A, B, beta, C);
}

void tma_wgmma_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                    bf16* C) {
  launch_tma_wgmma<FourStages>("tma_wgmma_gemm", M, N, K, alpha, A, B, beta, C);
}

//! [specialized]
// Rung 3: one block per tile. Rung 4: the same kernel on a persistent grid, tiles in bands of 8.
void specialized_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                      bf16* C) {
  TileSchedule one_tile_per_block;
  one_tile_per_block.persistent = false;
  detail::registers_gemm("specialized_gemm", one_tile_per_block, M, N, K, alpha, A, B, beta, C);
}

void persistent_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                     bf16* C) {
  detail::registers_gemm("persistent_gemm", TileSchedule{}, M, N, K, alpha, A, B, beta, C);
}
//! [specialized]

//! [staged_store]
void staged_store_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                       bf16* C) {
  if (N % 8 == 0) {
    launch_ring<StagedStore>("staged_store_gemm", &ring_gemm_kernel<StagedStore>, TileSchedule{}, M,
                             N, K, alpha, A, B, beta, C);
  } else {
    detail::registers_gemm("staged_store_gemm", TileSchedule{}, M, N, K, alpha, A, B, beta, C);
  }
}
//! [staged_store]

std::vector<Rung> detail::rungs_1_to_5() {
  return {
      describing<OneStage>(
          detail::rung(1, "tma_wgmma_1stage_gemm", "TMA + mbarrier + wgmma, one stage",
                       &tma_wgmma_1stage_gemm),
          0),
      describing<FourStages>(
          detail::rung(2, "tma_wgmma_gemm", "4 stages in flight", &tma_wgmma_gemm), 0),
      detail::registers_gemm_rung(detail::rung(
          3, "specialized_gemm", "producer/consumer warpgroups, 128x256", &specialized_gemm)),
      detail::registers_gemm_rung(
          detail::rung(4, "persistent_gemm", "persistent grid, tiles in bands", &persistent_gemm)),
      detail::with_register_fallback<StagedStore>(
          detail::rung(5, "staged_store_gemm", "epilogue through shared memory + TMA store",
                       &staged_store_gemm)),
  };
}

}  // namespace lesson11
