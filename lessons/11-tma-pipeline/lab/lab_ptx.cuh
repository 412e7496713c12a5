// Lesson 11's lab: the instructions only the lab's variants use, one inline-PTX wrapper each,
// beside the ladder's (hopper_ptx.cuh): clusters, TMA multicast, the cluster-scope and polling
// waits, the named barrier's arrive without wait (ping-pong), and flags in global memory between
// blocks (stream-K).
#pragma once

#include "hopper_ptx.cuh"

#include <cuda.h>

#include <cstdint>

namespace lesson11::ptx {

// One test of a barrier that other blocks of the cluster arrive on and fill: try_wait with cluster
// scope, which sees their arrivals and bytes.
__device__ inline bool mbarrier_try_wait_cluster(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}"
      : "=r"(done)
      : "r"(smem_addr(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

// The same with test_wait: it answers at once, so a loop of them polls and is never suspended.
__device__ inline bool mbarrier_test_wait_cluster(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}"
      : "=r"(done)
      : "r"(smem_addr(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

// The same box, delivered to the same shared-memory offset in every block of the cluster named in
// `cta_mask` (bit r: the block of rank r), and counted on the barrier at `bar`'s offset in each of
// them. One read of L2 feeds several SMs.
__device__ inline void tma_load_2d_multicast(void* dst, const CUtensorMap* map, std::uint64_t* bar,
                                             int x, int y, std::uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_addr(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_addr(bar)), "r"(x), "r"(y), "h"(cta_mask)
      : "memory");
}

// Arrives on a named barrier without waiting: with bar.sync by the other threads that it counts,
// one group of warps lets another go on.
template <int kId>
__device__ inline void named_barrier_arrive(int threads) {
  asm volatile("bar.arrive %0, %1;" ::"n"(kId), "r"(threads) : "memory");
}
// ---- clusters: blocks on neighbouring SMs that see each other's shared memory ----------------
__device__ inline std::uint32_t cluster_rank() {
  std::uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

// Every thread of every block of the cluster arrives and waits: after it, what each block wrote to
// shared memory (its barriers' initialization, say) is visible to the others.
__device__ inline void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release.aligned;\n"
      "barrier.cluster.wait.acquire.aligned;" ::
          : "memory");
}

//! [remote_arrive]
// One arrival on the barrier at `bar`'s offset in the shared memory of the cluster's block `rank`.
// Default (.cta) semantics: the arrival only says "this stage may be refilled", and what made that
// true (the wgmmas' reads of it) is already complete; a .release.cluster arrival would first wait
// for all of this thread's memory operations to be visible cluster-wide, on every k-block.
__device__ inline void mbarrier_arrive_cluster(std::uint64_t* bar, std::uint32_t rank) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}" ::"r"(smem_addr(bar)),
      "r"(rank)
      : "memory");
}
//! [remote_arrive]

//! [gpu_flags]
// ---- flags in global memory between blocks ------------------------------------------------------
// A block hands data to another through global memory and a flag: the writer's stores must be
// visible to the reader before the flag is. A store with release semantics at GPU scope is ordered
// after every memory operation the storing thread has done or has seen done (the other threads'
// stores, through a barrier before it); a load with acquire semantics at GPU scope is ordered
// before every later memory operation of the loading thread (and of the threads that meet it at a
// barrier after it). Plain loads and stores give no such order between SMs.
__device__ inline void st_release_gpu(std::uint32_t* flag, std::uint32_t value) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}
__device__ inline std::uint32_t ld_acquire_gpu(const std::uint32_t* flag) {
  std::uint32_t value;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

/// The lab's kind of expired wait, after the ring's two (hopper_ptx.cuh): a split tile's finisher
/// waiting for another block's flag.
constexpr Waiter kFlagWaiter = static_cast<Waiter>(3);

// Waits until `*flag == value`, as long as `limit` allows (a flag of stream-K's block `slot`):
// like mbarrier_wait, it then reports and traps rather than hang the GPU.
__device__ inline void wait_flag(const std::uint32_t* flag, std::uint32_t value,
                                 const WaitLimit& limit, int slot) {
  bounded_wait([&] { return ld_acquire_gpu(flag) == value; }, limit, kFlagWaiter, slot, value);
}
//! [gpu_flags]
}  // namespace lesson11::ptx
