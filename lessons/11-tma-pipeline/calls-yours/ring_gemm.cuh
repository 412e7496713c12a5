// Lesson 11: the warp-specialized GEMM, written once. A producer drives TMA into a ring of
// shared-memory stages; consumer warps multiply out of it. Rungs 3 to 6, the portable rung and the
// lab's variants are instances of this one kernel, which differ by policies:
//   - the consumer (consumers.cuh): wgmma warpgroups (sm_90a), or mma.sync warps that read the
//     swizzled tiles with ldmatrix (any GPU with TMA);
//   - the tile source (a run-time plan, stream_k.hpp): one tile per block, or a persistent grid
//     walking the tiles in an order (tile_order.hpp), possibly splitting the last wave along K;
//   - the epilogue: from registers, through a whole staging tile and TMA stores, or streamed per
//     warp through two small staging boxes written with stmatrix;
//   - clusters of two blocks that share a tile of A or B by TMA multicast.
// The ring itself (stages, full and empty barriers, phases, the producer's loop and the consumers'
// k-loop) appears once, below, and takes its protocol from pipeline_exercises.cuh (yours).
#pragma once

#include "consumers.cuh"
#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "launch_support.hpp"
#include "pipeline_exercises.cuh"
#include "ring_storage.cuh"
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
#include <vector>

namespace lesson11 {

/// How the consumers' results reach C.
enum class Epilogue {
  kRegisters,   ///< straight from registers, any M and N
  kStagedTile,  ///< the whole tile through shared memory, then TMA stores of 64 x 64 boxes
  kStreamed,    ///< per warp, 16 x 64 slices through two staging boxes per consumer warpgroup
};

//! [ring_config]
/// One instance of the warp-specialized kernel.
/// \tparam CONSUMER the consumers' math (consumers.cuh): WgmmaConsumer<BM, BN> or
///         MmaSyncConsumer<BM, BN>; it also says how many threads produce and consume
/// \tparam STAGES shared-memory stages in the ring
/// \tparam EPILOGUE how the results reach C (the staged and streamed ones need N % 8 == 0 and a
///         wgmma consumer)
/// \tparam STMATRIX the streamed epilogue's staging written with stmatrix (else st.shared)
/// \tparam CLUSTER_M, CLUSTER_N a cluster of two blocks on tiles adjacent along M (they share B:
///         each loads half of it and multicasts it to both) or along N (they share A)
/// \tparam STAGGER clock cycles by which the second consumer warpgroup starts after the first
/// \tparam PRODUCER_REGS, CONSUMER_REGS setmaxnreg's split of the SM's registers (wgmma only):
///         40 x 128 + 232 x 256 = 64512 of 65536. ptxas compiles the whole kernel for the launch
///         bound's 168 registers; the split moves them at run time, and the producer's loop must
///         fit its share (with 24, the loop over the plan's work units spills)
template <class CONSUMER, int STAGES, Epilogue EPILOGUE, bool STMATRIX = true, int CLUSTER_M = 1,
          int CLUSTER_N = 1, int STAGGER = 0, int PRODUCER_REGS = 40, int CONSUMER_REGS = 232>
struct RingConfig {
  using Consumer = CONSUMER;
  static constexpr int kBlockM = Consumer::kBlockM, kBlockN = Consumer::kBlockN, kBlockK = 64;
  static constexpr int kStages = STAGES;
  static constexpr int kProducerThreads = Consumer::kProducerThreads;
  static constexpr int kConsumerWarps = Consumer::kConsumerWarps;
  static constexpr int kThreads = kProducerThreads + 32 * kConsumerWarps;
  static constexpr Epilogue kEpilogue = EPILOGUE;
  static constexpr bool kTmaStore = EPILOGUE != Epilogue::kRegisters, kStmatrix = STMATRIX;
  static constexpr int kClusterM = CLUSTER_M, kClusterN = CLUSTER_N;
  static constexpr int kCluster = CLUSTER_M * CLUSTER_N;
  static constexpr int kStaggerCycles = STAGGER;
  static constexpr int kProducerRegs = PRODUCER_REGS, kConsumerRegs = CONSUMER_REGS;
  /// The code that joins the pieces of a tile split along K (stream-K): an instance that may be
  /// given such a plan says so (a struct derived from this one, with kStreamK = true).
  static constexpr bool kStreamK = false;
  // With clusters, a stage's barriers also count the peer's bytes and arrivals.
  static constexpr ptx::Wait kWait =
      kCluster > 1 ? ptx::Wait::kTryWaitCluster : ptx::Wait::kTryWait;
  // Every consumer warp of the cluster releases every block's copy of a stage.
  static constexpr int kReleasingWarps = kCluster * kConsumerWarps;
  // The staging boxes of 64 x 64 bf16 (8 KiB): the whole tile, two per consumer warpgroup, none.
  static constexpr int kStagingBoxes = EPILOGUE == Epilogue::kStagedTile ? kBlockM * kBlockN / 4096
                                       : EPILOGUE == Epilogue::kStreamed ? 2 * kConsumerWarps / 4
                                                                         : 0;
  /// The boxes of C's tensor map the epilogue stores: 64 x 64, or slices of 16 x 64, or of 16 x 32
  /// for a tile whose width is not a multiple of 64.
  static constexpr int kStoreRows = EPILOGUE == Epilogue::kStreamed ? 16 : 64;
  static constexpr int kStoreCols = kBlockN % 64 == 0 ? 64 : 32;
  using Storage = RingStorage<kBlockM, kBlockN, STAGES, kStagingBoxes>;
  static constexpr int kSmemBytes = dynamic_smem_bytes<Storage>();
  static_assert(kCluster == 1 || kCluster == 2, "clusters of one or two blocks");
  static_assert(EPILOGUE == Epilogue::kRegisters || Consumer::kWgmma,
                "the staged epilogues read wgmma's accumulator layout");
  static_assert(kStoreCols == 64 || EPILOGUE != Epilogue::kStagedTile,
                "the staged tile goes out in boxes of 64 columns");
  // consumers_sync() (the staged tile, stream-K's hand-over) is a barrier of two warpgroups; the
  // kernel checks stream-K's.
  static_assert(kConsumerWarps == 8 || EPILOGUE == Epilogue::kStreamed ||
                    EPILOGUE == Epilogue::kRegisters,
                "the staged tile's epilogue is written for two consumer warpgroups");
  static_assert(kSmemBytes <= kMaxDynamicSmem, "the ring and the staging boxes exceed 227 KiB");
};
//! [ring_config]

//! [ring_init]
/// Thread 0 initializes every stage's two barriers: "full" completes a phase with one arrival (the
/// producer's expect_tx) and the bytes TMA brings; "empty" with `empty_arrivals` (yours:
/// empty_barrier_arrivals()). Then the block meets, or the cluster, whose peer multicasts into
/// this block's stages and arrives on its barriers: no one uses a barrier before it exists.
template <int CL, class Storage>
__device__ inline void init_ring(Storage& st, int stages, std::uint32_t empty_arrivals) {
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      ptx::mbarrier_init(&st.full[s], 1);
      ptx::mbarrier_init(&st.empty[s], empty_arrivals);
    }
    ptx::fence_barrier_init();
  }
  if constexpr (CL > 1) {
    ptx::cluster_sync();
  } else {
    __syncthreads();
  }
}
//! [ring_init]

//! [ring_producer]
/// The producer, one thread: every k-block of the block's work units, in order, into the stage the
/// ring names for it (producer_slot, yours), once the consumers have released that stage; the
/// stage's full barrier is told how many bytes to expect (stage_tx_bytes, yours) and TMA counts
/// them in. A cluster's blocks each load half of the tile they share and multicast it to both.
template <class Cfg, class Storage, class TileOf>
__device__ inline void produce(Storage& st, const CUtensorMap* map_a, const CUtensorMap* map_b,
                               const GemmParams& p, int cluster, int rank, TileOf tile_of) {
  constexpr int S = Cfg::kStages, BM = Cfg::kBlockM, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  constexpr int CM = Cfg::kClusterM, CN = Cfg::kClusterN;
  ptx::prefetch_tensor_map(map_a);
  ptx::prefetch_tensor_map(map_b);
  int it = 0;  // k-blocks loaded so far, over every unit of this block
  for (int u = 0;; ++u) {
    const WorkUnit w = work_unit(p.sk, cluster, u);
    if (w.tile < 0) break;
    const TileCoord tile = tile_of(w.tile);
    for (int kb = w.k_begin; kb < w.k_end; ++kb, ++it) {
      const RingSlot slot = producer_slot(it, S);
      ptx::mbarrier_wait<Cfg::kWait>(&st.empty[slot.stage], slot.parity, p.limit,
                                     ptx::Waiter::kEmpty, slot.stage);
      // The whole stage lands in this block, whichever block loads each part of it.
      ptx::mbarrier_arrive_expect_tx(&st.full[slot.stage], p.stage_bytes);
      if constexpr (CN == 1) {
        ptx::tma_load_2d(st.a[slot.stage], map_a, &st.full[slot.stage], kb * BK, tile.m * BM);
      } else {  // this block's half of the shared A tile, into both blocks
        constexpr int rows = BM / 2;
        ptx::tma_load_2d_multicast(st.a[slot.stage] + rank * rows * BK, map_a, &st.full[slot.stage],
                                   kb * BK, tile.m * BM + rank * rows, 0x3);
      }
      if constexpr (CM == 1) {
        ptx::tma_load_2d(st.b[slot.stage], map_b, &st.full[slot.stage], kb * BK, tile.n * BN);
      } else {  // this block's half of the shared B tile, into both blocks
        constexpr int rows = BN / 2;
        ptx::tma_load_2d_multicast(st.b[slot.stage] + rank * rows * BK, map_b, &st.full[slot.stage],
                                   kb * BK, tile.n * BN + rank * rows, 0x3);
      }
    }
  }
}
//! [ring_producer]

/// No hook: what consume() runs after issuing the last k-block's math, by default.
struct NoHook {
  __device__ void operator()() const {}
};

//! [ring_consumer]
/// The consumers' k-loop over one work unit: k-blocks `it` .. `it` + k_blocks - 1 of the ring
/// (`it` advances, counted exactly as the producer counts them). Each waits for its stage's full
/// barrier (consumer_slot, yours), multiplies, and gives the stage back: at once when the math is
/// synchronous (mma.sync), or, when it runs asynchronously (wgmma), once the next k-block's math
/// is issued and this one's has completed. Lane 0 of each consumer warp arrives on the stage's
/// empty barrier of every block of the cluster, since every block's producer wrote into it.
/// `after_issue` runs once the last k-block's math is issued, before it completes.
template <class Cfg, class Storage, class Accum, class AfterIssue = NoHook>
__device__ inline void consume(Storage& st, Accum& acc, int& it, int k_blocks, int warp, int lane,
                               int rank, const ptx::WaitLimit& limit, AfterIssue after_issue = {}) {
  using Consumer = typename Cfg::Consumer;
  Consumer::zero(acc);
  int previous_stage = -1;
  for (int kb = 0; kb < k_blocks; ++kb, ++it) {
    const RingSlot slot = consumer_slot(it, Cfg::kStages);
    ptx::mbarrier_wait<Cfg::kWait>(&st.full[slot.stage], slot.parity, limit, ptx::Waiter::kFull,
                                   slot.stage);
    Consumer::k_block(acc, ptx::smem_addr(st.a[slot.stage]), ptx::smem_addr(st.b[slot.stage]), warp,
                      lane);
    if constexpr (Consumer::kAsync) {
      // This k-block's wgmmas keep running; the previous k-block's have completed.
      ptx::wgmma_wait<1>();
      if (previous_stage >= 0) release_stage<Cfg::kCluster>(&st.empty[previous_stage], lane, rank);
      previous_stage = slot.stage;
    } else {
      __syncwarp();  // every lane's ldmatrix has read the stage
      release_stage<Cfg::kCluster>(&st.empty[slot.stage], lane, rank);
    }
  }
  after_issue();  // the ping-pong kernel of the lab passes its turn here
  if constexpr (Consumer::kAsync) {
    ptx::wgmma_wait<0>();
    release_stage<Cfg::kCluster>(&st.empty[previous_stage], lane, rank);
  }
}
//! [ring_consumer]

//! [staged_tile]
/// The staged-tile epilogue (rung 5): each consumer warpgroup writes its 64 x BN half of the tile
/// into staging boxes laid out as TMA's 128-byte swizzle expects, then its thread 0 stores them
/// with TMA, which clips at C's edges. `consumer`: 0 or 1; `warp`, `lane`: the thread's place in
/// its warpgroup.
template <class Cfg, class Storage, class Accum>
__device__ inline void store_tile_staged(Storage& st, const Accum& acc, const GemmParams& p,
                                         const CUtensorMap* map_c, int row0, int col0, int consumer,
                                         int warp, int lane) {
  constexpr int BN = Cfg::kBlockN;
  StagingBox* my_boxes = &st.staging.box[consumer * (BN / 64)];
  const bool issuer = warp == 0 && lane == 0;
  // The previous tile's TMA stores must have read the staging tile before it is rewritten.
  if (issuer) ptx::tma_store_wait_read();
  consumers_sync();
  stage_accumulators<BN>(acc.part[0], p, reinterpret_cast<unsigned char*>(my_boxes), row0, col0,
                         warp, lane);
  // Ordinary stores, then the copy engine reads them: the proxies must be ordered.
  ptx::fence_proxy_async_smem();
  consumers_sync();
  if (issuer && row0 < p.M) {  // boxes wholly outside C: nothing to store
    for (int box = 0; box < BN / 64; ++box) {
      ptx::tma_store_2d(map_c, my_boxes[box].v, col0 + box * 64, row0);
    }
    ptx::tma_store_commit();
  }
}
//! [staged_tile]

//! [ring_kernel]
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    ring_gemm_kernel(const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b,
                     const __grid_constant__ CUtensorMap map_c, GemmParams p) {
  constexpr int BM = Cfg::kBlockM, BN = Cfg::kBlockN;
  constexpr int CM = Cfg::kClusterM, CN = Cfg::kClusterN, CL = Cfg::kCluster;
  using Consumer = typename Cfg::Consumer;
  extern __shared__ unsigned char smem_raw[];
  auto& st = ring_storage<typename Cfg::Storage>(smem_raw);

  // A cluster walks a grid of "cluster tiles", CM x CN tiles each; block `rank` takes the rank-th.
  // The plan (stream_k.hpp) deals out whole cluster tiles, and pieces of them, to the clusters.
  const int rank = CL > 1 ? static_cast<int>(ptx::cluster_rank()) : 0;
  const int grid_m = (p.tiles_m + CM - 1) / CM, grid_n = (p.tiles_n + CN - 1) / CN;
  const int cluster = blockIdx.x / CL;
  auto tile_of = [&](int t) {
    const TileCoord c = tile_at(t, grid_m, grid_n, p.order, p.group);
    return TileCoord{c.m * CM + (CM > 1 ? rank : 0), c.n * CN + (CN > 1 ? rank : 0)};
  };

  init_ring<CL>(st, Cfg::kStages, p.empty_arrivals);

  if (threadIdx.x < Cfg::kProducerThreads) {
    Consumer::template producer_starts<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) produce<Cfg>(st, &map_a, &map_b, p, cluster, rank, tile_of);
  } else {
    Consumer::template consumer_starts<Cfg::kConsumerRegs>();
    const int thread = threadIdx.x - Cfg::kProducerThreads;  // among the consumers' threads
    const int cwarp = thread / 32, lane = thread % 32;       // the consumer warp, its lane
    const int consumer = cwarp / 4, warp = cwarp % 4;        // as warpgroups (wgmma's view)
    int it = 0;  // k-blocks consumed so far, counted exactly as the producer counts them
    SliceRound round;
    // Staggered consumers (a variant of the lab): the second warpgroup starts a few k-blocks
    // behind the first, so that their epilogues fall apart. Nothing but the ring keeps the two in
    // step. Measured, it gained nothing on the H100 (the chapter's variants).
    if constexpr (Cfg::kStaggerCycles > 0) {
      if (consumer == 1) {
        const long long start = clock64();
        while (clock64() - start < Cfg::kStaggerCycles) {
        }
      }
    }
    for (int u = 0;; ++u) {
      const WorkUnit w = work_unit(p.sk, cluster, u);
      if (w.tile < 0) break;
      const TileCoord tile = tile_of(w.tile);
      typename Consumer::Accum acc;
      consume<Cfg>(st, acc, it, w.k_end - w.k_begin, cwarp, lane, rank, p.limit);
      if constexpr (Cfg::kStreamK) {
        static_assert(Cfg::kConsumerWarps == 8, "the hand-over is written for two warpgroups");
        //! [stream_k_fixup]
        // A split tile: the pieces after the first hand their sums over (a block's first split
        // unit, early in its share of the last wave); the piece that starts the tile (its block's
        // last unit, near the end) adds theirs, from the clusters after its own, then stores the
        // tile. Each block of the grid has one tile of sums in the workspace, at its blockIdx.x: a
        // block hands over at most one piece per launch.
        if (hands_over(w)) {
          hand_over_sums(acc, p, blockIdx.x, thread);
          continue;
        }
        if (finishes_split(p.sk, w)) {
          const int last = last_contributor(p.sk, w.tile);
          if (last - cluster >= kMaxPieces) __trap();  // a plan the grader would have refused
#pragma unroll
          for (int i = 1; i < kMaxPieces; ++i) {
            if (cluster + i <= last) add_sums_of(acc, p, (cluster + i) * CL + rank, thread);
          }
        }
        //! [stream_k_fixup]
      }
      const int row0 = tile.m * BM, col0 = tile.n * BN;
      if constexpr (Cfg::kEpilogue == Epilogue::kStreamed) {
        store_tile_streamed<Cfg::kStmatrix, Cfg::kStoreCols>(
            acc, p, &map_c, &st.staging.box[2 * consumer],
            row0 + consumer * Consumer::kConsumerRows, col0, warp, lane, round);
      } else if constexpr (Cfg::kEpilogue == Epilogue::kStagedTile) {
        store_tile_staged<Cfg>(st, acc, p, &map_c, row0 + consumer * Consumer::kConsumerRows, col0,
                               consumer, warp, lane);
      } else {
        Consumer::store_registers(acc, p, row0, col0, cwarp, lane);
      }
    }
    // A block must not exit with its TMA stores still writing.
    if (Cfg::kTmaStore && lane == 0) ptx::tma_store_wait_all();
  }
  // Nor while its peer may still arrive on its barriers.
  if constexpr (CL > 1) ptx::cluster_sync();
}
//! [ring_kernel]

// ---- the launch ---------------------------------------------------------------------------------
// The checks before a first launch and the table's helpers are declared in tma_pipeline.hpp; the
// helpers that call nothing of yours in launch_support.hpp.
namespace detail {
/// The kernels' parameters for `block_m` x `block_n` tiles and `consumer_warps` releasing warps:
/// defined in hopper_gemm.cu.
GemmParams make_params(int M, int N, int K, float alpha, float beta, bf16* C, int block_m,
                       int block_n, int consumer_warps);

/// Rungs 3 and 4's kernel (wgmma, the epilogue from registers) walking the tiles as `schedule`
/// says: the later rungs' fallback when N % 8 != 0, defined in hopper_gemm.cu; and what it
/// asks of an SM.
void registers_gemm(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                    const bf16* A, const bf16* B, float beta, bf16* C);

/// The headline's kernel on 192 x 160 tiles (N % 8 == 0), walking them as `schedule` says:
/// defined in hopper_gemm_192x160.cu.
void gemm_192x160(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                  const bf16* A, const bf16* B, float beta, bf16* C);
}  // namespace detail

/// The signature of the kernels launched here.
using RingKernel = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, GemmParams);

//! [launch_ring]
/// Launches `kernel`, compiled for `Cfg` (ring_gemm_kernel<Cfg>, or the lab's ping-pong kernel):
/// one block per tile, or (`schedule.persistent`) as many blocks or clusters as are resident at
/// once, walking the tiles as `schedule` says. A cluster of two along M multicasts B, so B's boxes
/// are half as tall; along N, A's.
template <class Cfg>
void launch_ring(const char* name, RingKernel kernel, TileSchedule schedule, int M, int N, int K,
                 float alpha, const bf16* A, const bf16* B, float beta, bf16* C) {
  constexpr int CM = Cfg::kClusterM, CN = Cfg::kClusterN, CL = Cfg::kCluster;
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  detail::require_ready(name, Cfg::Consumer::kWgmma, Cfg::kStages, Cfg::kReleasingWarps,
                        Cfg::kBlockM, Cfg::kBlockN);
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
  // The TMA store's map needs a row stride that is a multiple of 16 bytes (N % 8 == 0); the
  // kernel without a TMA store never reads it, and gets A's map in its place.
  const CUtensorMap& map_c =
      Cfg::kTmaStore ? *detail::tensor_map(C, M, N, Cfg::kStoreRows, Cfg::kStoreCols) : map_a;
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
  //! [persistent_grid]
  // Persistent: at most one block (cluster) per SM, each walking many tiles; else one per tile.
  const int blocks = schedule.persistent ? resident : cluster_tiles;
  p.sk = schedule.stream_k > 0 ? stream_k_plan(cluster_tiles, k_blocks, blocks, schedule.stream_k,
                                               schedule.stream_k_full_wave)
                               : whole_tiles_plan(cluster_tiles, k_blocks, blocks);
  //! [persistent_grid]
  if (p.sk.sk_iters > 0) {
    //! [stream_k_launch]
    // The finisher of a split tile waits, spinning, for the other pieces' flags: it would wait
    // forever for a block that cannot start until the finisher's block exits. Every block of the
    // grid must therefore be resident at once, which the plan's grid (at most `resident`) is.
    if (!Cfg::kStreamK || p.sk.grid > resident) {
      throw std::logic_error(std::string(name) +
                             ": stream-K needs a kernel with kStreamK and all " +
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
//! [launch_ring]

//! [choose_epilogue]
/// ring_gemm_kernel for `WithTmaStore` when N % 8 == 0, else for its twin with the epilogue from
/// registers: the TMA store needs a 16-byte row stride for C's tensor map.
template <class WithTmaStore, class WithRegisterEpilogue>
void launch_ring_for_n(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                       const bf16* A, const bf16* B, float beta, bf16* C) {
  if (N % 8 == 0) {
    launch_ring<WithTmaStore>(name, &ring_gemm_kernel<WithTmaStore>, schedule, M, N, K, alpha, A, B,
                              beta, C);
  } else {
    launch_ring<WithRegisterEpilogue>(name, &ring_gemm_kernel<WithRegisterEpilogue>, schedule, M, N,
                                      K, alpha, A, B, beta, C);
  }
}
//! [choose_epilogue]

/// What a rung that launches Cfg's kernel asks of an SM, for the tables: its threads, its shared
/// memory and its __launch_bounds__ promise of blocks per SM (the ring's kernels: one; rungs 1 and
/// 2's kernel promises none, 0).
template <class Cfg>
Rung describing(Rung r, int min_blocks = 1) {
  r.threads = Cfg::kThreads;
  r.smem_bytes = static_cast<std::size_t>(Cfg::kSmemBytes);
  r.min_blocks = min_blocks;
  return r;
}

namespace detail {
/// What a rung that launches either of two kernels asks of an SM: the more threads and the more
/// shared memory of `r` and `other`, the rest of `r`.
inline Rung asking_for_either(Rung r, const Rung& other) {
  r.threads = std::max(r.threads, other.threads);
  r.smem_bytes = std::max(r.smem_bytes, other.smem_bytes);
  return r;
}

/// What a rung that launches Cfg's kernel, and falls back to the register epilogue when N % 8 != 0
/// (registers_gemm), asks of an SM: what either kernel needs.
template <class Cfg>
Rung with_register_fallback(Rung r) {
  return asking_for_either(describing<Cfg>(r), registers_gemm_rung(r));
}
}  // namespace detail

}  // namespace lesson11
