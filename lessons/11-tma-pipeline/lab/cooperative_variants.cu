// Lesson 11's lab: the ring with wgmma consumers (calls-yours/ring_gemm.cuh) in the configurations
// that measured slower than the headline's, built with the reference solution (lab.hpp).
#include "lab.hpp"
#include "ring_gemm.cuh"

namespace lesson11::lab {

namespace {

//! [cooperative_configs]
// 128 x 256: 4 stages of 48 KiB + 4 staging boxes of 8 KiB = 224 KiB. Those the sweep gives plans
// that split tiles along K (stream-K) keep the code that joins the pieces (kStreamK).
struct LabCoop : RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kStreamed, true> {
  static constexpr bool kStreamK = true;
};
struct LabCoopStShared : RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kStreamed, false> {};
struct LabCoopDirect : RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kRegisters, false> {
  static constexpr bool kStreamK = true;
};
struct LabCoopMulticastB
    : RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kStreamed, true, 2, 1, 0> {};
struct LabCoopMulticastBDirect
    : RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kRegisters, false, 2, 1, 0> {};
// 256 x 128: the same bytes per stage and per staging box.
struct LabCoop256 : RingConfig<WgmmaConsumer<256, 128>, 4, Epilogue::kStreamed, true> {};
struct LabCoop256Direct : RingConfig<WgmmaConsumer<256, 128>, 4, Epilogue::kRegisters, false> {};
struct LabCoop256MulticastA
    : RingConfig<WgmmaConsumer<256, 128>, 4, Epilogue::kStreamed, true, 1, 2, 0> {
  static constexpr bool kStreamK = true;
};
struct LabCoop256MulticastADirect
    : RingConfig<WgmmaConsumer<256, 128>, 4, Epilogue::kRegisters, false, 1, 2, 0> {
  static constexpr bool kStreamK = true;
};
struct LabCoop256MulticastB
    : RingConfig<WgmmaConsumer<256, 128>, 4, Epilogue::kStreamed, true, 2, 1, 0> {};
struct LabCoop256MulticastBDirect
    : RingConfig<WgmmaConsumer<256, 128>, 4, Epilogue::kRegisters, false, 2, 1, 0> {};
// The second consumer starting 1200 cycles after the first: about two k-blocks of one consumer's
// wgmmas on an H100, what its epilogue takes.
struct LabCoopStaggered
    : RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kStreamed, true, 1, 1, 1200> {};
//! [cooperative_configs]

}  // namespace

void cooperative_gemm(TileSchedule schedule, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  launch_ring_for_n<LabCoop, LabCoopDirect>("lab cooperative_gemm", schedule, M, N, K, alpha, A, B,
                                            beta, C);
}

void cooperative_192x160_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                              const bf16* A, const bf16* B, float beta, bf16* C) {
  // The headline's 192 x 160 kernel (calls-yours/hopper_gemm_192x160.cu), at every shape.
  if (N % 8 == 0) {
    detail::gemm_192x160("cooperative_192x160_gemm", schedule, M, N, K, alpha, A, B, beta, C);
  } else {
    launch_ring<LabCoopDirect>("cooperative_192x160_gemm", &ring_gemm_kernel<LabCoopDirect>,
                               schedule, M, N, K, alpha, A, B, beta, C);
  }
}

void cooperative_staggered_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring_for_n<LabCoopStaggered, LabCoopDirect>("cooperative_staggered_gemm", schedule, M, N,
                                                     K, alpha, A, B, beta, C);
}

void cooperative_st_shared_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring_for_n<LabCoopStShared, LabCoopDirect>("cooperative_st_shared_gemm", schedule, M, N, K,
                                                    alpha, A, B, beta, C);
}

void cooperative_multicast_b_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                  const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring_for_n<LabCoopMulticastB, LabCoopMulticastBDirect>(
      "cooperative_multicast_b_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                              const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring_for_n<LabCoop256, LabCoop256Direct>("cooperative_256x128_gemm", schedule, M, N, K,
                                                  alpha, A, B, beta, C);
}

void cooperative_256x128_multicast_a_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring_for_n<LabCoop256MulticastA, LabCoop256MulticastADirect>(
      "cooperative_256x128_multicast_a_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

void cooperative_256x128_multicast_b_gemm(TileSchedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring_for_n<LabCoop256MulticastB, LabCoop256MulticastBDirect>(
      "cooperative_256x128_multicast_b_gemm", schedule, M, N, K, alpha, A, B, beta, C);
}

}  // namespace lesson11::lab
