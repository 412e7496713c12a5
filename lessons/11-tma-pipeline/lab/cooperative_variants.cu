// Lesson 11's lab: the ring with wgmma consumers (gemm/ring_gemm.cuh) in the configurations that
// measured slower than the headline's, built with the reference solution (lab.hpp).
#include "lab.hpp"
#include "launch.cuh"
#include "policies.cuh"
#include "ring_gemm.cuh"

namespace lesson11::lab {

namespace {

//! [cooperative_configs]
// 128 x 256: 4 stages of 48 KiB + 4 staging boxes of 8 KiB = 224 KiB. Those the sweep gives plans
// that split tiles along K (stream-K) join the pieces (StreamKTiles<true>).
using Wide = Mainloop<WgmmaConsumer<128, 256>, 4>;
using Tall = Mainloop<WgmmaConsumer<256, 128>, 4>;  // 256 x 128: the same bytes per stage
struct LabCoop : RingConfig<Wide, StreamedEpilogue<>, StreamKTiles<true>> {};
struct LabCoopStShared : RingConfig<Wide, StreamedEpilogue<StSharedSlices>, StreamKTiles<false>> {};
struct LabCoopDirect : RingConfig<Wide, RegistersEpilogue, StreamKTiles<true>> {};
struct LabCoopMulticastB
    : RingConfig<Multicast<Wide, 2, 1>, StreamedEpilogue<>, StreamKTiles<false>> {};
struct LabCoopMulticastBDirect
    : RingConfig<Multicast<Wide, 2, 1>, RegistersEpilogue, StreamKTiles<false>> {};
struct LabCoop256 : RingConfig<Tall, StreamedEpilogue<>, StreamKTiles<false>> {};
struct LabCoop256Direct : RingConfig<Tall, RegistersEpilogue, StreamKTiles<false>> {};
struct LabCoop256MulticastA
    : RingConfig<Multicast<Tall, 1, 2>, StreamedEpilogue<>, StreamKTiles<true>> {};
struct LabCoop256MulticastADirect
    : RingConfig<Multicast<Tall, 1, 2>, RegistersEpilogue, StreamKTiles<true>> {};
struct LabCoop256MulticastB
    : RingConfig<Multicast<Tall, 2, 1>, StreamedEpilogue<>, StreamKTiles<false>> {};
struct LabCoop256MulticastBDirect
    : RingConfig<Multicast<Tall, 2, 1>, RegistersEpilogue, StreamKTiles<false>> {};
// The second consumer starting 1200 cycles after the first: about two k-blocks of one consumer's
// wgmmas on an H100, what its epilogue takes.
struct LabCoopStaggered
    : RingConfig<Staggered<Wide, 1200>, StreamedEpilogue<>, StreamKTiles<false>> {};
// The headline's 192 x 160 configuration, as a type of the lab's own, with the ladder's launch.
struct Lab192x160
    : RingConfig<Mainloop<WgmmaConsumer<192, 160, 3>, 4>, StreamedEpilogue<>, WholeTiles> {};
//! [cooperative_configs]

}  // namespace

void cooperative_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  launch_for_n<LabCoop, LabCoopDirect>("lab cooperative_gemm", schedule, M, N, K, alpha, A, B, beta,
                                       C);
}

void cooperative_192x160_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                              const bf16* B, float beta, bf16* C) {
  // The headline's 192 x 160 kernel, at every shape (bands of schedule.group).
  if (N % 8 == 0) {
    launch_ring<Lab192x160>("cooperative_192x160_gemm", TileSchedule{schedule.group}, M, N, K,
                            alpha, A, B, beta, C);
  } else {
    launch<LabCoopDirect>("cooperative_192x160_gemm", &ring_gemm_kernel<LabCoopDirect>, schedule, M,
                          N, K, alpha, A, B, beta, C);
  }
}

void cooperative_staggered_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                                const bf16* B, float beta, bf16* C) {
  launch_for_n<LabCoopStaggered, LabCoopDirect>("cooperative_staggered_gemm", schedule, M, N, K,
                                                alpha, A, B, beta, C);
}

void cooperative_st_shared_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                                const bf16* B, float beta, bf16* C) {
  launch_for_n<LabCoopStShared, LabCoopDirect>("cooperative_st_shared_gemm", schedule, M, N, K,
                                               alpha, A, B, beta, C);
}

void cooperative_multicast_b_gemm(Schedule schedule, int M, int N, int K, float alpha,
                                  const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_for_n<LabCoopMulticastB, LabCoopMulticastBDirect>("cooperative_multicast_b_gemm", schedule,
                                                           M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                              const bf16* B, float beta, bf16* C) {
  launch_for_n<LabCoop256, LabCoop256Direct>("cooperative_256x128_gemm", schedule, M, N, K, alpha,
                                             A, B, beta, C);
}

void cooperative_256x128_multicast_a_gemm(Schedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_for_n<LabCoop256MulticastA, LabCoop256MulticastADirect>(
      "cooperative_256x128_multicast_a_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_multicast_b_gemm(Schedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_for_n<LabCoop256MulticastB, LabCoop256MulticastBDirect>(
      "cooperative_256x128_multicast_b_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

}  // namespace lesson11::lab
