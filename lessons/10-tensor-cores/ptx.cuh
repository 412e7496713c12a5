/// \file ptx.cuh
/// \brief Lesson 10, given code: the four PTX instructions of the mma.sync kernel, each wrapped in
/// one inline function. CUDA C++ has no intrinsic for `ldmatrix` or for this shape of `mma.sync`,
/// so they are written as inline assembly; `cp.async` is lesson 09's.
///
/// All need compute capability 8.0. Compiled for an older GPU they become a trap (the launchers
/// refuse such a GPU before they launch anything, so it is never reached).
#pragma once

#include <cuda_runtime.h>  // __device__, __forceinline__: for a plain C++ compiler too

// Device code only: a plain C++ compiler (the grader and the figures, which include your
// mma_sync_parts.cuh for its fragment mappings) sees none of it.
#ifdef __CUDACC__

#include "lessons/09-swizzling/cp_async.cuh"

#include <cstdint>

namespace lesson10 {

// cp.async is lesson 09's (lessons/09-swizzling/cp_async.cuh): 16 bytes at a time here.
using lesson09::cp_async_16;
using lesson09::cp_async_commit;
using lesson09::cp_async_wait;

//! [ldmatrix]
/// ldmatrix.x4: the warp loads four 8 x 8 matrices of 16-bit values from shared memory. Lanes
/// 8q .. 8q + 7 give the addresses of the 8 rows (16 bytes each) of matrix q; afterwards
/// register q of lane L holds row L / 4, columns 2 (L % 4) and 2 (L % 4) + 1 of matrix q: exactly
/// the fragment layout of mma.sync. One instruction replaces 16 scalar shared-memory loads.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
#if __CUDA_ARCH__ >= 800
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
#else
  (void)addr;
  r[0] = r[1] = r[2] = r[3] = 0;
  __trap();
#endif
}
//! [ldmatrix]

//! [mma]
/// One warp-wide matrix multiply-accumulate on the tensor cores: D (16 x 8, fp32) += A (16 x 16,
/// bf16, row-major) * B (16 x 8, bf16, column-major). 4096 FLOP in one instruction; each lane
/// gives 4 registers of A (8 bf16), 2 of B (4 bf16) and 4 floats of D, laid out as
/// mma_fragment.hpp describes.
__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4],
                                                  const std::uint32_t (&b)[2]) {
#if __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  (void)d, (void)a, (void)b;
  __trap();
#endif
}
//! [mma]

}  // namespace lesson10

#endif  // __CUDACC__
