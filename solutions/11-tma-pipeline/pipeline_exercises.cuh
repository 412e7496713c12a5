// Lesson 11: TMA pipeline. The two pieces of the Hopper GEMM that are yours: the shared-memory
// matrix descriptor that tells wgmma where a tile is and how it is laid out, and the ring's
// barrier protocol (which stage, which phase parity, how many bytes, how many arrivals).
//
// exercises/11-tma-pipeline/pipeline_exercises.cuh is yours: fill in the regions between
// "BEGIN EXERCISE" and "END EXERCISE". The kernels that call these functions are given
// (lessons/11-tma-pipeline/*.cuh); solutions/11-tma-pipeline/pipeline_exercises.cuh is this file
// with the regions filled in. The chapter, lessons/11-tma-pipeline/README.md, explains each field
// and each barrier.
//
// Every function here is __host__ __device__: the kernels call them on the GPU, and the grader and
// the launchers call them on the CPU first (a launcher checks the protocol on a model of the ring
// before it launches anything, so a wrong parity is an error message, not a hung GPU).
//
// `make grade-11` grades it, `make lesson-11` runs the ladder against cuBLAS, `make hint-11`
// gives the next hint.
#pragma once

#include "ring_slot.hpp"  // RingSlot

#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

#include <cstdint>

namespace lesson11 {
inline namespace COURSE_LIBRARY {  // yours or reference, named by the build (common/library.hpp)

// ---- Task 1: the shared-memory matrix descriptor ------------------------------------------------
// A wgmma operand in shared memory is described by 64 bits (PTX ISA, "Matrix Descriptor Format"):
//   bits  0-13  start address        (the shared-memory byte address >> 4)
//   bits 16-29  leading byte offset  (>> 4; unused for K-major tiles with a 128-byte swizzle: 1)
//   bits 32-45  stride byte offset   (>> 4; the distance between two groups of 8 rows)
//   bits 49-51  base offset          (0: every tile starts on a 1024-byte boundary)
//   bits 62-63  swizzle mode         (0 none, 1 128-byte, 2 64-byte, 3 32-byte)
// The course's tiles are K-major, 64 bf16 (128 bytes) per row, written by TMA with its 128-byte
// swizzle: 8 rows make one 1024-byte swizzle atom, so the stride byte offset is 1024.

/// The descriptor of a K-major bf16 tile of 128-byte rows, 128-byte swizzled, that starts at shared
/// address `smem_address` (a multiple of 16; k-steps inside the tile add 32 bytes per 16 columns).
COURSE_HD inline std::uint64_t make_smem_descriptor(std::uint32_t smem_address) {
  //! [make_smem_descriptor]
  // BEGIN EXERCISE: make_smem_descriptor
  const std::uint64_t start = (smem_address >> 4) & 0x3FFF;  // 14 bits: addresses below 256 KiB
  const std::uint64_t leading = 16 >> 4;                     // ignored by this layout: 1
  const std::uint64_t stride = 1024 >> 4;                    // 8 rows of 128 bytes
  const std::uint64_t swizzle_128b = 1;
  return start | (leading << 16) | (stride << 32) | (swizzle_128b << 62);
  // END EXERCISE
  //! [make_smem_descriptor]
}

// ---- Task 2: the ring ---------------------------------------------------------------------------
// The producer fills a ring of `stages` shared-memory stages with TMA; the consumers multiply out
// of them. Each stage has two mbarriers: "full" (the producer announced the bytes and TMA
// delivered them) and "empty" (every consumer warp is done reading it). k-blocks are numbered
// `it` = 0, 1, 2, ... over the whole kernel (across tiles), in the same order by producer and
// consumers. An mbarrier's phases alternate parity 0, 1, 0, ...; a freshly initialized barrier
// is in phase 0, and waiting for parity P returns once the phase of parity P has completed —
// waiting for parity 1 on a fresh barrier returns at once (the phase "before" phase 0 counts as
// completed).

// RingSlot (ring_slot.hpp): a k-block's stage, and the parity of the phase to wait for.

/// The consumers' wait for k-block `it`: its stage, and the parity of the phase of that stage's
/// *full* barrier that completes when TMA has delivered k-block `it`.
COURSE_HD inline RingSlot consumer_slot(int it, int stages) {
  //! [consumer_slot]
  // BEGIN EXERCISE: consumer_slot
  // The stage's full barrier completes one phase per pass around the ring: pass 0 is phase 0.
  return RingSlot{it % stages, static_cast<std::uint32_t>((it / stages) & 1)};
  // END EXERCISE
  //! [consumer_slot]
}

/// The producer's wait before it loads k-block `it`: its stage, and the parity of the phase of
/// that stage's *empty* barrier that completes when the consumers have released the k-block that
/// used the stage one pass earlier (it - stages). On the first pass the stages are free.
COURSE_HD inline RingSlot producer_slot(int it, int stages) {
  //! [producer_slot]
  // BEGIN EXERCISE: producer_slot
  // One pass behind the consumers: pass p waits for the empty phase of pass p - 1, whose parity is
  // the opposite of p's; on pass 0 that is parity 1, which a fresh barrier reports as completed.
  return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};
  // END EXERCISE
  //! [producer_slot]
}

/// The bytes the producer announces on a stage's full barrier (arrive.expect_tx) for one k-block:
/// a `block_m` x `block_k` tile of A and a `block_n` x `block_k` tile of B, bf16. TMA counts whole
/// boxes, zero-filled parts outside the matrix included.
COURSE_HD inline std::uint32_t stage_tx_bytes(int block_m, int block_n, int block_k) {
  //! [stage_tx_bytes]
  // BEGIN EXERCISE: stage_tx_bytes
  return static_cast<std::uint32_t>((block_m + block_n) * block_k * 2);  // 2 bytes per bf16
  // END EXERCISE
  //! [stage_tx_bytes]
}

/// The arrival count a stage's empty barrier is initialized with, when each of `consumer_warps`
/// consumer warps arrives once after its wgmmas on the stage have completed.
COURSE_HD inline std::uint32_t empty_barrier_arrivals(int consumer_warps) {
  //! [empty_barrier_arrivals]
  // BEGIN EXERCISE: empty_barrier_arrivals
  return static_cast<std::uint32_t>(consumer_warps);
  // END EXERCISE
  //! [empty_barrier_arrivals]
}

}  // namespace COURSE_LIBRARY
}  // namespace lesson11
