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

//! [configs]
// Rungs 1 and 2: one warpgroup loads and multiplies 64 x 128 tiles, with 1 or 4 stages.
using OneStage = TmaWgmmaConfig<128, 1>;
using FourStages = TmaWgmmaConfig<128, 4>;
// Rungs 3 and 4, and every later wgmma rung's fallback when N % 8 != 0: a producer warpgroup and
// two wgmma consumer warpgroups on 128 x 256 tiles, 4 stages of 48 KiB; from registers.
using Registers = RingConfig<Mainloop<WgmmaConsumer<128, 256>, 4>, RegistersEpilogue, WholeTiles>;
// Rung 5: the whole 64 KiB staging tile takes a stage's room: 3 stages.
using StagedTile = RingConfig<Mainloop<WgmmaConsumer<128, 256>, 3>, StagedTileEpilogue, WholeTiles>;
//! [configs]

//! [headline_config]
// The headline, rung 6: 4 stages of 48 KiB + 4 staging boxes of 8 KiB = 224 KiB.
using Headline = RingConfig<Mainloop<WgmmaConsumer<128, 256>, 4>, StreamedEpilogue<>, WholeTiles>;
//! [headline_config]

//! [config_192x160]
// The headline's second tile: three wgmma consumer warpgroups of 64 x 160 (80 accumulators a
// thread), 4 stages of 44 KiB and 6 staging boxes (slices 32 columns wide) = 224 KiB.
using Tile192x160 =
    RingConfig<Mainloop<WgmmaConsumer<192, 160, 3>, 4>, StreamedEpilogue<>, WholeTiles>;
//! [config_192x160]

//! [portable_config]
// 128 x 128 tiles, eight mma.sync consumer warps and one producer warp, 3 stages of 32 KiB: 97 KiB
// of shared memory with the alignment slack, within the 99 KiB a block may have on sm_120 (the RTX
// 50 series) and sm_89; the epilogue from registers.
using Portable = RingConfig<Mainloop<MmaSyncConsumer<128, 128>, 3>, RegistersEpilogue, WholeTiles>;
//! [portable_config]

//! [list]
// The list the build compiles (the record's configs table), a file a line: X(tag, launch, config).
// `quick` marks what the lesson's tests need on any GPU (rungs 6 and 7): a save grades with those
// alone, and with every line once they pass on a GPU.
#define LESSON11_CONFIGS(X)      \
  X(full, tma_wgmma, OneStage)   \
  X(full, tma_wgmma, FourStages) \
  X(quick, ring, Registers)      \
  X(full, ring, StagedTile)      \
  X(quick, ring, Headline)       \
  X(quick, ring, Tile192x160)    \
  X(quick, ring, Portable)
//! [list]

// A configuration's launch, compiled by the build's file of its line (instance.cuh), named here.
#define LESSON11_LAUNCH_ring(Cfg)                                                              \
  template void launch_ring<Cfg>(const char*, TileSchedule, int, int, int, float, const bf16*, \
                                 const bf16*, float, bf16*)
#define LESSON11_LAUNCH_tma_wgmma(Cfg)                                                             \
  template void launch_tma_wgmma<Cfg>(const char*, int, int, int, float, const bf16*, const bf16*, \
                                      float, bf16*)
#define LESSON11_EXTERN(tag, launch, Cfg) extern LESSON11_LAUNCH_##launch(Cfg);
LESSON11_CONFIGS(LESSON11_EXTERN)
#undef LESSON11_EXTERN

}  // namespace lesson11
