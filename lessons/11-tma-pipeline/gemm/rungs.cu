// Lesson 11: the rungs of the ladder, each a launcher of the configurations of ladder.cuh, and the
// table of them in order. Given code, compiled into both the exercise and the solution library; it
// does not include yours, and the kernels it launches are compiled in the build's files of their
// configurations.
// The kernels' headers declare your functions (your_functions.hpp); this file compiles no kernel,
// so it never needs their bodies, and nvcc's note that they are not defined here says nothing.
#pragma nv_diag_suppress 821

#include "ladder.cuh"
#include "tma_pipeline.hpp"

#include "built_configs.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace lesson11 {

// Rungs 1 to 5. Templates (of nothing): each is compiled only where the table names it, and the
// table names a rung only where this library compiled its kernels (a save's grader: rungs 6 and 7
// alone).

// Rung 1: TMA + wgmma, 64 x 128 tiles, one stage: load, wait, multiply, repeat.
template <class = void>
void tma_wgmma_1stage_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B,
                           float beta, bf16* C) {
  launch_tma_wgmma<OneStage>("tma_wgmma_1stage_gemm", M, N, K, alpha, A, B, beta, C);
}

// Rung 2: the same with 4 stages: TMA runs up to 4 k-blocks ahead of the math.
template <class = void>
void tma_wgmma_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                    bf16* C) {
  launch_tma_wgmma<FourStages>("tma_wgmma_gemm", M, N, K, alpha, A, B, beta, C);
}

//! [specialized]
// Rung 3: a producer warpgroup and two consumer warpgroups (128 x 256 tiles), a ring of 4
// stages with full and empty barriers, setmaxnreg; one tile per block.
template <class = void>
void specialized_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                      bf16* C) {
  const TileSchedule one_tile_per_block{8, false};
  launch_ring<Registers>("specialized_gemm", one_tile_per_block, M, N, K, alpha, A, B, beta, C);
}

// Rung 4: rung 3 on a persistent grid (one block per SM) walking the tiles in bands of 8 tile
// rows, 4 stages; epilogue from registers.
template <class = void>
void persistent_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                     bf16* C) {
  launch_ring<Registers>("persistent_gemm", TileSchedule{}, M, N, K, alpha, A, B, beta, C);
}
//! [specialized]

//! [staged_store]
// Rung 5: rung 4 with the epilogue through shared memory and a TMA store (3 stages, to make room
// for the whole 64 KiB staging tile) when N % 8 == 0, and from registers otherwise: the TMA store
// needs a 16-byte row stride for C's tensor map.
template <class = void>
void staged_store_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                       bf16* C) {
  if (N % 8 == 0) {
    launch_ring<StagedTile>("staged_store_gemm", TileSchedule{}, M, N, K, alpha, A, B, beta, C);
  } else {
    launch_ring<Registers>("staged_store_gemm", TileSchedule{}, M, N, K, alpha, A, B, beta, C);
  }
}
//! [staged_store]

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
// Whether this library compiled configuration T (built_configs.hpp: every line of LESSON11_CONFIGS,
// or a save's grader's quick ones).
#define LESSON11_IS(tag, Kind, Name, ...) std::is_same_v<T, Name> ||
template <class T>
constexpr bool kBuilt = COURSE_BUILT_CONFIGS(LESSON11_IS) false;
#undef LESSON11_IS

/// An entry of the table: rung `step`, a wgmma rung (compute capability 9.0, sm_90a code) unless
/// `portable` (any GPU with TMA), with what its kernels (the configurations Cfgs) ask of an SM, for
/// the tables: the most threads and shared memory of any, and the __launch_bounds__ promise of
/// blocks per SM (the ring's kernels: one; rungs 1 and 2's kernel promises none, 0).
template <class... Cfgs>
Rung rung(int step, const char* name, const char* what, Bf16Launcher run, int min_blocks = 1,
          bool portable = false) {
  Rung r;
  r.name = name;
  r.what = what;
  r.step = step;
  r.run = run;
  r.min_cc = 90;
  r.max_cc = portable ? 0 : 90;
  r.cc_why = portable ? "TMA and mbarrier" : "TMA, wgmma and setmaxnreg, compiled for sm_90a";
  r.threads = std::max({Cfgs::kThreads...});
  r.smem_bytes = static_cast<std::size_t>(std::max({Cfgs::kSmemBytes...}));
  r.min_blocks = min_blocks;
  return r;
}

//! [rungs]
// Each rung with what its kernels ask of an SM, where this library compiled them all. `Dep` is
// void: it makes each rung's launcher depend on the template, so that a rung left out is never
// compiled.
template <class Dep>
std::vector<Rung> ladder_of() {
  std::vector<Rung> ladder;
  if constexpr (kBuilt<OneStage>) {
    ladder.push_back(rung<OneStage>(1, "tma_wgmma_1stage_gemm", "TMA + mbarrier + wgmma, one stage",
                                    &tma_wgmma_1stage_gemm<Dep>, 0));
  }
  if constexpr (kBuilt<FourStages>) {
    ladder.push_back(
        rung<FourStages>(2, "tma_wgmma_gemm", "4 stages in flight", &tma_wgmma_gemm<Dep>, 0));
  }
  if constexpr (kBuilt<Registers>) {
    ladder.push_back(rung<Registers>(3, "specialized_gemm", "producer/consumer warpgroups, 128x256",
                                     &specialized_gemm<Dep>));
    ladder.push_back(rung<Registers>(4, "persistent_gemm", "persistent grid, tiles in bands",
                                     &persistent_gemm<Dep>));
  }
  if constexpr (kBuilt<StagedTile> && kBuilt<Registers>) {
    ladder.push_back(rung<StagedTile, Registers>(5, "staged_store_gemm",
                                                 "epilogue through shared memory + TMA store",
                                                 &staged_store_gemm<Dep>));
  }
  ladder.push_back(rung<Headline, Tile192x160, Registers>(
      6, "hopper_gemm", "4 stages, streamed stmatrix epilogue", &hopper_gemm));
  ladder.push_back(rung<Portable>(7, "portable_gemm",
                                  "the ring with mma.sync consumers: any GPU with TMA",
                                  &portable_gemm, 1, true));
  return ladder;
}
//! [rungs]
}  // namespace

const std::vector<Rung>& rungs() {
  static const std::vector<Rung> ladder = ladder_of<void>();
  return ladder;
}

}  // namespace lesson11
