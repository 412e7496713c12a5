// Lesson 11's lab: the cooperative kernel (calls-yours/cooperative_gemm.cuh) in the configurations
// that measured slower than the headline's, built with the reference solution (lab.hpp).
#include "lab.hpp"
#include "persistent_launch.cuh"

namespace lesson11::lab {

namespace {

//! [cooperative_configs]
// 128 x 256: 4 stages of 48 KiB + 4 staging boxes of 8 KiB = 224 KiB.
struct LabCoop : CooperativeConfig<128, 256, 4, true, true> {};
struct LabCoopStShared : CooperativeConfig<128, 256, 4, true, false> {};
struct LabCoopDirect : CooperativeConfig<128, 256, 4, false, false> {};
struct LabCoopMulticastB : CooperativeConfig<128, 256, 4, true, true, 2, 1> {};
struct LabCoopMulticastBDirect : CooperativeConfig<128, 256, 4, false, false, 2, 1> {};
// 256 x 128: the same bytes per stage and per staging box.
struct LabCoop256 : CooperativeConfig<256, 128, 4, true, true> {};
struct LabCoop256Direct : CooperativeConfig<256, 128, 4, false, false> {};
struct LabCoop256MulticastA : CooperativeConfig<256, 128, 4, true, true, 1, 2> {};
struct LabCoop256MulticastADirect : CooperativeConfig<256, 128, 4, false, false, 1, 2> {};
struct LabCoop256MulticastB : CooperativeConfig<256, 128, 4, true, true, 2, 1> {};
struct LabCoop256MulticastBDirect : CooperativeConfig<256, 128, 4, false, false, 2, 1> {};
// The second consumer starting 1200 cycles after the first: about two k-blocks of one consumer's
// wgmmas on an H100, what its epilogue takes.
struct LabCoopStaggered : CooperativeConfig<128, 256, 4, true, true, 1, 1, 1200> {};
//! [cooperative_configs]

}  // namespace

void cooperative_gemm(TileSchedule schedule, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  launch_cooperative<LabCoop, LabCoopDirect>("lab cooperative_gemm", schedule, M, N, K, alpha, A, B,
                                             beta, C);
}

void cooperative_staggered_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<LabCoopStaggered, LabCoopDirect>("cooperative_staggered_gemm", schedule, M, N,
                                                      K, alpha, A, B, beta, C);
}

void cooperative_st_shared_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<LabCoopStShared, LabCoopDirect>("cooperative_st_shared_gemm", schedule, M, N,
                                                     K, alpha, A, B, beta, C);
}

void cooperative_multicast_b_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                  const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<LabCoopMulticastB, LabCoopMulticastBDirect>(
      "cooperative_multicast_b_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                              const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<LabCoop256, LabCoop256Direct>("cooperative_256x128_gemm", schedule, M, N, K,
                                                   alpha, A, B, beta, C);
}

void cooperative_256x128_multicast_a_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<LabCoop256MulticastA, LabCoop256MulticastADirect>(
      "cooperative_256x128_multicast_a_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_multicast_b_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_cooperative<LabCoop256MulticastB, LabCoop256MulticastBDirect>(
      "cooperative_256x128_multicast_b_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

}  // namespace lesson11::lab
