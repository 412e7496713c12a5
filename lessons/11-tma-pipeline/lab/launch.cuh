// Lesson 11's lab: the launch of its configurations, the ladder's (ring_gemm.cuh: launch_ring) with
// what only the lab needs: clusters, the run-time tile order, and stream-K's plan and workspace.
#pragma once

#include "policies.cuh"
#include "ring_gemm.cuh"
#include "stream_k.hpp"
#include "tile_orders.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace lesson11::lab {

/// How a launcher of the lab asks a persistent kernel to walk its tiles.
struct Schedule {
  TileOrder order = TileOrder::kGrouped;
  int group = 8;  ///< tile rows per band, for TileOrder::kGrouped
  /// 0: whole tiles only. n > 0: split the last wave's tiles along K (stream-K, stream_k.hpp) when
  /// that shortens the busiest block by at least n k-blocks (kStreamKTail, kStreamKAlways).
  int stream_k = 0;
  /// With stream-K: the last full wave is split along with the partial one (stream_k_plan).
  bool stream_k_full_wave = true;
  /// A persistent grid (as many blocks or clusters as are resident at once), or one per tile.
  bool persistent = true;
};

/// The workspace for a launch (grown when a launch needs more), with a new epoch: `slots` tiles of
/// `slot_floats` FP32 sums and `flags` flags (stream_k_workspace.cu).
StreamKWorkspace stream_k_workspace(int slots, int slot_floats, int flags);

/// The cluster's shape along M and N: 1 x 1 for a mainloop of the ladder.
template <class ML, class = void>
struct ClusterShape {
  static constexpr int m = 1, n = 1;
};
template <class ML>
struct ClusterShape<ML, std::void_t<decltype(ML::kClusterM)>> {
  static constexpr int m = ML::kClusterM, n = ML::kClusterN;
};

//! [lab_launch]
/// Launches `kernel`, compiled for `Cfg` (ring_gemm_kernel<Cfg>, or the ping-pong kernel), whose
/// tile source is a StreamKTiles: one block (cluster) per cluster tile, or (`schedule.persistent`)
/// as many as are resident at once, walking the tiles as `schedule` says. A cluster of two along M
/// multicasts B, so B's boxes are half as tall; along N, A's.
template <class Cfg, class Kernel>
void launch(const char* name, Kernel kernel, Schedule schedule, int M, int N, int K, float alpha,
            const bf16* A, const bf16* B, float beta, bf16* C) {
  using ML = typename Cfg::Mainloop;
  using Epilogue = typename Cfg::Epilogue;
  constexpr int CM = ClusterShape<ML>::m, CN = ClusterShape<ML>::n, CL = ML::kCluster;
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  require_ready<Cfg>(name);
  const int tiles_m = (M + Cfg::kBlockM - 1) / Cfg::kBlockM;
  const int tiles_n = (N + Cfg::kBlockN - 1) / Cfg::kBlockN;
  const int grid_m = (tiles_m + CM - 1) / CM, grid_n = (tiles_n + CN - 1) / CN;
  const int k_blocks = (K + Cfg::kBlockK - 1) / Cfg::kBlockK;
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = CL;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.blockDim = dim3(Cfg::kThreads);
  config.dynamicSmemBytes = Cfg::kSmemBytes;
  config.attrs = CL > 1 ? &cluster : nullptr;
  config.numAttrs = CL > 1 ? 1 : 0;
  // The clusters that can be resident at once. A cluster's blocks must sit in one GPC, so on a
  // GPC with an odd number of free SMs one stays idle.
  int resident = 0;
  if constexpr (CL == 1) {
    resident = resident_blocks<Cfg>(name, kernel);
  } else {
    static const int clusters = [&] {
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      Cfg::kSmemBytes));
      cudaLaunchConfig_t probe = config;
      probe.gridDim = dim3(detail::sm_count() / CL * CL);
      int n = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveClusters(&n, kernel, &probe));
      return n > 0 ? n : detail::sm_count() / CL;
    }();
    resident = clusters;
  }
  const int blocks = schedule.persistent ? resident : grid_m * grid_n;
  typename Cfg::Params p = make_params<Cfg>(Problem{M, N, K, alpha, beta, C}, blocks, 8);
  auto& plan = p.tiles;
  plan.tiles_m = grid_m, plan.tiles_n = grid_n;
  plan.order = schedule.order;
  plan.group = std::max(1, schedule.group / CM);  // bands counted in cluster tiles
  plan.sk = schedule.stream_k > 0 ? stream_k_plan(grid_m * grid_n, k_blocks, blocks,
                                                  schedule.stream_k, schedule.stream_k_full_wave)
                                  : whole_tiles_plan(grid_m * grid_n, k_blocks, blocks);
  plan.grid = plan.sk.grid;
  if (plan.sk.sk_iters > 0) {
    //! [stream_k_launch]
    // The finisher of a split tile waits, spinning, for the other pieces' flags: it would wait
    // forever for a block that cannot start until the finisher's block exits. Every block of the
    // grid must therefore be resident at once, which the plan's grid (at most `resident`) is.
    if (!Cfg::TileSource::kJoinsSplits || plan.sk.grid > resident) {
      throw std::logic_error(std::string(name) +
                             ": stream-K needs a kernel that joins split tiles and all " +
                             std::to_string(plan.sk.grid) + " of its blocks (clusters) resident " +
                             "at once; " + std::to_string(resident) + " fit");
    }
    plan.ws = stream_k_workspace(plan.sk.grid * CL, Cfg::kBlockM * Cfg::kBlockN, plan.sk.grid * CL);
    //! [stream_k_launch]
  }
  const CUtensorMap& map_a = *detail::tensor_map(A, M, K, Cfg::kBlockM / CN, Cfg::kBlockK);
  const CUtensorMap& map_b = *detail::tensor_map(B, N, K, Cfg::kBlockN / CM, Cfg::kBlockK);
  const CUtensorMap* map_c = &map_a;
  if constexpr (Epilogue::kTmaStore) {
    map_c = detail::tensor_map(C, M, N, Epilogue::kStoreRows,
                               Epilogue::template kStoreCols<Cfg::kBlockN>);
  }
  config.gridDim = dim3(plan.sk.grid * CL);
  CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, map_a, map_b, *map_c, p));
  CHECK_LAUNCH();
}
//! [lab_launch]

/// launch() of ring_gemm_kernel for `WithTmaStore` when N % 8 == 0, else for its twin with the
/// epilogue from registers.
template <class WithTmaStore, class WithRegisterEpilogue>
void launch_for_n(const char* name, Schedule schedule, int M, int N, int K, float alpha,
                  const bf16* A, const bf16* B, float beta, bf16* C) {
  if (N % 8 == 0) {
    launch<WithTmaStore>(name, &ring_gemm_kernel<WithTmaStore>, schedule, M, N, K, alpha, A, B,
                         beta, C);
  } else {
    launch<WithRegisterEpilogue>(name, &ring_gemm_kernel<WithRegisterEpilogue>, schedule, M, N, K,
                                 alpha, A, B, beta, C);
  }
}

}  // namespace lesson11::lab
