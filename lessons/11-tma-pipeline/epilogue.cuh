// Lesson 11: what the consumers do with their accumulators once a tile's K loop is done. Given
// code, shared by the kernels.
#pragma once

#include "hopper_ptx.cuh"

#include <cuda_bf16.h>

#include <cstdint>

namespace lesson11 {

/// What every kernel of the lesson is told about the problem, besides its tensor maps.
struct GemmParams {
  int M = 0, N = 0, K = 0;
  float alpha = 1, beta = 0;
  __nv_bfloat16* C = nullptr;  ///< M x N row-major; read only when beta != 0
  int tiles_m = 0, tiles_n = 0, group = 8;
  std::uint32_t stage_bytes = 0;     ///< stage_tx_bytes() of the kernel's tiles, from the host
  std::uint32_t empty_arrivals = 0;  ///< empty_barrier_arrivals() of the kernel, from the host
};

//! [accum_layout]
// Where accumulator i of a thread of a warpgroup's m64nN wgmma sits in the 64 x N result (PTX ISA,
// "wgmma D matrix fragment"): warp w owns rows 16w..16w+15; each group of 8 columns is laid out
// like mma.sync's 16 x 8 C fragment: lane l holds rows l/4 and l/4 + 8, columns 2(l%4) and +1.
__device__ inline int accum_row(int i, int warp, int lane) {
  return 16 * warp + lane / 4 + ((i & 2) ? 8 : 0);
}
__device__ inline int accum_col(int i, int lane) {
  return 8 * (i / 4) + 2 * (lane % 4) + (i & 1);
}
//! [accum_layout]

// alpha * acc + beta * C(row, col), C read only when beta != 0 and the element exists.
__device__ inline float scaled(float acc, const GemmParams& p, int row, int col) {
  float v = p.alpha * acc;
  if (p.beta != 0.0f && row < p.M && col < p.N) {
    v += p.beta * __bfloat162float(p.C[static_cast<long>(row) * p.N + col]);
  }
  return v;
}

/// Straight from registers to global memory: each thread stores its pairs of adjacent columns
/// (4 bytes) where they exist. Any M and N.
template <int N>
__device__ void store_accumulators(const ptx::WgmmaAccum<N>& acc, const GemmParams& p, int row0,
                                   int col0, int warp, int lane) {
  // A pair can be stored as one bf16x2 when N is even: then every (row, even col) is 4-byte
  // aligned.
  const bool pairs = (p.N % 2) == 0;
#pragma unroll
  for (int i = 0; i < N / 2; i += 2) {
    const int row = row0 + accum_row(i, warp, lane), col = col0 + accum_col(i, lane);
    if (row >= p.M || col >= p.N) continue;
    const float v0 = scaled(acc.d[i], p, row, col), v1 = scaled(acc.d[i + 1], p, row, col + 1);
    __nv_bfloat16* out = p.C + static_cast<long>(row) * p.N + col;
    if (pairs) {
      *reinterpret_cast<__nv_bfloat162*>(out) = __floats2bfloat162_rn(v0, v1);
    } else {
      out[0] = __float2bfloat16(v0);
      if (col + 1 < p.N) out[1] = __float2bfloat16(v1);
    }
  }
}

/// Into a shared-memory staging tile laid out as TMA's 128-byte swizzle expects: 64 x N as N / 64
/// boxes of 64 rows x 128 bytes, each box's 16-byte chunk c of row r stored at chunk c ^ (r % 8).
/// The XOR also makes the stores conflict-free: the 8 rows a warp writes at once land in 8
/// different chunks, all 32 banks.
template <int N, bool kReadC>
__device__ void stage_accumulators_impl(const ptx::WgmmaAccum<N>& acc, const GemmParams& p,
                                        unsigned char* staging, int row0, int col0, int warp,
                                        int lane) {
  // Row r = 16 warp + lane / 4 (+ 8) and column 8 j + 2 (lane % 4): the chunk of a pair is
  // j % 8, XORed with r % 8 = (lane / 4) % 8, and the pair's byte in its chunk is 4 (lane % 4).
  // 32-bit shared addresses (st.shared) rather than generic pointers: 8 base registers, one per
  // XOR pattern, and every other part of an offset an immediate.
  //! [stage_store]
  const std::uint32_t base =
      ptx::smem_addr(staging) + (16 * warp + lane / 4) * 128 + 4 * (lane % 4);
  const int row_xor = (lane / 4) & 7;
#pragma unroll
  for (int i = 0; i < N / 2; i += 2) {
    const int j = i / 4, half = (i & 2) ? 8 : 0;
    float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
    if constexpr (kReadC) {
      const int row = row0 + accum_row(i, warp, lane), col = col0 + accum_col(i, lane);
      v0 = scaled(acc.d[i], p, row, col);
      v1 = scaled(acc.d[i + 1], p, row, col + 1);
    }
    const std::uint32_t offset = (j / 8) * 64 * 128 + half * 128 + (((j % 8) ^ row_xor) << 4);
    __nv_bfloat162 pair = __floats2bfloat162_rn(v0, v1);
    ptx::st_shared_b32(base + offset, *reinterpret_cast<std::uint32_t*>(&pair));
  }
  //! [stage_store]
}

template <int N>
__device__ void stage_accumulators(const ptx::WgmmaAccum<N>& acc, const GemmParams& p,
                                   unsigned char* staging, int row0, int col0, int warp, int lane) {
  if (p.beta == 0.0f) {
    stage_accumulators_impl<N, false>(acc, p, staging, row0, col0, warp, lane);
  } else {
    stage_accumulators_impl<N, true>(acc, p, staging, row0, col0, warp, lane);
  }
}

}  // namespace lesson11
