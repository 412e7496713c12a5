// Lesson 11: launching the persistent kernels with a streamed epilogue (cooperative_gemm.cuh,
// pingpong_gemm.cuh): one block per SM, or as many clusters of two as fit at once, walking whole
// tiles or, for the cooperative kernel, splitting the last wave's tiles along K (stream_k.hpp).
// Given code, included by the files that compile the variants' launchers with *your*
// pipeline_exercises.cuh.
#pragma once

#include "cooperative_gemm.cuh"
#include "epilogue.cuh"
#include "specialized_gemm.cuh"
#include "pipeline_exercises.cuh"
#include "stream_k.hpp"
#include "tile_order.hpp"
#include "tma_pipeline.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/variants.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lesson11 {

// Defined once, in pipeline_launchers.cuh.
namespace detail {
/// Before a first launch: the GPU can run sm_90a code, and the ring's protocol is sound.
void require_ready(const char* kernel, int stages, int consumer_warps, int block_m, int block_n);
/// A tensor map of a row-major bf16 matrix, kept by (address, shape, box).
const CUtensorMap* tensor_map(const void* base, int rows, int cols, int box_rows, int box_cols);
/// The SMs of the current device.
int sm_count();
/// The kernels' parameters for `block_m` x `block_n` tiles and `consumer_warps` releasing warps.
GemmParams make_params(int M, int N, int K, float alpha, float beta, bf16* C, int block_m,
                       int block_n, int consumer_warps);

/// Stream-K's workspace, allocated once and kept: `slots` tiles of `slot_floats` FP32 sums, and
/// `flags` flags, all zero when first allocated.
struct StreamKWorkspace {
  float* partials = nullptr;
  std::uint32_t* flags = nullptr;
  std::uint32_t epoch = 0;  ///< a value the flags have never held: this launch's
};
/// The workspace for a launch (grown when a launch needs more), with a new epoch.
StreamKWorkspace stream_k_workspace(int slots, int slot_floats, int flags);

/// What cooperative_gemm's kernels (with the TMA store, and the register epilogue's for
/// N % 8 != 0) ask of an SM, for the table of rungs: the more threads and dynamic shared memory of
/// the two, and their __launch_bounds__ promise. Defined with them, in cooperative_launchers.cuh.
course::VariantInfo cooperative_gemm_launch();
}  // namespace detail

/// The signature of the persistent kernels.
using PersistentKernel = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, GemmParams);

//! [launch_persistent]
/// Launches `kernel`, compiled for `Cfg`, on a persistent grid that walks the tiles as `schedule`
/// says. A cluster of two along M multicasts B, so B's boxes are half as tall; along N, A's.
template <class Cfg>
void launch_persistent(const char* name, PersistentKernel kernel, TileSchedule schedule, int M,
                       int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                       bf16* C) {
  constexpr int CM = Cfg::kClusterM, CN = Cfg::kClusterN, CL = Cfg::kCluster;
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  detail::require_ready(name, Cfg::kStages, Cfg::kReleasingWarps, Cfg::kBlockM, Cfg::kBlockN);
  if (schedule.stream_k > 0 && !Cfg::kStreamK) {
    throw std::logic_error(std::string(name) +
                           ": this kernel walks whole tiles only (no stream-K)");
  }
  GemmParams p = detail::make_params(M, N, K, alpha, beta, C, Cfg::kBlockM, Cfg::kBlockN,
                                     Cfg::kReleasingWarps);
  p.order = schedule.order;
  p.group = std::max(1, schedule.group / CM);  // bands counted in cluster tiles
  static const bool configured = [&] {
    CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes));
    return true;
  }();
  (void)configured;
  const int cluster_tiles = (p.tiles_m + CM - 1) / CM * ((p.tiles_n + CN - 1) / CN);
  const CUtensorMap& map_a = *detail::tensor_map(A, M, K, Cfg::kBlockM / CN, 64);
  const CUtensorMap& map_b = *detail::tensor_map(B, N, K, Cfg::kBlockN / CM, 64);
  // The streamed epilogue stores slices of 16 rows x 64 columns. The TMA store's map needs a row
  // stride that is a multiple of 16 bytes (N % 8 == 0); the kernel without a TMA store never reads
  // it, and gets A's map in its place.
  const CUtensorMap& map_c = Cfg::kTmaStore ? *detail::tensor_map(C, M, N, 16, 64) : map_a;
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
  //! [resident_grid]
  // The blocks (clusters) that can be resident at once. One block per SM: the shared memory allows
  // no more. A cluster's blocks must sit in one GPC, so on a GPC with an odd number of free SMs one
  // stays idle.
  static const int resident = [&] {
    if constexpr (CL == 1) {
      int per_sm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Cfg::kThreads,
                                                               Cfg::kSmemBytes));
      return std::min(per_sm, 1) * detail::sm_count();
    } else {
      cudaLaunchConfig_t probe = config;
      probe.gridDim = dim3(detail::sm_count() / CL * CL);
      int n = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveClusters(&n, kernel, &probe));
      return n > 0 ? n : detail::sm_count() / CL;
    }
  }();
  //! [resident_grid]
  if (resident < 1) {
    throw std::runtime_error(std::string(name) + ": a block of " + std::to_string(Cfg::kThreads) +
                             " threads and " + std::to_string(Cfg::kSmemBytes) +
                             " bytes of shared memory does not fit on an SM of this GPU");
  }
  const int k_blocks = (K + Cfg::kBlockK - 1) / Cfg::kBlockK;
  p.sk = schedule.stream_k > 0 ? stream_k_plan(cluster_tiles, k_blocks, resident, schedule.stream_k,
                                               schedule.stream_k_full_wave)
                               : whole_tiles_plan(cluster_tiles, k_blocks, resident);
  if (p.sk.sk_iters > 0) {
    //! [stream_k_launch]
    // The finisher of a split tile waits, spinning, for the other pieces' flags: it would wait
    // forever for a block that cannot start until the finisher's block exits. Every block of the
    // grid must therefore be resident at once, which the plan's grid (at most `resident`) is.
    if (p.sk.grid > resident) {
      throw std::logic_error(std::string(name) + ": stream-K needs all " +
                             std::to_string(p.sk.grid) + " of its blocks (clusters) resident at " +
                             "once; " + std::to_string(resident) + " fit");
    }
    const detail::StreamKWorkspace ws =
        detail::stream_k_workspace(p.sk.grid * CL, Cfg::kBlockM * Cfg::kBlockN, p.sk.grid * CL);
    p.partials = ws.partials;
    p.flags = ws.flags;
    p.epoch = ws.epoch;
    //! [stream_k_launch]
  }
  config.gridDim = dim3(p.sk.grid * CL);
  CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, map_a, map_b, map_c, p));
  CHECK_LAUNCH();
}
//! [launch_persistent]

/// The TMA-store configuration when N % 8 == 0, else its twin with the epilogue from registers.
template <class WithTmaStore, class WithRegisterEpilogue>
void launch_persistent_for_n(const char* name, PersistentKernel with_store,
                             PersistentKernel with_registers, TileSchedule schedule, int M, int N,
                             int K, float alpha, const bf16* A, const bf16* B, float beta,
                             bf16* C) {
  if (N % 8 == 0) {
    launch_persistent<WithTmaStore>(name, with_store, schedule, M, N, K, alpha, A, B, beta, C);
  } else {
    launch_persistent<WithRegisterEpilogue>(name, with_registers, schedule, M, N, K, alpha, A, B,
                                            beta, C);
  }
}

/// The cooperative kernel (cooperative_gemm.cuh) compiled for `WithTmaStore`, or for its register
/// epilogue's twin when N % 8 != 0.
template <class WithTmaStore, class WithRegisterEpilogue>
void launch_cooperative(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                        const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_persistent_for_n<WithTmaStore, WithRegisterEpilogue>(
      name, &cooperative_gemm_kernel<WithTmaStore>, &cooperative_gemm_kernel<WithRegisterEpilogue>,
      schedule, M, N, K, alpha, A, B, beta, C);
}

//! [launch_specialized]
/// Launches the warp-specialized kernel of rungs 3 to 5 (specialized_gemm.cuh), compiled for `Cfg`:
/// one block per tile, or (`persistent`) one per SM walking the tiles as `schedule` says.
template <class Cfg>
void launch_specialized(const char* name, bool persistent, int M, int N, int K, float alpha,
                        const bf16* A, const bf16* B, float beta, bf16* C,
                        TileSchedule schedule = TileSchedule{}) {
  constexpr int CL = Cfg::kCluster;
  // Every consumer warp of the cluster releases every block's copy of a stage.
  constexpr int releasing_warps = CL * 4 * Cfg::kConsumers;
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  detail::require_ready(name, Cfg::kStages, releasing_warps, Cfg::kBlockM, Cfg::kBlockN);
  GemmParams p =
      detail::make_params(M, N, K, alpha, beta, C, Cfg::kBlockM, Cfg::kBlockN, releasing_warps);
  p.order = schedule.order;
  p.group = std::max(1, schedule.group / CL);  // bands of tile rows, counted in cluster tiles
  static const bool configured = [] {
    CUDA_CHECK(cudaFuncSetAttribute(specialized_gemm_kernel<Cfg>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes));
    return true;
  }();
  (void)configured;
  const int cluster_tiles = (p.tiles_m + CL - 1) / CL * p.tiles_n;
  // The TMA store's map needs a row stride that is a multiple of 16 bytes (N % 8 == 0); the
  // kernel without a TMA store never reads it, and gets A's map in its place.
  const CUtensorMap* map_c = Cfg::kTmaStore ? detail::tensor_map(C, M, N, 64, 64)
                                            : detail::tensor_map(A, M, K, Cfg::kBlockM, 64);
  const CUtensorMap& map_a = *detail::tensor_map(A, M, K, Cfg::kBlockM, 64);
  const CUtensorMap& map_b = *detail::tensor_map(B, N, K, Cfg::kBlockN / CL, 64);
  if constexpr (CL == 1) {
    //! [persistent_grid]
    // Persistent: one block per SM (the shared memory allows no more), each walking many tiles.
    const int blocks = persistent ? std::min(cluster_tiles, detail::sm_count()) : cluster_tiles;
    specialized_gemm_kernel<Cfg>
        <<<blocks, Cfg::kThreads, Cfg::kSmemBytes>>>(map_a, map_b, *map_c, p);
    //! [persistent_grid]
  } else {
    cudaLaunchConfig_t config{};
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = CL;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.blockDim = dim3(Cfg::kThreads);
    config.dynamicSmemBytes = Cfg::kSmemBytes;
    config.attrs = &cluster;
    config.numAttrs = 1;
    // Persistent: as many clusters as can be resident at once. A cluster's blocks must sit in one
    // GPC, so on a GPC with an odd number of free SMs one stays idle.
    static const int resident_clusters = [&] {
      cudaLaunchConfig_t probe = config;
      probe.gridDim = dim3(detail::sm_count() / CL * CL);
      int n = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveClusters(&n, specialized_gemm_kernel<Cfg>, &probe));
      return n > 0 ? n : detail::sm_count() / CL;
    }();
    const int clusters = persistent ? std::min(cluster_tiles, resident_clusters) : cluster_tiles;
    config.gridDim = dim3(clusters * CL);
    CUDA_CHECK(cudaLaunchKernelEx(&config, specialized_gemm_kernel<Cfg>, map_a, map_b, *map_c, p));
  }
  CHECK_LAUNCH();
}
//! [launch_specialized]

//! [choose_epilogue]
// The TMA store needs N % 8 == 0 (a 16-byte row stride for C's tensor map): other N take the
// register epilogue, with the stage it frees.
template <class WithTmaStore, class WithRegisterEpilogue>
void launch_for_n(const char* name, bool persistent, int M, int N, int K, float alpha,
                  const bf16* A, const bf16* B, float beta, bf16* C) {
  if (N % 8 == 0) {
    launch_specialized<WithTmaStore>(name, persistent, M, N, K, alpha, A, B, beta, C);
  } else {
    launch_specialized<WithRegisterEpilogue>(name, persistent, M, N, K, alpha, A, B, beta, C);
  }
}
//! [choose_epilogue]

}  // namespace lesson11
