// Lesson 11: the configurations the ladder launches, one line each: a kernel and its policies, and
// the list of them the build compiles (LESSON11_CONFIGS, a file a line). The rungs (rungs.cu) only
// name them.
#pragma once

#include "epilogue.cuh"
#include "mainloop.cuh"
#include "ring_gemm.cuh"
#include "tile_source.hpp"
#include "tma_wgmma_gemm.cuh"

namespace lesson11 {

//! [list]
// Every configuration the ladder launches, one line each: X(tag, Kind, Name, its policies...).
// Kind<policies...> is the configuration: TmaWgmmaConfig<BN, Stages> (rungs 1 and 2's kernel) or
// RingConfig<Mainloop, Epilogue> (the warp-specialized kernel, tile source WholeTiles). The build
// compiles each line in a file of its own; `quick` marks what the lesson's tests need on any GPU
// (rungs 6 and 7): a save grades with those alone, and with every line once they pass on a GPU.
//   OneStage, FourStages: rungs 1 and 2, one warpgroup on 64 x 128 tiles, 1 or 4 stages.
//   Registers: rungs 3 and 4, and every later wgmma rung's fallback when N % 8 != 0: a producer
//     warpgroup and two wgmma consumer warpgroups on 128 x 256 tiles, 4 stages of 48 KiB.
//   StagedTile: rung 5: the whole 64 KiB staging tile takes a stage's room: 3 stages.
//   Headline: rung 6: 4 stages of 48 KiB + 4 staging boxes of 8 KiB = 224 KiB.
//   Tile192x160: the headline's second tile: three consumer warpgroups of 64 x 160 (80
//     accumulators a thread), 4 stages of 44 KiB and 6 staging boxes (slices 32 columns wide).
//   Portable: rung 7: eight mma.sync consumer warps and one producer warp on 128 x 128 tiles, 3
//     stages of 32 KiB: 97 KiB with the alignment slack, within the 99 KiB a block may have on
//     sm_120 (the RTX 50 series) and sm_89.
#define LESSON11_CONFIGS(X)                                                                      \
  X(full, TmaWgmmaConfig, OneStage, 128, 1)                                                      \
  X(full, TmaWgmmaConfig, FourStages, 128, 4)                                                    \
  X(quick, RingConfig, Registers, Mainloop<WgmmaConsumer<128, 256>, 4>, RegistersEpilogue)       \
  X(full, RingConfig, StagedTile, Mainloop<WgmmaConsumer<128, 256>, 3>, StagedTileEpilogue)      \
  X(quick, RingConfig, Headline, Mainloop<WgmmaConsumer<128, 256>, 4>, StreamedEpilogue<>)       \
  X(quick, RingConfig, Tile192x160, Mainloop<WgmmaConsumer<192, 160, 3>, 4>, StreamedEpilogue<>) \
  X(quick, RingConfig, Portable, Mainloop<MmaSyncConsumer<128, 128>, 3>, RegistersEpilogue)
//! [list]

// Each line's configuration, and its launch, compiled by the build's file of the line
// (instance.cuh) and named here.
#define LESSON11_LAUNCH_RingConfig(Cfg)                                                        \
  template void launch_ring<Cfg>(const char*, TileSchedule, int, int, int, float, const bf16*, \
                                 const bf16*, float, bf16*)
#define LESSON11_LAUNCH_TmaWgmmaConfig(Cfg)                                                        \
  template void launch_tma_wgmma<Cfg>(const char*, int, int, int, float, const bf16*, const bf16*, \
                                      float, bf16*)
#define LESSON11_DECLARE(tag, Kind, Name, ...) \
  using Name = Kind<__VA_ARGS__>;              \
  extern LESSON11_LAUNCH_##Kind(Name);
LESSON11_CONFIGS(LESSON11_DECLARE)
#undef LESSON11_DECLARE

}  // namespace lesson11
