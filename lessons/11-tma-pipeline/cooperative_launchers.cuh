// Lesson 11: the launchers of the cooperative kernel's variants (cooperative_gemm.cuh). Given code
// that calls yours, compiled by calls-yours/cooperative_gemm.cu with each library's
// pipeline_exercises.cuh, apart from the other launchers so that the kernels compile in parallel.
// Include it from one file only.
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
// 128 x 256: 4 stages of 48 KiB + 4 staging boxes of 8 KiB = 224 KiB.
using Coop = CooperativeConfig<128, 256, 4, true, true>;
using CoopStShared = CooperativeConfig<128, 256, 4, true, false>;
using CoopDirect = CooperativeConfig<128, 256, 4, false, false>;
using CoopMulticastB = CooperativeConfig<128, 256, 4, true, true, 2, 1>;
using CoopMulticastBDirect = CooperativeConfig<128, 256, 4, false, false, 2, 1>;
// 256 x 128: the same bytes per stage and per staging box.
using Coop256 = CooperativeConfig<256, 128, 4, true, true>;
using Coop256Direct = CooperativeConfig<256, 128, 4, false, false>;
using Coop256MulticastA = CooperativeConfig<256, 128, 4, true, true, 1, 2>;
using Coop256MulticastADirect = CooperativeConfig<256, 128, 4, false, false, 1, 2>;
using Coop256MulticastB = CooperativeConfig<256, 128, 4, true, true, 2, 1>;
using Coop256MulticastBDirect = CooperativeConfig<256, 128, 4, false, false, 2, 1>;
// Coop with the second consumer starting 1200 cycles after the first: about two k-blocks of one
// consumer's wgmmas on an H100, what its epilogue takes.
using CoopStaggered = CooperativeConfig<128, 256, 4, true, true, 1, 1, 1200>;
//! [cooperative_configs]

template <class WithTmaStore, class WithRegisterEpilogue>
void launch_cooperative(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                        const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_persistent_for_n<WithTmaStore, WithRegisterEpilogue>(
      name, &cooperative_gemm_kernel<WithTmaStore>, &cooperative_gemm_kernel<WithRegisterEpilogue>,
      schedule, M, N, K, alpha, A, B, beta, C);
}

}  // namespace

void cooperative_staggered_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<CoopStaggered, CoopDirect>("cooperative_staggered_gemm", schedule, M, N, K,
                                                alpha, A, B, beta, C);
}

namespace detail {
course::VariantInfo cooperative_gemm_launch() {
  course::VariantInfo v;
  v.threads = std::max(Coop::kThreads, CoopDirect::kThreads);
  v.smem_bytes = static_cast<std::size_t>(std::max(Coop::kSmemBytes, CoopDirect::kSmemBytes));
  v.min_blocks = 1;  // __launch_bounds__(kThreads, 1)
  return v;
}
}  // namespace detail

void cooperative_st_shared_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<CoopStShared, CoopDirect>("cooperative_st_shared_gemm", schedule, M, N, K,
                                               alpha, A, B, beta, C);
}

void cooperative_gemm(TileSchedule schedule, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  launch_cooperative<Coop, CoopDirect>("cooperative_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

void cooperative_multicast_b_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                  const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<CoopMulticastB, CoopMulticastBDirect>("cooperative_multicast_b_gemm", schedule,
                                                           M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                              const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<Coop256, Coop256Direct>("cooperative_256x128_gemm", schedule, M, N, K, alpha,
                                             A, B, beta, C);
}

void cooperative_256x128_multicast_a_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<Coop256MulticastA, Coop256MulticastADirect>(
      "cooperative_256x128_multicast_a_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_multicast_b_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<Coop256MulticastB, Coop256MulticastBDirect>(
      "cooperative_256x128_multicast_b_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

}  // namespace lesson11
