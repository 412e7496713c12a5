/// \file smem_tile.hpp
/// \brief Lesson 10, given code: where a 16-byte chunk of a bf16 tile is stored in shared memory,
/// plain or swizzled. Both the `cp.async` copies that fill a tile and the `ldmatrix` loads that
/// read it go through tile_offset(), so they always agree.
///
/// A tile holds rows of `ROW_BYTES` (64 or 128: 32 or 64 bf16 values along K), one row after the
/// other. Swizzled, the byte offset goes through lesson 09's XOR swizzle with the mode that
/// matches the row: Swizzle<3, 4, 3> (the 128-byte mode: chunk c of row r moves to c ^ (r % 8)) for
/// 128-byte rows, Swizzle<2, 4, 3> (the 64-byte mode) for 64-byte rows. Plain C++ with
/// `__host__ __device__` functions: the kernel calls it on the GPU, the grader on the CPU.
#pragma once

#include "common/todo.hpp"

#include <cstdint>

namespace lesson10 {

//! [tile_offset]
/// The byte offset, from the tile's start, of 16-byte chunk `chunk` of row `row` of a tile whose
/// rows are `ROW_BYTES` long; swizzled with the matching mode of lesson 09 when `SWIZZLED`.
///
/// Why swizzle: `ldmatrix` reads one 16-byte chunk from each of 8 consecutive rows per phase.
/// Unswizzled, the 8 chunks of a 128-byte-row tile lie 128 bytes apart, all in the same 4 banks:
/// 8 wavefronts instead of 1. Swizzled, chunk c of rows r .. r + 7 lands on 8 different chunk
/// positions, 32 different banks. The copies are unaffected: a row stays within its own 128 bytes.
template <int ROW_BYTES, bool SWIZZLED>
COURSE_HD constexpr std::uint32_t tile_offset(int row, int chunk) {
  static_assert(ROW_BYTES == 64 || ROW_BYTES == 128, "rows of 32 or 64 bf16 values");
  const std::uint32_t offset = static_cast<std::uint32_t>(row * ROW_BYTES + chunk * 16);
  if (!SWIZZLED) return offset;
  // Swizzle<B, 4, 3>: the B bits from bit 4 (which 16-byte chunk) are XORed with the B bits from
  // bit 7 (which 128-byte line, modulo 2^B: the row for 128-byte rows, the row / 2 for 64-byte).
  constexpr std::uint32_t kChunkBits = ROW_BYTES == 128 ? 0x70u : 0x30u;
  return offset ^ ((offset >> 3) & kChunkBits);
}
//! [tile_offset]

}  // namespace lesson10
