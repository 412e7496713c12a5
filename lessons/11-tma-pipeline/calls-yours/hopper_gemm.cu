// Lesson 11: the last rungs, instances of the ring (ring_gemm.cuh): the headline, hopper_gemm, with
// wgmma consumers, and portable_gemm, with mma.sync consumers, which runs on every GPU that has
// TMA. Given code that calls yours, compiled into both the exercise and the solution library with
// that library's pipeline_exercises.cuh, apart from the other rungs so that the kernels compile in
// parallel.
#include "pipeline_exercises.cuh"
#include "ring_gemm.cuh"
#include "tma_pipeline.hpp"

namespace lesson11 {

namespace {

//! [headline_config]
// 128 x 256 tiles, two wgmma consumer warpgroups, 4 stages of 48 KiB + 4 staging boxes of 8 KiB
// = 224 KiB; the producer keeps 40 registers, the consumers get 232 (40 x 128 + 232 x 256 = 64512
// of the SM's 65536). For N % 8 != 0, rungs 3 and 4's kernel (the epilogue from registers,
// detail::registers_gemm).
// It keeps the code that joins the pieces of a tile split along K (the lab's stream-K variants run
// this very kernel), unused by its plan of whole tiles.
struct Headline : RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kStreamed> {
  static constexpr bool kStreamK = true;
};
//! [headline_config]

//! [portable_config]
// 128 x 128 tiles, eight mma.sync consumer warps and one producer warp, 3 stages of 32 KiB: 97 KiB
// of shared memory with the alignment slack, within the 99 KiB a block may have on sm_120 (the RTX
// 50 series) and sm_89; the epilogue from registers.
using Portable = RingConfig<MmaSyncConsumer<128, 128>, 3, Epilogue::kRegisters>;
//! [portable_config]

// Rungs 3 and 4, and the later rungs' fallback when N % 8 != 0: the ring with two wgmma consumer
// warpgroups on 128 x 256 tiles and the epilogue from registers; the producer keeps 40 registers
// and the consumers get 232 (40 x 128 + 232 x 256 = 64512 of the SM's 65536).
using Specialized = RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kRegisters>;

}  // namespace

//! [headline]
// The lesson's headline, rung 6: tiles of 128 x 256, or of 192 x 160 where they fit the shape
// better (headline_tile_for), in bands of 16 tile rows. Stream-K for the last wave (the
// lab's "stream-K tail") measured slower on the H100 (the chapter has the figures): with it the
// schedule would read TileSchedule{TileOrder::kGrouped, 16, kStreamKTail}.
void hopper_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                 bf16* C) {
  const TileSchedule bands_of_16{TileOrder::kGrouped, 16};
  if (N % 8 != 0) {
    detail::registers_gemm("hopper_gemm", bands_of_16, M, N, K, alpha, A, B, beta, C);
  } else if (headline_tile_for(M, N, detail::sm_count()) == HeadlineTile::k192x160) {
    detail::gemm_192x160("hopper_gemm", bands_of_16, M, N, K, alpha, A, B, beta, C);
  } else {
    launch_ring<Headline>("hopper_gemm", &ring_gemm_kernel<Headline>, bands_of_16, M, N, K, alpha,
                          A, B, beta, C);
  }
}
//! [headline]

//! [portable]
void portable_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                   bf16* C) {
  launch_ring<Portable>("portable_gemm", &ring_gemm_kernel<Portable>,
                        TileSchedule{TileOrder::kGrouped, 16}, M, N, K, alpha, A, B, beta, C);
}
//! [portable]

namespace detail {
GemmParams make_params(int M, int N, int K, float alpha, float beta, bf16* C, int block_m,
                       int block_n, int consumer_warps) {
  GemmParams p;
  p.M = M, p.N = N, p.K = K, p.alpha = alpha, p.beta = beta, p.C = C;
  p.tiles_m = (M + block_m - 1) / block_m;
  p.tiles_n = (N + block_n - 1) / block_n;
  p.group = 8;
  p.stage_bytes = stage_tx_bytes(block_m, block_n, 64);
  p.empty_arrivals = empty_barrier_arrivals(consumer_warps);
  p.limit = wait_limit();
  return p;
}

void registers_gemm(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                    const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring<Specialized>(name, &ring_gemm_kernel<Specialized>, schedule, M, N, K, alpha, A, B,
                           beta, C);
}
Rung registers_gemm_rung(Rung r) {
  return describing<Specialized>(r);
}
Rung hopper_gemm_rung(Rung r) {
  return asking_for_either(with_register_fallback<Headline>(r), gemm_192x160_rung(r));
}
Rung portable_gemm_rung(Rung r) {
  r = describing<Portable>(r);
  r.min_cc = 90;
  r.max_cc = 0;
  r.cc_why = "TMA and mbarrier";
  return r;
}
}  // namespace detail

}  // namespace lesson11
