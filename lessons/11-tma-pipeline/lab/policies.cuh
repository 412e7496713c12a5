// Lesson 11's lab: the policies of the ring (ring_gemm.cuh) that measured slower than the ladder's,
// as types that change one hook of a ladder policy each:
//   - Multicast<Mainloop, CM, CN>: clusters of two blocks on adjacent tiles that share a tile of A
//     or B, each loading half of it and multicasting it to both;
//   - Polling<Mainloop>: the ring's waits with test_wait in a loop, never suspended;
//   - Staggered<Mainloop, CYCLES>: the second consumer warpgroup starts CYCLES clock cycles late;
//   - StSharedSlices: the streamed epilogue's slices written with st.shared instead of stmatrix;
//   - StreamKTiles<kSplits>: tiles walked in a run-time order (bands or a Hilbert curve), the last
//     waves' tiles split along K over every block (stream-K), their pieces joined by a fix-up.
#pragma once

#include "epilogue.cuh"
#include "hopper_ptx.cuh"
#include "lab_ptx.cuh"
#include "mainloop.cuh"
#include "pipeline_exercises.cuh"  // the reference solution's
#include "stream_k.hpp"
#include "tile_orders.hpp"
#include "staging_layout.hpp"
#include "tile_source.hpp"

#include <cuda.h>

#include <cstdint>

namespace lesson11::lab {

// ---- clusters and TMA multicast -----------------------------------------------------------------
//! [multicast]
/// A cluster of two blocks on tiles adjacent along M (CM = 2: they share B) or along N (CN = 2:
/// they share A). The tile source walks "cluster tiles" of CM x CN tiles; block `rank` takes the
/// rank-th. Each block loads half of the shared tile and multicasts it to both, so a stage's full
/// barrier counts the peer's bytes, and its empty barrier the peer's consumer warps too: every
/// consumer warp of the cluster releases every block's copy of the stage.
template <class ML, int CM, int CN>
struct Multicast : ML {
  static_assert(CM * CN == 2, "clusters of two blocks");
  static constexpr int kClusterM = CM, kClusterN = CN, kCluster = 2;
  static constexpr int kReleasingWarps = kCluster * ML::Consumer::kConsumerWarps;
  // The boxes TMA loads: half the shared tile's rows.
  static constexpr int kBoxRowsA = ML::kBlockM / CN, kBoxRowsB = ML::kBlockN / CM;

  __device__ static int rank() { return static_cast<int>(ptx::cluster_rank()); }
  __device__ static TileCoord block_tile(TileCoord c, int rank) {
    return TileCoord{c.m * CM + (CM > 1 ? rank : 0), c.n * CN + (CN > 1 ? rank : 0)};
  }
  // The peer multicasts into this block's stages and arrives on its barriers: no one uses a
  // barrier before both blocks have initialized theirs, and no block exits while its peer may
  // still arrive on its barriers.
  __device__ static void barriers_ready() { ptx::cluster_sync(); }
  __device__ static void finish() { ptx::cluster_sync(); }
  __device__ static void wait(std::uint64_t* bar, std::uint32_t parity, const ptx::WaitLimit& limit,
                              ptx::Waiter what, int stage) {
    ptx::bounded_wait([&] { return ptx::mbarrier_try_wait_cluster(bar, parity); }, limit, what,
                      stage, parity);
  }
  /// The whole stage lands in both blocks: this block's half of the shared tile goes to both.
  __device__ static void load(typename ML::Stages& st, std::uint64_t* full,
                              const CUtensorMap* map_a, const CUtensorMap* map_b, int stage, int kb,
                              TileCoord tile, int rank) {
    constexpr int BM = ML::kBlockM, BN = ML::kBlockN, BK = ML::kBlockK;
    if constexpr (CN == 1) {
      ptx::tma_load_2d(st.a[stage], map_a, full, kb * BK, tile.m * BM);
    } else {
      constexpr int rows = BM / 2;
      ptx::tma_load_2d_multicast(st.a[stage] + rank * rows * BK, map_a, full, kb * BK,
                                 tile.m * BM + rank * rows, 0x3);
    }
    if constexpr (CM == 1) {
      ptx::tma_load_2d(st.b[stage], map_b, full, kb * BK, tile.n * BN);
    } else {
      constexpr int rows = BN / 2;
      ptx::tma_load_2d_multicast(st.b[stage] + rank * rows * BK, map_b, full, kb * BK,
                                 tile.n * BN + rank * rows, 0x3);
    }
  }
  /// Lane 0 of each consumer warp arrives on the stage's empty barrier of both blocks, since both
  /// blocks' producers wrote into this block's copy of it.
  __device__ static void release(std::uint64_t* empty, int lane, int rank) {
    if (lane != 0) return;
    for (int r = 0; r < kCluster; ++r) {
      if (r == rank) {
        ptx::mbarrier_arrive(empty);
      } else {
        ptx::mbarrier_arrive_cluster(empty, r);
      }
    }
  }
};
//! [multicast]

/// A cluster's waits with test_wait in a loop (never suspended) instead of try_wait.
template <class ML>
struct Polling : ML {
  __device__ static void wait(std::uint64_t* bar, std::uint32_t parity, const ptx::WaitLimit& limit,
                              ptx::Waiter what, int stage) {
    ptx::bounded_wait([&] { return ptx::mbarrier_test_wait_cluster(bar, parity); }, limit, what,
                      stage, parity);
  }
};

// ---- staggered consumers ------------------------------------------------------------------------
/// The second consumer warpgroup starts CYCLES clock cycles behind the first, so that their
/// epilogues fall apart. Nothing but the ring keeps the two in step.
template <class ML, int CYCLES>
struct Staggered : ML {
  __device__ static void consumer_starts() {
    ML::consumer_starts();
    const int consumer = (threadIdx.x - ML::Consumer::kProducerThreads) / 128;
    if (consumer == 1) {
      const long long start = clock64();
      while (clock64() - start < CYCLES) {
      }
    }
  }
};

// ---- the streamed epilogue's slices written with st.shared -------------------------------------
//! [stage_slice_st_shared]
/// StreamedEpilogue<StSharedSlices>: the slices written with st.shared, 64 columns wide: 32 stores
/// of 4 bytes per thread, one per pair of columns, as in stage_accumulators.
struct StSharedSlices {
  template <int N, bool kReadC, int SLICE>
  __device__ static void write(const ptx::WgmmaAccum<N>& acc, int j, const Problem& p,
                               std::uint32_t slice, int row0, int col0, int lane) {
    static_assert(SLICE == 64, "st.shared writes slices of 64 columns");
    const int row = lane / 4, col = 2 * (lane % 4);  // this thread's first element in the slice
    // staging_offset(row + 8 half, 8 g + col), with row < 8: one base register, and the chunk's
    // XOR and the half's 1024 bytes on top.
    const std::uint32_t base = slice + row * 128 + col * 2;
#pragma unroll
    for (int g = 0; g < 8; ++g) {  // 8-column groups
#pragma unroll
      for (int half = 0; half < 2; ++half) {  // rows lane / 4, then 8 further
        const int i = 32 * j + 4 * g + 2 * half;
        __nv_bfloat162 v =
            scaled_pair<kReadC>(acc, i, p, row0 + row + 8 * half, col0 + 8 * g + col);
        ptx::st_shared_b32(base + half * 8 * 128 + ((g ^ row) << 4),
                           *reinterpret_cast<std::uint32_t*>(&v));
      }
    }
  }
};
//! [stage_slice_st_shared]

// ---- stream-K -----------------------------------------------------------------------------------
/// The workspace through which the pieces of a split tile meet: one tile of FP32 sums per block of
/// the grid, and per block a flag equal to `epoch` once its sums are stored.
struct StreamKWorkspace {
  float* partials = nullptr;
  std::uint32_t* flags = nullptr;
  std::uint32_t epoch = 0;  ///< a value the flags have never held: this launch's
};

/// Where consumer thread `thread` (0..255: both warpgroups) of block `slot` keeps its partial
/// sums: vector v (accumulators 4v .. 4v + 3) of every thread lies together, so a warp stores or
/// loads 512 contiguous bytes at a time. The finisher's thread of the same index holds the same
/// elements of the tile in the same registers, so it reads them back in this order.
template <int N, int PARTS>
__device__ inline float4* partial_sums(const StreamKWorkspace& ws, int slot, int thread) {
  constexpr int kVectors = PARTS * N / 8;  // 128 accumulators: 32 float4
  return reinterpret_cast<float4*>(ws.partials) + static_cast<long>(slot) * kVectors * 256 + thread;
}

//! [hand_over]
/// A piece that does not start its tile: stores the consumers' sums, unscaled (only the finisher
/// applies alpha and beta), and raises the block's flag. The stores bypass L1 (st.global.cg):
/// another SM reads them. The barrier orders every consumer thread's stores before the release
/// by consumer thread 0.
template <int N, int PARTS>
__device__ inline void hand_over_sums(const TileAccum<N, PARTS>& acc, const StreamKWorkspace& ws,
                                      int slot, int thread) {
  float4* out = partial_sums<N, PARTS>(ws, slot, thread);
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
#pragma unroll
    for (int v = 0; v < N / 8; ++v) {
      const float* d = &acc.part[h].d[4 * v];
      __stcg(out + (h * N / 8 + v) * 256, make_float4(d[0], d[1], d[2], d[3]));
    }
  }
  consumers_sync();
  if (thread == 0) ptx::st_release_gpu(ws.flags + slot, ws.epoch);
}

/// The finisher of a split tile: waits for block `slot`'s flag (consumer thread 0, then the
/// barrier passes its acquire on to the others) and adds that block's sums to its own.
template <int N, int PARTS>
__device__ inline void add_sums_of(TileAccum<N, PARTS>& acc, const StreamKWorkspace& ws, int slot,
                                   int thread, const ptx::WaitLimit& limit) {
  if (thread == 0) ptx::wait_flag(ws.flags + slot, ws.epoch, limit, slot);
  consumers_sync();
  const float4* in = partial_sums<N, PARTS>(ws, slot, thread);
#pragma unroll
  for (int h = 0; h < PARTS; ++h) {
#pragma unroll
    for (int v = 0; v < N / 8; ++v) {
      const float4 s = __ldcg(in + (h * N / 8 + v) * 256);
      float* d = &acc.part[h].d[4 * v];
      d[0] += s.x, d[1] += s.y, d[2] += s.z, d[3] += s.w;
    }
  }
}
//! [hand_over]

/// The lab's tile source: whole tiles, round robin, in a run-time order (bands of `group`, or a
/// Hilbert curve) over a grid of cluster tiles; with kSplits, also plans that split the last
/// waves' tiles along K (stream_k.hpp), whose pieces the fix-up joins. Without it, the launcher
/// refuses such a plan.
template <bool kSplits>
struct StreamKTiles {
  static constexpr bool kJoinsSplits = kSplits;
  struct Params {
    StreamKPlan sk;
    int tiles_m = 0, tiles_n = 0;  ///< the grid of cluster tiles
    int group = 8;
    TileOrder order = TileOrder::kGrouped;
    StreamKWorkspace ws;
    int grid = 0;  ///< blocks (clusters) launched: sk.grid
  };

  /// Whole tiles, in bands of `group`; the lab's launch sets the order, the cluster tiles and the
  /// plan its schedule asks for.
  static Params plan(int tiles_m, int tiles_n, int k_blocks, int blocks, int group) {
    Params p;
    p.sk = whole_tiles_plan(tiles_m * tiles_n, k_blocks, blocks);
    p.tiles_m = tiles_m, p.tiles_n = tiles_n, p.group = group, p.grid = p.sk.grid;
    return p;
  }

  COURSE_HD static WorkUnit unit(const Params& p, int b, int u) { return work_unit(p.sk, b, u); }
  COURSE_HD static TileCoord tile(const Params& p, int t) {
    return tile_at(t, p.tiles_m, p.tiles_n, p.order, p.group);
  }

  //! [stream_k_fixup]
  /// A split tile: the pieces after the first hand their sums over (a block's first split unit,
  /// early in its share of the last wave); the piece that starts the tile (its block's last unit,
  /// near the end) adds theirs, from the clusters after its own, then stores the tile. Each block
  /// of the grid has one tile of sums in the workspace, at its blockIdx.x: a block hands over at
  /// most one piece per launch. False: the epilogue stores nothing of this unit.
  template <class ML, class Accum>
  __device__ static bool fix_up(Accum& acc, const Params& p, const WorkUnit& w, int cluster,
                                int rank, int thread, const ptx::WaitLimit& limit) {
    if constexpr (kSplits) {
      static_assert(ML::Consumer::kConsumerWarps == 8,
                    "the hand-over is written for two warpgroups");
      if (hands_over(w)) {
        hand_over_sums(acc, p.ws, blockIdx.x, thread);
        return false;
      }
      if (finishes_split(p.sk, w)) {
        const int last = last_contributor(p.sk, w.tile);
        if (last - cluster >= kMaxPieces) __trap();  // a plan the lab's test would have refused
#pragma unroll
        for (int i = 1; i < kMaxPieces; ++i) {
          if (cluster + i <= last)
            add_sums_of(acc, p.ws, (cluster + i) * ML::kCluster + rank, thread, limit);
        }
      }
    }
    return true;
  }
  //! [stream_k_fixup]
};

}  // namespace lesson11::lab
