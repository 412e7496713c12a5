// Lesson 11's lab: rung 5's configuration of the ring (gemm/ring_gemm.cuh) in other forms, and the
// table of every variant of the lab, built with the reference solution (lab.hpp).
#include "lab.hpp"
#include "launch.cuh"
#include "policies.cuh"
#include "ring_gemm.cuh"
#include "stream_k.hpp"

#include <vector>

namespace lesson11::lab {

namespace {

//! [lab_specialized_configs]
// Rung 5's configurations (and its register epilogue's), as types of the lab's own.
using Deep = Mainloop<WgmmaConsumer<128, 256>, 4>;
using Shallow = Mainloop<WgmmaConsumer<128, 256>, 3>;
struct LabSpecialized : RingConfig<Deep, RegistersEpilogue, StreamKTiles<false>> {};
struct LabStagedStore : RingConfig<Shallow, StagedTileEpilogue, StreamKTiles<false>> {};
// Rung 5 on clusters of two tiles adjacent along M, which share B by TMA multicast.
struct Clustered : RingConfig<Multicast<Shallow, 2, 1>, StagedTileEpilogue, StreamKTiles<false>> {};
struct ClusteredDirect : RingConfig<Multicast<Deep, 2, 1>, RegistersEpilogue, StreamKTiles<false>> {
};
// The same, waiting with test_wait in a loop (never suspended) instead of try_wait.
struct ClusteredPoll
    : RingConfig<Polling<Multicast<Shallow, 2, 1>>, StagedTileEpilogue, StreamKTiles<false>> {};
struct ClusteredPollDirect
    : RingConfig<Polling<Multicast<Deep, 2, 1>>, RegistersEpilogue, StreamKTiles<false>> {};
//! [lab_specialized_configs]

// A variant of the sweep: a launcher that takes a schedule, with the schedule given.
template <ScheduledLauncher kLauncher, TileOrder kOrder, int kGroup = 8, int kStreamK = 0,
          bool kFullWave = true>
void scheduled(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
               bf16* C) {
  kLauncher(Schedule{kOrder, kGroup, kStreamK, kFullWave}, M, N, K, alpha, A, B, beta, C);
}

// An entry of the table of variants. Code compiled for sm_90a runs on compute capability 9.0
// alone.
Rung variant(const char* name, const char* what, Bf16Launcher run) {
  Rung r;
  r.name = name;
  r.what = what;
  r.step = 0;
  r.swept = true;
  r.run = run;
  r.min_cc = r.max_cc = 90;
  r.cc_why = "TMA, wgmma and setmaxnreg, compiled for sm_90a";
  return r;
}

}  // namespace

void staged_store_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                       const bf16* B, float beta, bf16* C) {
  launch_for_n<LabStagedStore, LabSpecialized>("lab staged_store_gemm", schedule, M, N, K, alpha, A,
                                               B, beta, C);
}

void staged_store_one_tile_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B,
                                float beta, bf16* C) {
  Schedule one_tile_per_block;
  one_tile_per_block.persistent = false;
  launch_for_n<LabStagedStore, LabSpecialized>("staged_store_one_tile", one_tile_per_block, M, N, K,
                                               alpha, A, B, beta, C);
}

void clustered_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                    bf16* C) {
  launch_for_n<Clustered, ClusteredDirect>("clustered_gemm", Schedule{}, M, N, K, alpha, A, B, beta,
                                           C);
}

void clustered_poll_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                         bf16* C) {
  launch_for_n<ClusteredPoll, ClusteredPollDirect>("clustered_poll", Schedule{}, M, N, K, alpha, A,
                                                   B, beta, C);
}

//! [variants]
const std::vector<Rung>& variants() {
  static const std::vector<Rung> list = {
      variant("clustered_gemm", "clusters of 2 sharing B by TMA multicast", &clustered_gemm),
      variant("clustered, polling waits", "clustered_gemm waiting with test_wait, never suspended",
              &clustered_poll_gemm),
      variant("staged_store_gemm, one tile per block", "rung 5 without the persistent grid",
              &staged_store_one_tile_gemm),
      variant("staged_store_gemm, Hilbert order", "rung 5 walking its tiles along a Hilbert curve",
              &scheduled<staged_store_gemm, TileOrder::kHilbert>),
      variant("staged_store_gemm, bands of 16", "rung 5 in bands of 16 tile rows instead of 8",
              &scheduled<staged_store_gemm, TileOrder::kGrouped, 16>),
      variant("coop 128x256 s4 st.shared",
              "4 stages; epilogue streamed per warp through 2 x 8 KiB of staging per consumer",
              &scheduled<cooperative_st_shared_gemm, TileOrder::kGrouped>),
      variant("coop 128x256 s4 stmatrix", "the same, staging written with stmatrix",
              &scheduled<cooperative_gemm, TileOrder::kGrouped>),
      variant("coop 128x256 s4 stmatrix, bands of 16", "the same in bands of 16 tile rows",
              &scheduled<cooperative_gemm, TileOrder::kGrouped, 16>),
      variant("coop 128x256 s4 stmatrix, bands of 16, stagger 1200",
              "the second consumer starts 1200 cycles (about 2 k-blocks) after the first",
              &scheduled<cooperative_staggered_gemm, TileOrder::kGrouped, 16>),
      variant("coop 128x256 s4 stmatrix, Hilbert", "the same along a Hilbert curve",
              &scheduled<cooperative_gemm, TileOrder::kHilbert>),
      variant("coop 128x256 s4 stmatrix, stream-K tail",
              "bands of 8; the last two waves' tiles split along K over every block",
              &scheduled<cooperative_gemm, TileOrder::kGrouped, 8, kStreamKTail>),
      variant("coop 128x256 s4 stmatrix, stream-K tail, bands of 16",
              "the same in bands of 16 tile rows (hopper_gemm)",
              &scheduled<cooperative_gemm, TileOrder::kGrouped, 16, kStreamKTail>),
      variant("coop 128x256 s4 stmatrix, stream-K partial wave only",
              "bands of 16; the full waves stay whole, a tile in up to three pieces",
              &scheduled<cooperative_gemm, TileOrder::kGrouped, 16, kStreamKTail, false>),
      variant("coop 128x256 s4 stmatrix, stream-K always",
              "bands of 16; split whenever it shortens the busiest block at all",
              &scheduled<cooperative_gemm, TileOrder::kGrouped, 16, kStreamKAlways>),
      variant("coop 192x160 s4 stmatrix, bands of 16",
              "three consumers of 64 x 160: cuBLAS's tile at 4000^3, here at every shape",
              &scheduled<cooperative_192x160_gemm, TileOrder::kGrouped, 16>),
      variant("coop 128x256 s4 multicast B", "clusters of 2 along M sharing B by TMA multicast",
              &scheduled<cooperative_multicast_b_gemm, TileOrder::kGrouped>),
      variant("coop 128x256 s4 multicast B, Hilbert", "the same, clusters along a Hilbert curve",
              &scheduled<cooperative_multicast_b_gemm, TileOrder::kHilbert>),
      variant("coop 256x128 s4 stmatrix",
              "cuBLAS's tile: each consumer 128 x 128, two m64n128 wgmmas",
              &scheduled<cooperative_256x128_gemm, TileOrder::kGrouped>),
      variant("coop 256x128 s4 stmatrix, Hilbert", "the same along a Hilbert curve",
              &scheduled<cooperative_256x128_gemm, TileOrder::kHilbert>),
      variant("coop 256x128 s4 multicast A", "clusters of 2 along N sharing A by TMA multicast",
              &scheduled<cooperative_256x128_multicast_a_gemm, TileOrder::kGrouped>),
      variant("coop 256x128 s4 multicast A, Hilbert", "the same, clusters along a Hilbert curve",
              &scheduled<cooperative_256x128_multicast_a_gemm, TileOrder::kHilbert>),
      variant(
          "coop 256x128 s4 multicast A, stream-K tail",
          "bands of 8; the clusters split the last wave's cluster tiles along K",
          &scheduled<cooperative_256x128_multicast_a_gemm, TileOrder::kGrouped, 8, kStreamKTail>),
      variant("coop 256x128 s4 multicast B", "clusters of 2 along M sharing B by TMA multicast",
              &scheduled<cooperative_256x128_multicast_b_gemm, TileOrder::kGrouped>),
      variant("pingpong 128x128 s6 stmatrix",
              "consumers on alternate tiles, epilogue under the other's K loop",
              &scheduled<pingpong_gemm, TileOrder::kGrouped>),
      variant("pingpong 128x128 s6 stmatrix, bands of 16", "the same in bands of 16 tile rows",
              &scheduled<pingpong_gemm, TileOrder::kGrouped, 16>),
      variant("pingpong 128x128 s6 stmatrix, Hilbert", "the same along a Hilbert curve",
              &scheduled<pingpong_gemm, TileOrder::kHilbert>),
  };
  return list;
}
//! [variants]
}  // namespace lesson11::lab
