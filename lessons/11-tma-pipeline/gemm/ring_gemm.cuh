// Lesson 11: the warp-specialized GEMM, written once, and its launch. A producer drives TMA into a
// ring of shared-memory stages; consumer warps multiply out of it. Rungs 3 to 7 and the lab's
// variants are instances of this one kernel, which names three policies:
//   - the mainloop (mainloop.cuh): the consumers' math (wgmma warpgroups on sm_90a, or mma.sync
//     warps that read the swizzled tiles with ldmatrix on any GPU with TMA) and the ring's stages;
//   - the epilogue (epilogue.cuh): from registers, through a whole staging tile and TMA stores, or
//     streamed per warp through two small staging boxes;
//   - the tile source (tile_source.hpp): which tiles each block computes, in which order.
// The ring itself takes its protocol from pipeline_exercises.cuh (yours).
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "launch_support.hpp"
#include "mainloop.cuh"
#include "your_functions.hpp"
#include "ring_storage.cuh"
#include "tile_source.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/library.hpp"  // COURSE_LIBRARY

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lesson11 {
inline namespace COURSE_LIBRARY {  // compiled with your functions (common/library.hpp)

using course::bf16;

//! [ring_config]
/// One instance of the warp-specialized kernel: its three policies, and what follows from them.
/// \tparam MAINLOOP Mainloop<Consumer, Stages> (mainloop.cuh): the consumers' math and the ring
/// \tparam EPILOGUE RegistersEpilogue, StagedTileEpilogue or StreamedEpilogue<> (epilogue.cuh)
/// \tparam TILE_SOURCE WholeTiles (tile_source.hpp), or a tile source of the lab
template <class MAINLOOP, class EPILOGUE, class TILE_SOURCE = WholeTiles>
struct RingConfig {
  using Mainloop = MAINLOOP;
  using Epilogue = EPILOGUE;
  using TileSource = TILE_SOURCE;
  using Consumer = typename Mainloop::Consumer;
  static constexpr int kBlockM = Mainloop::kBlockM, kBlockN = Mainloop::kBlockN;
  static constexpr int kBlockK = Mainloop::kBlockK, kStages = Mainloop::kStages;
  static constexpr bool kWgmma = Consumer::kWgmma;
  static constexpr int kReleasingWarps = Mainloop::kReleasingWarps;
  static constexpr int kThreads = Consumer::kProducerThreads + 32 * Consumer::kConsumerWarps;
  /// The kernel's parameter: the problem and each policy's part (the epilogue reads the problem).
  struct Params {
    Problem problem;
    RingParams mainloop;
    typename TileSource::Params tiles;
  };
  using Storage = RingStorage<Mainloop, typename Epilogue::template Staging<Consumer>>;
  static constexpr int kSmemBytes = dynamic_smem_bytes<Storage>();
  static_assert(kSmemBytes <= kMaxDynamicSmem, "the ring and the staging boxes exceed 227 KiB");
};
//! [ring_config]

//! [ring_kernel]
/// For each work unit the tile source gives the block: the mainloop's k-loop, the tile source's
/// fix-up (nothing, for whole tiles), the epilogue.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    ring_gemm_kernel(const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b,
                     const __grid_constant__ CUtensorMap map_c, const typename Cfg::Params p) {
  using ML = typename Cfg::Mainloop;
  using Epilogue = typename Cfg::Epilogue;
  using Source = typename Cfg::TileSource;
  using Consumer = typename Cfg::Consumer;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  // The source deals out tiles to walkers: blocks, or the clusters of blocks that share a stage.
  const int rank = ML::rank();
  const int walker = blockIdx.x / ML::kCluster;

  ring_init<ML>(st.barriers, p.mainloop);

  if (threadIdx.x < Consumer::kProducerThreads) {
    ML::producer_starts();
    if (threadIdx.x == 0) {
      ptx::prefetch_tensor_map(&map_a);
      ptx::prefetch_tensor_map(&map_b);
      int it = 0;  // k-blocks loaded so far, over every unit of this block
      for (int u = 0;; ++u) {
        const WorkUnit w = Source::unit(p.tiles, walker, u);
        if (w.tile < 0) break;
        const TileCoord tile = ML::block_tile(Source::tile(p.tiles, w.tile), rank);
        produce<ML>(st.stages, st.barriers, &map_a, &map_b, p.mainloop, tile, w.k_begin, w.k_end,
                    it, rank);
      }
    }
  } else {
    ML::consumer_starts();
    const int thread = threadIdx.x - Consumer::kProducerThreads;  // among the consumers' threads
    const int cwarp = thread / 32, lane = thread % 32;            // the consumer warp, its lane
    int it = 0;  // k-blocks consumed so far, counted exactly as the producer counts them
    typename Epilogue::State state;
    for (int u = 0;; ++u) {
      const WorkUnit w = Source::unit(p.tiles, walker, u);
      if (w.tile < 0) break;
      const TileCoord tile = ML::block_tile(Source::tile(p.tiles, w.tile), rank);
      typename Consumer::Accum acc;
      consume<ML>(st.stages, st.barriers, acc, it, w.k_end - w.k_begin, cwarp, lane, rank,
                  p.mainloop.limit);
      if (!Source::template fix_up<ML>(acc, p.tiles, w, walker, rank, thread, p.mainloop.limit)) {
        continue;  // a piece of a tile another block finishes
      }
      Epilogue::template store<Consumer>(st.staging, state, acc, p.problem, &map_c,
                                         tile.m * Cfg::kBlockM, tile.n * Cfg::kBlockN, cwarp, lane);
    }
    Epilogue::finish(lane);
  }
  ML::finish();
}
//! [ring_kernel]

// ---- the launch ---------------------------------------------------------------------------------
//! [ring_check]
/// Before a first launch of Cfg's kernel: the GPU can run it (Cfg::kWgmma: compute capability 9.0
/// and sm_90a code; else any GPU with TMA), and the ring's protocol is sound: your stage_tx_bytes
/// announces the bytes of the stage's two TMA boxes, and your three ring functions play through
/// the CPU model (ring_model.hpp). A protocol mistake is then an error message, not a hung GPU.
template <class Cfg>
void require_ready(const char* kernel) {
  static const std::string why = [] {
    (void)make_smem_descriptor(0);  // a stub says "not implemented" here, on the host
    // The protocol this kernel is compiled with: that of the pipeline_exercises.cuh included here.
    const detail::YourRing yours{[](int it, int stages) { return producer_slot(it, stages); },
                                 [](int it, int stages) { return consumer_slot(it, stages); },
                                 [](int warps) { return empty_barrier_arrivals(warps); },
                                 stage_tx_bytes(Cfg::kBlockM, Cfg::kBlockN, 64)};
    return detail::ring_error(yours, Cfg::kBlockM, Cfg::kBlockN, Cfg::kStages,
                              Cfg::kReleasingWarps);
  }();
  detail::require_ready(kernel, Cfg::kWgmma, why);
}
//! [ring_check]

/// The ring's counts from your functions, and the bound on its waits.
template <class Cfg>
RingParams ring_params() {
  return RingParams{stage_tx_bytes(Cfg::kBlockM, Cfg::kBlockN, Cfg::kBlockK),
                    empty_barrier_arrivals(Cfg::kReleasingWarps), detail::wait_limit()};
}

/// The kernel's parameters for `problem`: the ring's, and the tile source's plan for `blocks`
/// blocks (at most) walking the tiles in bands of `group`.
template <class Cfg>
typename Cfg::Params make_params(const Problem& problem, int blocks, int group) {
  typename Cfg::Params p;
  p.problem = problem;
  p.mainloop = ring_params<Cfg>();
  const int tiles_m = (problem.M + Cfg::kBlockM - 1) / Cfg::kBlockM;
  const int tiles_n = (problem.N + Cfg::kBlockN - 1) / Cfg::kBlockN;
  const int k_blocks = (problem.K + Cfg::kBlockK - 1) / Cfg::kBlockK;
  p.tiles = Cfg::TileSource::plan(tiles_m, tiles_n, k_blocks, blocks, group);
  return p;
}

//! [resident_grid]
/// Once per kernel: its shared memory allowed, and the blocks of it that can be resident at once.
/// One block per SM: the shared memory allows no more.
template <class Cfg, class Kernel>
int resident_blocks(const char* name, Kernel kernel) {
  static const int resident = [&] {
    CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes));
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Cfg::kThreads,
                                                             Cfg::kSmemBytes));
    return (per_sm > 0 ? 1 : 0) * detail::sm_count();
  }();
  if (resident < 1) {
    throw std::runtime_error(std::string(name) + ": a block of " + std::to_string(Cfg::kThreads) +
                             " threads and " + std::to_string(Cfg::kSmemBytes) +
                             " bytes of shared memory does not fit on an SM of this GPU");
  }
  return resident;
}
//! [resident_grid]

//! [launch_ring]
/// Launches ring_gemm_kernel<Cfg>: one block per tile, or (`schedule.persistent`) as many blocks as
/// are resident at once, each walking many tiles, in bands of `schedule.group` tile rows. The
/// epilogue's TMA stores write C through a map of their own box.
template <class Cfg>
void launch_ring(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                 const bf16* A, const bf16* B, float beta, bf16* C) {
  using Epilogue = typename Cfg::Epilogue;
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  require_ready<Cfg>(name);
  const auto kernel = &ring_gemm_kernel<Cfg>;
  const int resident = resident_blocks<Cfg>(name, kernel);
  const int tiles =
      ((M + Cfg::kBlockM - 1) / Cfg::kBlockM) * ((N + Cfg::kBlockN - 1) / Cfg::kBlockN);
  //! [persistent_grid]
  // Persistent: at most one block per SM, each walking many tiles; else one per tile.
  const int blocks = schedule.persistent ? resident : tiles;
  const typename Cfg::Params p =
      make_params<Cfg>(Problem{M, N, K, alpha, beta, C}, blocks, schedule.group);
  //! [persistent_grid]
  const CUtensorMap& map_a = *detail::tensor_map(A, M, K, Cfg::kBlockM, Cfg::kBlockK);
  const CUtensorMap& map_b = *detail::tensor_map(B, N, K, Cfg::kBlockN, Cfg::kBlockK);
  // The TMA store's map needs a row stride that is a multiple of 16 bytes (N % 8 == 0); the
  // kernel without a TMA store never reads it, and gets A's map in its place.
  const CUtensorMap* map_c = &map_a;
  if constexpr (Epilogue::kTmaStore) {
    map_c = detail::tensor_map(C, M, N, Epilogue::kStoreRows,
                               Epilogue::template kStoreCols<Cfg::kBlockN>);
  }
  kernel<<<p.tiles.grid, Cfg::kThreads, Cfg::kSmemBytes>>>(map_a, map_b, *map_c, p);
  CHECK_LAUNCH();
}
//! [launch_ring]

}  // namespace COURSE_LIBRARY
}  // namespace lesson11
