// Lesson 11: the rungs of the ladder, each a launcher of the configurations of ladder.cuh, and the
// table of them in order. Given code, compiled into both the exercise and the solution library;
// the kernels it launches are compiled in the instances*.cu files.
#include "ladder.cuh"
#include "tma_pipeline.hpp"

#include <vector>

namespace lesson11 {

#ifndef COURSE_QUICK
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
  launch_ring<Registers>("specialized_gemm", one_tile_per_block, M, N, K, alpha, A, B, beta, C);
}

void persistent_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                     bf16* C) {
  launch_ring<Registers>("persistent_gemm", TileSchedule{}, M, N, K, alpha, A, B, beta, C);
}
//! [specialized]

//! [staged_store]
void staged_store_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                       bf16* C) {
  launch_ring_for_n<StagedTile, Registers>("staged_store_gemm", TileSchedule{}, M, N, K, alpha, A,
                                           B, beta, C);
}
//! [staged_store]
#endif

//! [headline]
// The lesson's headline, rung 6: tiles of 128 x 256, or of 192 x 160 where they fit the shape
// better (headline_tile_for), in bands of 16 tile rows; from registers when N % 8 != 0.
void hopper_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                 bf16* C) {
  const TileSchedule bands_of_16{16};
  if (N % 8 != 0) {
    launch_ring<Registers>("hopper_gemm", bands_of_16, M, N, K, alpha, A, B, beta, C);
  } else if (headline_tile_for(M, N, detail::sm_count()) == HeadlineTile::k192x160) {
    launch_ring<Tile192x160>("hopper_gemm", bands_of_16, M, N, K, alpha, A, B, beta, C);
  } else {
    launch_ring<Headline>("hopper_gemm", bands_of_16, M, N, K, alpha, A, B, beta, C);
  }
}
//! [headline]

//! [portable]
void portable_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                   bf16* C) {
  launch_ring<Portable>("portable_gemm", TileSchedule{16}, M, N, K, alpha, A, B, beta, C);
}
//! [portable]

namespace {
// An entry of the table: rung `step`, a wgmma rung (compute capability 9.0, sm_90a code) until the
// entry says otherwise.
Rung rung(int step, const char* name, const char* what, Bf16Launcher run) {
  Rung r;
  r.name = name;
  r.what = what;
  r.step = step;
  r.run = run;
  r.min_cc = r.max_cc = 90;
  r.cc_why = "TMA, wgmma and setmaxnreg, compiled for sm_90a";
  return r;
}

// The portable rung runs wherever there is TMA.
Rung on_any_gpu_with_tma(Rung r) {
  r.min_cc = 90;
  r.max_cc = 0;
  r.cc_why = "TMA and mbarrier";
  return r;
}
}  // namespace

//! [rungs]
// Each rung with what its kernels ask of an SM. A save's grader (COURSE_QUICK) has the last two
// rungs alone: they run every function you write, and the others follow once they pass.
const std::vector<Rung>& rungs() {
  static const std::vector<Rung> ladder = {
#ifndef COURSE_QUICK
      describing<OneStage>(rung(1, "tma_wgmma_1stage_gemm", "TMA + mbarrier + wgmma, one stage",
                                &tma_wgmma_1stage_gemm),
                           0),
      describing<FourStages>(rung(2, "tma_wgmma_gemm", "4 stages in flight", &tma_wgmma_gemm), 0),
      describing<Registers>(
          rung(3, "specialized_gemm", "producer/consumer warpgroups, 128x256", &specialized_gemm)),
      describing<Registers>(
          rung(4, "persistent_gemm", "persistent grid, tiles in bands", &persistent_gemm)),
      describing_any<StagedTile, Registers>(rung(5, "staged_store_gemm",
                                                 "epilogue through shared memory + TMA store",
                                                 &staged_store_gemm)),
#endif
      describing_any<Headline, Tile192x160, Registers>(
          rung(6, "hopper_gemm", "4 stages, streamed stmatrix epilogue", &hopper_gemm)),
      describing<Portable>(on_any_gpu_with_tma(
          rung(7, "portable_gemm", "the ring with mma.sync consumers: any GPU with TMA",
               &portable_gemm))),
  };
  return ladder;
}
//! [rungs]

}  // namespace lesson11
