/// \file cp_async.cuh
/// \brief Lesson 09, given code: `cp.async`, the asynchronous copy from global to shared memory,
/// each form wrapped in one inline function; lesson 09's kernel stages its tiles with it, and
/// lesson 10's includes it by path (`#include "lessons/09-swizzling/cp_async.cuh"`).
#pragma once

#include <cstdint>

namespace lesson09 {

//! [cp_async]
// cp.async (compute capability 8.0 and up) copies global memory straight into shared memory,
// without a register in between and without waiting: the thread issues the copy and carries on.
// `src_bytes` below the copy's size fills the rest with zeros: 0 makes a zero, the padding of a
// partial tile. Copies are grouped (commit) and waited for by group (wait_group N: all but the N
// most recent groups have landed). Before 8.0, an ordinary load and store does the same, in order.
__device__ __forceinline__ void cp_async_4(std::uint32_t dst, const float* src, int src_bytes) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes)
               : "memory");
#else
  const float v = src_bytes > 0 ? *src : 0.0f;
  asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(dst), "f"(v) : "memory");
#endif
}

// .cg: through L2 only; a tile is read once per block, L1 would not help. Any 16 bytes (4 floats
// of lesson 09's B, 8 bf16 of lesson 10's tiles): `src` 16-byte aligned.
__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src, int src_bytes) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(src_bytes)
               : "memory");
#else
  const float* words = static_cast<const float*>(src);
  float v[4];
  for (int i = 0; i < 4; ++i) v[i] = 4 * i < src_bytes ? words[i] : 0.0f;
  asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "f"(v[0]), "f"(v[1]),
               "f"(v[2]), "f"(v[3])
               : "memory");
#endif
}

// Closes the group of this thread's copies issued since the last commit.
__device__ __forceinline__ void cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
//! [cp_async]

}  // namespace lesson09
