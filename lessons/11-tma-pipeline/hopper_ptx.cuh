// Lesson 11: the Hopper instructions the kernels use, one small inline-PTX wrapper each. They are
// given code: the chapter explains each one, and the kernels read as a protocol between them.
//
// TMA, mbarrier and stmatrix need compute capability 9.0 or newer (the portable rung uses them on
// sm_90, sm_100 and sm_120 alike). wgmma exists only on the sm_90a
// target; setmaxnreg on the architecture-specific targets (sm_90a, sm_100a, sm_120a and their
// kin), which the course builds only for sm_90a. Compiled for another target, their wrappers are a
// trap, which the launchers never reach (they refuse such a GPU for the wgmma rungs before
// launching).
#pragma once

#include <cuda.h>  // CUtensorMap
#include <cuda_bf16.h>

#include <cstdint>

// The inline PTX of sm_90a alone (wgmma, setmaxnreg): compiled for another target, a trap.
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define LESSON11_SM90A_ASM(...) __trap()
#else
#define LESSON11_SM90A_ASM(...) asm volatile(__VA_ARGS__)
#endif

namespace lesson11::ptx {

// ---- shared-memory addresses --------------------------------------------------------------------
// PTX's shared-memory operands are 32-bit offsets in the block's shared window, not generic
// pointers.
__device__ inline std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// A 4-byte store to a shared-memory address. No "memory" clobber: the compiler may schedule the
// arithmetic around it freely; the fence and barrier that follow the stores order them.
__device__ inline void st_shared_b32(std::uint32_t address, std::uint32_t value) {
  asm volatile("st.shared.b32 [%0], %1;" ::"r"(address), "r"(value));
}

//! [mbarrier]
// ---- mbarrier: a barrier in shared memory that counts arrivals and bytes -----------------------
// It completes a phase when `count` threads have arrived and every byte announced with
// expect_tx has landed; the phase bit then flips (0, 1, 0, ...). Waiting names the parity of the
// phase one waits for.
__device__ inline void mbarrier_init(std::uint64_t* bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}

// Makes the initialized barriers visible to the async proxy (TMA) and to the other threads, which
// meet at a __syncthreads() after it.
__device__ inline void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// One arrival that also announces `bytes` more to come from TMA before this phase can complete.
__device__ inline void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(bytes)
               : "memory");
}

__device__ inline void mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
//! [mbarrier]

// One test: true once the phase of parity `parity` has completed. try_wait: while the phase is
// incomplete, the hardware may suspend the thread for a while before it answers, so a loop of
// tests does not keep the issue slots busy.
__device__ inline bool mbarrier_try_wait(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}"
      : "=r"(done)
      : "r"(smem_addr(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

//! [mbarrier_wait]
// ---- bounded waits: a wait that cannot end says which one it was, then traps -------------------
// A protocol error (a wrong parity, too few arrivals, a wrong expected byte count) would otherwise
// hang the GPU for good. Every wait of the lesson gives up after WaitLimit::ns nanoseconds of the
// GPU's global timer (a second unless COURSE_WAIT_LIMIT_S says otherwise): the waiting thread
// writes what it waited for into host memory mapped for the GPU (WaitReport), then traps. The
// launch fails ("unspecified launch failure") and the host's error message reads the report (the
// launchers register it with course::add_failure_note). No printf: a call to printf anywhere in a
// kernel makes ptxas serialize every wgmma of it.

/// Which kind of wait expired: the ring's two (the lab adds its own kinds after them).
enum class Waiter : std::uint32_t { kFull = 1, kEmpty = 2 };

/// What the thread whose wait expired leaves for the host, in two words written with one store:
/// `where` = what | parity << 2 | stage << 3 | thread << 16, and the block. Nonzero once written
/// (`what` is never 0).
struct WaitReport {
  std::uint32_t where, block;
};

/// How long a wait may take, and where to report one that takes longer.
struct WaitLimit {
  WaitReport* report = nullptr;   ///< mapped host memory; null: trap without a report
  std::uint32_t ns = 1000000000;  ///< nanoseconds of %globaltimer, at most 4e9
};

// The low 32 bits of the GPU's global nanosecond timer: differences are right up to 4.29 s.
__device__ inline std::uint32_t global_timer_ns() {
  std::uint32_t t;
  asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(t));
  return t;
}

// The end of an expired wait: the report through the system-scope fence (the host reads it after
// the launch failed), then the trap. Many threads may write it at once: each report is true.
__device__ inline void wait_expired(const WaitLimit& limit, Waiter what, std::uint32_t stage,
                                    std::uint32_t parity) {
  if (limit.report != nullptr) {
    const std::uint32_t where = static_cast<std::uint32_t>(what) | (parity & 1u) << 2 |
                                (stage & 0x1FFFu) << 3 | threadIdx.x << 16;
    const std::uint32_t block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    asm volatile("st.volatile.global.v2.u32 [%0], {%1, %2};" ::"l"(limit.report), "r"(where),
                 "r"(block)
                 : "memory");
    __threadfence_system();
  }
  __trap();
}

// Waits until `done()` is true: the first test is the whole cost when it already is; the clock is
// read only while waiting. After limit.ns it reports `what`, `stage` and `parity` and traps.
template <class Done>
__device__ inline void bounded_wait(Done done, const WaitLimit& limit, Waiter what,
                                    std::uint32_t stage, std::uint32_t parity) {
  if (done()) return;
  const std::uint32_t start = global_timer_ns();
  while (!done()) {
    if (global_timer_ns() - start > limit.ns) wait_expired(limit, what, stage, parity);
  }
}

// Waits for the phase of parity `parity` of the barrier of stage `stage` (`what`: its full or its
// empty barrier).
__device__ inline void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity,
                                     const WaitLimit& limit, Waiter what, int stage) {
  bounded_wait([&] { return mbarrier_try_wait(bar, parity); }, limit, what, stage, parity);
}
//! [mbarrier_wait]

// ---- TMA: the copy engine moves whole tiles described by a tensor map ---------------------------
//! [tma_load]
// Loads the box at (x = column, y = row) of `map` into shared memory at `dst` and counts its
// bytes on `bar`. Parts of the box outside the tensor arrive as zeros (and still count).
__device__ inline void tma_load_2d(void* dst, const CUtensorMap* map, std::uint64_t* bar, int x,
                                   int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_addr(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_addr(bar)), "r"(x), "r"(y)
      : "memory");
}
//! [tma_load]

//! [tma_store]
// Stores the shared-memory tile at `src` to the box at (x, y) of `map`. Elements outside the
// tensor are not written: ragged edges need no code.
__device__ inline void tma_store_2d(const CUtensorMap* map, const void* src, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
          reinterpret_cast<std::uint64_t>(map)),
      "r"(smem_addr(src)), "r"(x), "r"(y)
      : "memory");
}

// TMA stores are tracked in bulk groups of the issuing thread.
__device__ inline void tma_store_commit() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// Waits until the committed stores are complete (their writes done): before the block exits.
__device__ inline void tma_store_wait_all() {
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// Orders this thread's ordinary shared-memory writes before later async-proxy (TMA, wgmma)
// accesses of that memory: the two proxies do not see each other's accesses otherwise.
__device__ inline void fence_proxy_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
//! [tma_store]

// Waits until at most kPending of the most recently committed groups may still be reading their
// shared memory (0: every committed store has read it, and it may be rewritten). With two staging
// buffers used in turn, the store of the buffer about to be rewritten is then done reading, while
// the other buffer's store may go on.
template <int kPending>
__device__ inline void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kPending) : "memory");
}

// Tells the memory system that the map in parameter space will be read by TMA soon.
__device__ inline void prefetch_tensor_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}

// ---- named barriers: a __syncthreads() for a subset of warps ------------------------------------
// The id is a compile-time constant: with a run-time id the compiler must reserve all 16 barriers.
template <int kId>
__device__ inline void named_barrier_sync(int threads) {
  asm volatile("bar.sync %0, %1;" ::"n"(kId), "r"(threads) : "memory");
}

// ---- stmatrix: a warp stores four 8 x 8 matrices of 16-bit values -------------------------------
// Register k of lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix k (two bf16
// in 32 bits: exactly the layout of an mma or wgmma accumulator fragment); lane 8 k + r gives the
// shared address of row r of matrix k, 16 bytes. One instruction stores 512 bytes where st.shared
// needs four, and each row's address is free, so a swizzled layout costs nothing extra.
__device__ inline void stmatrix_x4(std::uint32_t address, std::uint32_t r0, std::uint32_t r1,
                                   std::uint32_t r2, std::uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(address),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3));
}

//! [setmaxnreg]
// ---- setmaxnreg: move registers between warpgroups ---------------------------------------------
// The producer needs few registers, the consumers' accumulators need many: the producer gives
// registers back to the SM's pool and the consumers take them.
template <int kRegs>
__device__ inline void setmaxnreg_dec() {
  LESSON11_SM90A_ASM("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegs));
}
template <int kRegs>
__device__ inline void setmaxnreg_inc() {
  LESSON11_SM90A_ASM("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegs));
}
//! [setmaxnreg]

// ---- wgmma: a warpgroup's asynchronous matrix multiply-accumulate -------------------------------
//! [wgmma_sync]
// Before the first wgmma that uses accumulator registers written by ordinary instructions.
__device__ inline void wgmma_fence() {
  LESSON11_SM90A_ASM("wgmma.fence.sync.aligned;" ::: "memory");
}
// Closes the group of wgmmas issued so far.
__device__ inline void wgmma_commit() {
  LESSON11_SM90A_ASM("wgmma.commit_group.sync.aligned;" ::: "memory");
}
// Waits until at most kPending committed groups are still running.
template <int kPending>
__device__ inline void wgmma_wait() {
  LESSON11_SM90A_ASM("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}
//! [wgmma_sync]

// The accumulators of one m64nNk16 wgmma, per thread: N / 2 floats.
template <int N>
struct WgmmaAccum {
  float d[N / 2];
};

// D (64 x N, FP32, registers) += A (64 x 16, bf16, shared) * B (N x 16, bf16, shared)^T, both
// operands K-major and described by shared-memory matrix descriptors. scale_d = 0 ignores D's
// old value (the first k-step of a tile). Written out for the N values the kernels use.
template <int N>
__device__ void wgmma_m64k16(WgmmaAccum<N>& acc, std::uint64_t desc_a, std::uint64_t desc_b,
                             int scale_d);

#define LESSON11_WGMMA_REGS_8(i)                                                  \
  "+f"(acc.d[i + 0]), "+f"(acc.d[i + 1]), "+f"(acc.d[i + 2]), "+f"(acc.d[i + 3]), \
      "+f"(acc.d[i + 4]), "+f"(acc.d[i + 5]), "+f"(acc.d[i + 6]), "+f"(acc.d[i + 7])

//! [wgmma_n128]
template <>
__device__ inline void wgmma_m64k16<128>(WgmmaAccum<128>& acc, std::uint64_t desc_a,
                                         std::uint64_t desc_b, int scale_d) {
  LESSON11_SM90A_ASM(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1, 0, 0;\n}\n"
      : LESSON11_WGMMA_REGS_8(0), LESSON11_WGMMA_REGS_8(8), LESSON11_WGMMA_REGS_8(16),
        LESSON11_WGMMA_REGS_8(24), LESSON11_WGMMA_REGS_8(32), LESSON11_WGMMA_REGS_8(40),
        LESSON11_WGMMA_REGS_8(48), LESSON11_WGMMA_REGS_8(56)
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}
//! [wgmma_n128]

// The 192 x 160 tile's consumers (three warpgroups of 64 x 160): 80 accumulators a thread.
template <>
__device__ inline void wgmma_m64k16<160>(WgmmaAccum<160>& acc, std::uint64_t desc_a,
                                         std::uint64_t desc_b, int scale_d) {
  LESSON11_SM90A_ASM(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n160k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79}, "
      "%80, %81, p, 1, 1, 0, 0;\n}\n"
      : LESSON11_WGMMA_REGS_8(0), LESSON11_WGMMA_REGS_8(8), LESSON11_WGMMA_REGS_8(16),
        LESSON11_WGMMA_REGS_8(24), LESSON11_WGMMA_REGS_8(32), LESSON11_WGMMA_REGS_8(40),
        LESSON11_WGMMA_REGS_8(48), LESSON11_WGMMA_REGS_8(56), LESSON11_WGMMA_REGS_8(64),
        LESSON11_WGMMA_REGS_8(72)
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

template <>
__device__ inline void wgmma_m64k16<256>(WgmmaAccum<256>& acc, std::uint64_t desc_a,
                                         std::uint64_t desc_b, int scale_d) {
  LESSON11_SM90A_ASM(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, "
      "%111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, "
      "%126, %127}, "
      "%128, %129, p, 1, 1, 0, 0;\n}\n"
      : LESSON11_WGMMA_REGS_8(0), LESSON11_WGMMA_REGS_8(8), LESSON11_WGMMA_REGS_8(16),
        LESSON11_WGMMA_REGS_8(24), LESSON11_WGMMA_REGS_8(32), LESSON11_WGMMA_REGS_8(40),
        LESSON11_WGMMA_REGS_8(48), LESSON11_WGMMA_REGS_8(56), LESSON11_WGMMA_REGS_8(64),
        LESSON11_WGMMA_REGS_8(72), LESSON11_WGMMA_REGS_8(80), LESSON11_WGMMA_REGS_8(88),
        LESSON11_WGMMA_REGS_8(96), LESSON11_WGMMA_REGS_8(104), LESSON11_WGMMA_REGS_8(112),
        LESSON11_WGMMA_REGS_8(120)
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

#undef LESSON11_WGMMA_REGS_8

}  // namespace lesson11::ptx
