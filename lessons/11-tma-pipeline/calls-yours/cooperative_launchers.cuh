// Lesson 11: the launcher of the cooperative kernel (cooperative_gemm.cuh), the headline's. Given
// code that calls yours, compiled by calls-yours/cooperative_gemm.cu with each library's
// pipeline_exercises.cuh, apart from the other launchers so that the kernels compile in parallel.
// Include it from one file only. Its other configurations (the tile shapes, clusters, the
// staggered consumers) are the lab's (lab/cooperative_variants.cu).
#pragma once

#include "cooperative_gemm.cuh"
#include "persistent_launch.cuh"
#include "tma_pipeline.hpp"

#include "common/variants.hpp"

#include <algorithm>
#include <cstddef>

namespace lesson11 {

namespace {

//! [cooperative_configs]
// 128 x 256: 4 stages of 48 KiB + 4 staging boxes of 8 KiB = 224 KiB. The register epilogue's twin
// (N % 8 != 0) has no staging boxes.
using Coop = CooperativeConfig<128, 256, 4, true, true>;
using CoopDirect = CooperativeConfig<128, 256, 4, false, false>;
//! [cooperative_configs]

}  // namespace

namespace detail {
course::VariantInfo cooperative_gemm_launch() {
  course::VariantInfo v;
  v.threads = std::max(Coop::kThreads, CoopDirect::kThreads);
  v.smem_bytes = static_cast<std::size_t>(std::max(Coop::kSmemBytes, CoopDirect::kSmemBytes));
  v.min_blocks = 1;  // __launch_bounds__(kThreads, 1)
  return v;
}
}  // namespace detail

void cooperative_gemm(TileSchedule schedule, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  launch_cooperative<Coop, CoopDirect>("cooperative_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

}  // namespace lesson11
