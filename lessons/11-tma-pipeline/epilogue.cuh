// Lesson 11: what the consumers do with their accumulators once a tile's K loop is done. Given
// code, shared by the kernels.
#pragma once

#include "hopper_ptx.cuh"
#include "staging_layout.hpp"
#include "stream_k.hpp"
#include "tile_order.hpp"

#include <cuda_bf16.h>

#include <cstdint>

namespace lesson11 {

/// What every kernel of the lesson is told about the problem, besides its tensor maps.
struct GemmParams {
  int M = 0, N = 0, K = 0;
  float alpha = 1, beta = 0;
  __nv_bfloat16* C = nullptr;  ///< M x N row-major; read only when beta != 0
  int tiles_m = 0, tiles_n = 0, group = 8;
  TileOrder order = TileOrder::kGrouped;  ///< how a persistent grid walks the tiles
  std::uint32_t stage_bytes = 0;          ///< stage_tx_bytes() of the kernel's tiles, from the host
  std::uint32_t empty_arrivals = 0;       ///< empty_barrier_arrivals() of the kernel, from the host
  // Stream-K (the cooperative kernel; stream_k.hpp): which block computes which k-blocks of which
  // tiles, and the workspace through which the pieces of a split tile meet.
  StreamKPlan sk;
  float* partials = nullptr;       ///< one tile of FP32 sums per block of the grid
  std::uint32_t* flags = nullptr;  ///< per block: == epoch once its sums are stored
  std::uint32_t epoch = 0;         ///< this launch's flag value, new at every launch
  ptx::WaitLimit limit;            ///< how long any wait may take, and where to say which expired
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
/// (4 bytes) where they exist. Any M and N. C is read only when beta != 0 (kReadC).
template <int N, bool kReadC>
__device__ void store_accumulators_impl(const ptx::WgmmaAccum<N>& acc, const GemmParams& p,
                                        int row0, int col0, int warp, int lane) {
  // A pair can be stored as one bf16x2 when N is even: then every (row, even col) is 4-byte
  // aligned.
  const bool pairs = (p.N % 2) == 0;
#pragma unroll
  for (int i = 0; i < N / 2; i += 2) {
    const int row = row0 + accum_row(i, warp, lane), col = col0 + accum_col(i, lane);
    if (row >= p.M || col >= p.N) continue;
    float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
    if constexpr (kReadC) {
      v0 = scaled(acc.d[i], p, row, col);
      v1 = scaled(acc.d[i + 1], p, row, col + 1);
    }
    __nv_bfloat16* out = p.C + static_cast<long>(row) * p.N + col;
    if (pairs) {
      *reinterpret_cast<__nv_bfloat162*>(out) = __floats2bfloat162_rn(v0, v1);
    } else {
      out[0] = __float2bfloat16(v0);
      if (col + 1 < p.N) out[1] = __float2bfloat16(v1);
    }
  }
}

template <int N>
__device__ void store_accumulators(const ptx::WgmmaAccum<N>& acc, const GemmParams& p, int row0,
                                   int col0, int warp, int lane) {
  if (p.beta == 0.0f) {
    store_accumulators_impl<N, false>(acc, p, row0, col0, warp, lane);
  } else {
    store_accumulators_impl<N, true>(acc, p, row0, col0, warp, lane);
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

// ---- the streamed epilogue: one warp, one 16 x 64 slice at a time -------------------------------
// A warp owns rows 16 warp .. 16 warp + 15 of its warpgroup's m64nN result. These write the part of
// them in columns 64 j .. 64 j + 63 (accumulators d[32 j] to d[32 j + 31]: 8-column groups 8 j to
// 8 j + 7), scaled and rounded to bf16, into the 2 KB at shared address `slice`, a 1024-byte
// aligned 16-row piece of a staging box, swizzled as staging_offset says: byte for byte the rows
// 16 warp.. of stage_accumulators's box j. (row0, col0) is the slice's first element in C, for
// reading C when beta != 0. A tile whose width is not a multiple of 64 (160) goes out in slices
// of SLICE = 32 columns: columns 32 j .. 32 j + 31, accumulators d[16 j] on, in the first half of
// each 128-byte row of the same 2 KB (TMA's 128-byte swizzle gives a narrower box's rows 128 bytes
// each all the same).

// Value i of the accumulators, and its neighbour, as a bf16 pair: alpha * acc (+ beta * C).
template <int N, bool kReadC>
__device__ inline std::uint32_t scaled_pair(const ptx::WgmmaAccum<N>& acc, int i,
                                            const GemmParams& p, int row, int col) {
  float v0 = p.alpha * acc.d[i], v1 = p.alpha * acc.d[i + 1];
  if constexpr (kReadC) {
    v0 = scaled(acc.d[i], p, row, col);
    v1 = scaled(acc.d[i + 1], p, row, col + 1);
  }
  __nv_bfloat162 pair = __floats2bfloat162_rn(v0, v1);
  return *reinterpret_cast<std::uint32_t*>(&pair);
}

//! [stage_slice_st_shared]
// With st.shared: 32 stores of 4 bytes per thread, one per pair of columns, as in
// stage_accumulators.
template <int N, bool kReadC>
__device__ void stage_slice_st_shared(const ptx::WgmmaAccum<N>& acc, int j, const GemmParams& p,
                                      std::uint32_t slice, int row0, int col0, int lane) {
  const int row = lane / 4, col = 2 * (lane % 4);  // this thread's first element in the slice
  // staging_offset(row + 8 half, 8 g + col), with row < 8: one base register, and the chunk's XOR
  // and the half's 1024 bytes on top.
  const std::uint32_t base = slice + row * 128 + col * 2;
#pragma unroll
  for (int g = 0; g < 8; ++g) {  // 8-column groups
#pragma unroll
    for (int half = 0; half < 2; ++half) {  // rows lane / 4, then 8 further
      const int i = 32 * j + 4 * g + 2 * half;
      const std::uint32_t v =
          scaled_pair<N, kReadC>(acc, i, p, row0 + row + 8 * half, col0 + 8 * g + col);
      ptx::st_shared_b32(base + half * 8 * 128 + ((g ^ row) << 4), v);
    }
  }
}
//! [stage_slice_st_shared]

//! [stage_slice_stmatrix]
// With stmatrix: 4 instructions per thread, each 16 columns by 16 rows. Its four matrices are the
// four 8 x 8 blocks of accumulators d[i] .. d[i + 7], in register order: a wgmma fragment is
// already what stmatrix wants; only the addresses follow the swizzle.
template <int N, bool kReadC, int SLICE = 64>
__device__ void stage_slice_stmatrix(const ptx::WgmmaAccum<N>& acc, int j, const GemmParams& p,
                                     std::uint32_t slice, int row0, int col0, int lane) {
  const int row = lane / 4, col = 2 * (lane % 4);  // this thread's first value, as above
#pragma unroll
  for (int pair = 0; pair < SLICE / 16; ++pair) {
    const int i = SLICE / 2 * j + 8 * pair;
    std::uint32_t r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {  // matrix k: rows + 8 (k % 2), columns + 8 (k / 2)
      r[k] = scaled_pair<N, kReadC>(acc, i + 2 * k, p, row0 + row + 8 * (k % 2),
                                    col0 + 16 * pair + 8 * (k / 2) + col);
    }
    ptx::stmatrix_x4(slice + staging_offset(stmatrix_row(lane), stmatrix_col(lane, pair)), r[0],
                     r[1], r[2], r[3]);
  }
}
//! [stage_slice_stmatrix]

}  // namespace lesson11
