// Lesson 11: the mainloop of the ring (ring_gemm.cuh): the consumers' two kinds of math, and the
// ring itself, stages, barriers, the producer's loads and the consumers' k-loop, as one policy
// type, Mainloop<Consumer, Stages>.
//   - WgmmaConsumer (sm_90a): two or three consumer warpgroups, each multiplying its rows of the
//     tile with asynchronous wgmmas that read A and B straight from the swizzled stages;
//   - MmaSyncConsumer (any GPU with TMA: sm_90, sm_100, sm_120): eight consumer warps, each
//     loading its fragments from the swizzled stages with ldmatrix and multiplying them with
//     mma.sync m16n8k16, as in lesson 10.
// Given code: the ring takes its protocol, and wgmma its descriptors, from pipeline_exercises.cuh
// (yours).
#pragma once

#include "epilogue.cuh"  // TileAccum
#include "hopper_ptx.cuh"
#include "your_functions.hpp"
#include "tile_source.hpp"

#include "lessons/10-tensor-cores/ptx.cuh"  // ldmatrix_x4, mma_m16n8k16_bf16

#include "common/library.hpp"  // COURSE_LIBRARY

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>

namespace lesson11 {
inline namespace COURSE_LIBRARY {  // compiled with your functions (common/library.hpp)

//! [mma_k_block]
/// The wgmmas of one k-block, committed as one group. `a`: the shared address of the warpgroup's
/// first row of A in the stage (its 64 PARTS rows follow); `b`: of B's first row. Each k-step of
/// 16 is 32 bytes further along every row; each part's A is 64 rows (8 KiB) further down.
template <int N, int PARTS>
__device__ inline void mma_k_block(TileAccum<N, PARTS>& acc, std::uint32_t a, std::uint32_t b) {
  ptx::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < 4; ++kk) {
#pragma unroll
    for (int h = 0; h < PARTS; ++h) {
      ptx::wgmma_m64k16<N>(acc.part[h], make_smem_descriptor(a + h * 64 * 128 + kk * 32),
                           make_smem_descriptor(b + kk * 32), 1);
    }
  }
  ptx::wgmma_commit();
}
//! [mma_k_block]

// ---- the two consumers -------------------------------------------------------------------------
//! [wgmma_consumer]
/// WARPGROUPS consumer warpgroups of wgmma, each owning BM / WARPGROUPS rows of the BM x BN tile as
/// one or two m64nBN results; a producer warpgroup that hands most of its registers to them
/// (setmaxnreg). Two warpgroups hold 128 accumulators a thread (128 x 256 or 256 x 128); three,
/// 80 (192 x 160: with the producer, 512 threads share the SM's 65536 registers, 128 each at
/// launch). The wgmmas of a k-block run asynchronously: the ring's k-loop gives a stage back once
/// the next k-block's are issued and its own have completed.
///
/// setmaxnreg splits the SM's 65536 registers: the producer keeps 40 a thread, the consumers take
/// the largest multiple of 8 that fits beside it: 232 for two warpgroups (40 x 128 + 232 x 256 =
/// 64512), 152 for three (40 x 128 + 152 x 384 = 63488). ptxas compiles the whole kernel for the
/// launch bound's share (168 or 128); the split moves registers at run time, and the producer's
/// loop must fit its 40 (with 24, its loop over the work units spills).
template <int BM, int BN, int WARPGROUPS = 2>
struct WgmmaConsumer {
  static constexpr int kBlockM = BM, kBlockN = BN;
  static constexpr int kProducerThreads = 128, kConsumerWarps = 4 * WARPGROUPS;
  static constexpr int kConsumerRows = BM / WARPGROUPS, kParts = kConsumerRows / 64;
  static constexpr bool kWgmma = true, kAsync = true;
  using Accum = TileAccum<BN, kParts>;
  static_assert(kConsumerRows % 64 == 0, "a warpgroup's rows are whole m64 results");
  static_assert(WARPGROUPS == 2 ? kParts * BN == 256 : WARPGROUPS == 3 && kParts * BN <= 160,
                "two warpgroups of 128 accumulators a thread, or three of at most 80");
  static constexpr int kProducerRegs = 40;
  static constexpr int kConsumerRegs = (65536 - kProducerRegs * 128) / (128 * WARPGROUPS) / 8 * 8;

  __device__ static void producer_starts() { ptx::setmaxnreg_dec<kProducerRegs>(); }
  __device__ static void consumer_starts() { ptx::setmaxnreg_inc<kConsumerRegs>(); }
  /// One k-block: consumer warp `cwarp` belongs to warpgroup cwarp / 4, whose rows start
  /// kConsumerRows rows (128 bytes each) into the stage's A tile.
  __device__ static void k_block(Accum& acc, std::uint32_t a, std::uint32_t b, int cwarp, int) {
    mma_k_block(acc, a + (cwarp / 4) * kConsumerRows * 128, b);
  }
  /// Where the epilogues find the results: consumer warpgroup c's rows start at c kConsumerRows;
  /// its part h (an m64nBN result) is fragment h, 64 h rows further, stored by warp cwarp % 4 of
  /// the warpgroup (epilogue.cuh).
  __device__ static int first_row(int consumer) { return consumer * kConsumerRows; }
  static constexpr int kFragments = kParts;
  __device__ static Fragment fragment(int i, int cwarp) {
    return {first_row(cwarp / 4) + 64 * i, 0, cwarp % 4};
  }
};
//! [wgmma_consumer]

//! [mma_sync_consumer]
/// Eight consumer warps of mma.sync, 2 x 4 over the BM x BN tile: each owns a (BM / 2) x (BN / 4)
/// warp tile, as 16 x 8 results of m16n8k16 (64 x 32 and 64 accumulators per thread for 128 x 128);
/// one producer warp. The math is synchronous: once the warp's ldmatrix loads of a k-block are
/// done, the stage can go back.
///
/// The stages hold what TMA wrote with its 128-byte swizzle: the 16-byte chunk c of row r of a
/// tile (8 bf16 along K) lies at chunk c ^ (r % 8) of the row. ldmatrix takes one row address per
/// lane, so undoing the swizzle costs one XOR per address: each lane's rows have r % 8 == lane % 8
/// (the fragments start on multiples of 8 rows), a constant of the lane.
template <int BM, int BN>
struct MmaSyncConsumer {
  static constexpr int kBlockM = BM, kBlockN = BN;
  static constexpr int kProducerThreads = 32, kConsumerWarps = 8;
  static constexpr int kWarpM = BM / 2, kWarpN = BN / 4;             // a warp's tile
  static constexpr int kTilesM = kWarpM / 16, kTilesN = kWarpN / 8;  // its mma results
  static constexpr bool kWgmma = false, kAsync = false;
  /// Result (i, j) of the warp, rows 16 i.., columns 8 j..: part[i].d[4 j .. 4 j + 3], the layout
  /// of a 16 x 8 C fragment (and of wgmma's accumulators, so the register epilogue is shared).
  using Accum = TileAccum<kWarpN, kTilesM>;
  static_assert(kTilesN % 2 == 0, "B's fragments come two 8-column tiles per ldmatrix.x4");

  // No setmaxnreg (the plain sm_100 and sm_120 targets lack it): 64 accumulators need no more.
  __device__ static void producer_starts() {}
  __device__ static void consumer_starts() {}
  //! [mma_sync_k_block]
  /// One k-block (64 along K: four k-steps of 16) of warp `cwarp`'s tile.
  __device__ static void k_block(Accum& acc, std::uint32_t a, std::uint32_t b, int cwarp,
                                 int lane) {
    const int warp_m = cwarp / 4, warp_n = cwarp % 4;
    // ldmatrix.x4 of A: lanes 0-15 give rows 0-15 of a 16-row fragment at k 0-7, lanes 16-31 the
    // same rows at k 8-15: registers a0..a3 of mma's A fragment.
    const std::uint32_t a_row = a + (warp_m * kWarpM + lane % 16) * 128;
    const int a_half = lane / 16;
    // ldmatrix.x4 of B (N x K, K-major): lanes 0-7 and 8-15 give columns 0-7 at k 0-7 and 8-15,
    // lanes 16-31 columns 8-15: b0, b1 of two 8-column tiles.
    const std::uint32_t b_row = b + (warp_n * kWarpN + lane % 8 + 8 * (lane / 16)) * 128;
    const int b_half = (lane / 8) % 2;
    const int swz = lane % 8;  // r % 8 of every row this lane addresses
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
      std::uint32_t fa[kTilesM][4], fb[kTilesN / 2][4];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        lesson10::ldmatrix_x4(fa[i], a_row + i * 16 * 128 + (((2 * kk + a_half) ^ swz) << 4));
      }
#pragma unroll
      for (int j = 0; j < kTilesN / 2; ++j) {
        lesson10::ldmatrix_x4(fb[j], b_row + j * 16 * 128 + (((2 * kk + b_half) ^ swz) << 4));
      }
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) {
          // Result (i, j) in place: d[4 j] .. d[4 j + 3] of part i.
          auto& d = reinterpret_cast<float(&)[4]>(acc.part[i].d[4 * j]);
          const std::uint32_t bj[2] = {fb[j / 2][2 * (j % 2)], fb[j / 2][2 * (j % 2) + 1]};
          lesson10::mma_m16n8k16_bf16(d, fa[i], bj);
        }
      }
    }
  }
  //! [mma_sync_k_block]
  /// Where the register epilogue finds the results (epilogue.cuh): the 16-row strip i of warp
  /// cwarp's tile is part i, laid out as wgmma's warp 0 holds its rows.
  static constexpr int kFragments = kTilesM;
  __device__ static Fragment fragment(int i, int cwarp) {
    return {(cwarp / 4) * kWarpM + 16 * i, (cwarp % 4) * kWarpN, 0};
  }
};
//! [mma_sync_consumer]

// ---- the mainloop: the ring of stages between the producer and the consumers -------------------
/// What the mainloop is told, from the host: the bytes a stage's full barrier expects
/// (stage_tx_bytes, yours), the arrivals its empty barrier counts (empty_barrier_arrivals, yours)
/// and how long any wait may last.
struct RingParams {
  std::uint32_t stage_bytes = 0;
  std::uint32_t empty_arrivals = 0;
  ptx::WaitLimit limit;
};

//! [mainloop]
/// The ring of rungs 3 to 7: STAGES stages of a BM x 64 tile of A and a BN x 64 tile of B, each
/// with a full and an empty barrier, between one producer thread and CONSUMER's warps. Every block
/// loads its own tiles. The functions below (ring_init, produce, consume) call its hooks through
/// the type they are given, so that a mainloop of the lab (clusters that share a tile by
/// multicast) changes a hook and keeps the ring.
template <class CONSUMER, int STAGES>
struct Mainloop {
  using Consumer = CONSUMER;
  static constexpr int kStages = STAGES;
  static constexpr int kBlockM = Consumer::kBlockM, kBlockN = Consumer::kBlockN, kBlockK = 64;
  static constexpr int kCluster = 1;  ///< blocks launched together that share a stage's tiles
  /// Consumer warps that release each stage: every one of the block.
  static constexpr int kReleasingWarps = Consumer::kConsumerWarps;

  /// The stages: K-major rows of 64 bf16, each tile 1024-byte aligned for the 128-byte swizzle.
  struct Stages {
    alignas(1024) __nv_bfloat16 a[STAGES][kBlockM * kBlockK];
    alignas(1024) __nv_bfloat16 b[STAGES][kBlockN * kBlockK];
  };
  struct Barriers {
    std::uint64_t full[STAGES];   // the producer's expect_tx arrival, then TMA's bytes
    std::uint64_t empty[STAGES];  // every consumer warp that read the stage
  };

  /// The producer's and the consumers' first step: setmaxnreg's split of the registers (wgmma).
  __device__ static void producer_starts() { Consumer::producer_starts(); }
  __device__ static void consumer_starts() { Consumer::consumer_starts(); }
  /// The block's place in its cluster, and the tile it computes of the tile the source gives.
  __device__ static int rank() { return 0; }
  __device__ static TileCoord block_tile(TileCoord tile, int) { return tile; }
  /// Once the barriers are initialized: every thread that will use them waits for it.
  __device__ static void barriers_ready() { __syncthreads(); }
  /// Before the block exits: nothing of the ring is still in flight once the consumers are done.
  __device__ static void finish() {}
  /// A wait on a stage's barrier (ptx::mbarrier_wait: try_wait, bounded).
  __device__ static void wait(std::uint64_t* bar, std::uint32_t parity, const ptx::WaitLimit& limit,
                              ptx::Waiter what, int stage) {
    ptx::mbarrier_wait(bar, parity, limit, what, stage);
  }
  /// k-block `kb` of `tile`: both tiles, by TMA, into stage `stage`, counted on its full barrier.
  __device__ static void load(Stages& st, std::uint64_t* full, const CUtensorMap* map_a,
                              const CUtensorMap* map_b, int stage, int kb, TileCoord tile, int) {
    ptx::tma_load_2d(st.a[stage], map_a, full, kb * kBlockK, tile.m * kBlockM);
    ptx::tma_load_2d(st.b[stage], map_b, full, kb * kBlockK, tile.n * kBlockN);
  }
  /// Gives a stage back: lane 0 of each consumer warp arrives once on its empty barrier.
  __device__ static void release(std::uint64_t* empty, int lane, int) {
    if (lane == 0) ptx::mbarrier_arrive(empty);
  }
};
//! [mainloop]

//! [ring_init]
/// Thread 0 initializes every stage's two barriers: "full" completes a phase with one arrival (the
/// producer's expect_tx) and the bytes TMA brings; "empty" with `empty_arrivals` (yours:
/// empty_barrier_arrivals()). Then every thread that uses them waits (ML::barriers_ready): no one
/// uses a barrier before it exists.
template <class ML>
__device__ inline void ring_init(typename ML::Barriers& bars, const RingParams& p) {
  if (threadIdx.x == 0) {
    for (int s = 0; s < ML::kStages; ++s) {
      ptx::mbarrier_init(&bars.full[s], 1);
      ptx::mbarrier_init(&bars.empty[s], p.empty_arrivals);
    }
    ptx::fence_barrier_init();
  }
  ML::barriers_ready();
}
//! [ring_init]

//! [ring_producer]
/// The producer, one thread, over one work unit: k-blocks k_begin .. k_end - 1 of `tile`, each into
/// the stage the ring names for it (producer_slot, yours) once the consumers have released that
/// stage; the stage's full barrier is told how many bytes to expect (stage_tx_bytes, yours) and
/// TMA counts them in. `it` counts the k-blocks loaded so far, over every unit of the block.
template <class ML>
__device__ inline void produce(typename ML::Stages& st, typename ML::Barriers& bars,
                               const CUtensorMap* map_a, const CUtensorMap* map_b,
                               const RingParams& p, TileCoord tile, int k_begin, int k_end, int& it,
                               int rank) {
  for (int kb = k_begin; kb < k_end; ++kb, ++it) {
    const RingSlot slot = producer_slot(it, ML::kStages);
    ML::wait(&bars.empty[slot.stage], slot.parity, p.limit, ptx::Waiter::kEmpty, slot.stage);
    ptx::mbarrier_arrive_expect_tx(&bars.full[slot.stage], p.stage_bytes);
    ML::load(st, &bars.full[slot.stage], map_a, map_b, slot.stage, kb, tile, rank);
  }
}
//! [ring_producer]

//! [ring_consumer]
/// The consumers' k-loop over one work unit: k-blocks `it` .. `it` + k_blocks - 1 of the ring
/// (`it` advances, counted exactly as the producer counts them). Each waits for its stage's full
/// barrier (consumer_slot, yours), multiplies, and gives the stage back: at once when the math is
/// synchronous (mma.sync), or, when it runs asynchronously (wgmma), once the next k-block's math
/// is issued and this one's has completed. It returns with the last k-block's math issued: the
/// stage still being read, or -1 (drain() waits for it and gives it back).
template <class ML>
__device__ inline int issue(typename ML::Stages& st, typename ML::Barriers& bars,
                            typename ML::Consumer::Accum& acc, int& it, int k_blocks, int warp,
                            int lane, int rank, const ptx::WaitLimit& limit) {
  using Consumer = typename ML::Consumer;
  acc.zero();
  int previous_stage = -1;
  for (int kb = 0; kb < k_blocks; ++kb, ++it) {
    const RingSlot slot = consumer_slot(it, ML::kStages);
    ML::wait(&bars.full[slot.stage], slot.parity, limit, ptx::Waiter::kFull, slot.stage);
    Consumer::k_block(acc, ptx::smem_addr(st.a[slot.stage]), ptx::smem_addr(st.b[slot.stage]), warp,
                      lane);
    if constexpr (Consumer::kAsync) {
      // This k-block's wgmmas keep running; the previous k-block's have completed.
      ptx::wgmma_wait<1>();
      if (previous_stage >= 0) ML::release(&bars.empty[previous_stage], lane, rank);
      previous_stage = slot.stage;
    } else {
      __syncwarp();  // every lane's ldmatrix has read the stage
      ML::release(&bars.empty[slot.stage], lane, rank);
    }
  }
  return previous_stage;
}

/// The last k-block's math completes, and its stage goes back.
template <class ML>
__device__ inline void drain(typename ML::Barriers& bars, int last_stage, int lane, int rank) {
  if constexpr (ML::Consumer::kAsync) {
    ptx::wgmma_wait<0>();
    ML::release(&bars.empty[last_stage], lane, rank);
  }
}

/// One work unit's k-loop, its results complete in `acc`.
template <class ML>
__device__ inline void consume(typename ML::Stages& st, typename ML::Barriers& bars,
                               typename ML::Consumer::Accum& acc, int& it, int k_blocks, int warp,
                               int lane, int rank, const ptx::WaitLimit& limit) {
  const int last = issue<ML>(st, bars, acc, it, k_blocks, warp, lane, rank, limit);
  drain<ML>(bars, last, lane, rank);
}
//! [ring_consumer]

}  // namespace COURSE_LIBRARY
}  // namespace lesson11
