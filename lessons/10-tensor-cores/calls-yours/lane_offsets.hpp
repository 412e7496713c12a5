// Lesson 10, given code that calls yours: where each lane of a warp points its copies and its
// ldmatrix loads in a stage. The offsets of ldmatrix come from your A and B fragment mappings, so
// they are compiled with each library's mma_sync_parts.cuh, in its namespace: by the kernel
// (mma_sync_kernel.cuh), and on the CPU by the grader and the figures.
#pragma once

#include "mma_fragment.hpp"     // FragmentCoord, your mappings
#include "mma_sync_config.cuh"  // Tile
#include "smem_tile.hpp"        // tile_offset

#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"     // COURSE_HD

#include <cstdint>

namespace lesson10 {
inline namespace COURSE_LIBRARY {

//! [lane_offsets]
// Where thread tid's first cp.async of a stage goes, in bytes from the A tile's start (the same
// offset in the B tile): chunk tid % kChunks of row tid / kChunks. Its other copies are whole
// passes (kCopyRows rows, a multiple of 8) further, where the swizzle repeats: a constant apart.
template <class T>
COURSE_HD inline std::uint32_t copy_offset(int tid) {
  return tile_offset<T::kRowBytes, T::SWIZZLED>(tid / T::kChunks, tid % T::kChunks);
}

// ldmatrix.x4: lane L gives the address of row L % 8 of matrix L / 8, and matrix q becomes
// register q of every lane. Row r of the matrix that becomes register q is what lanes 4r ..
// 4r + 3 hold in register q, so it starts at the element that lane 4r holds first in it:
// element 2q of lane 4r. Your mapping says where that is.
template <class T>
COURSE_HD inline std::uint32_t a_ldmatrix_offset(int warp, int lane, int kk) {
  const FragmentCoord at = a_fragment_coord(4 * (lane & 7), 2 * (lane >> 3));  // (row, k)
  const int row = (warp / T::WARPS_N) * T::WM + at.row;
  return tile_offset<T::kRowBytes, T::SWIZZLED>(row, (16 * kk + at.col) / 8);
}

// For B one ldmatrix.x4 loads two n8 tiles: matrices 0 and 1 are registers 0 and 1 of the first
// (k 0 .. 7 and 8 .. 15), matrices 2 and 3 those of the next, 8 values of n further. B's tile is
// stored like A's, a row per n and k along the row, right after A's tile in the stage.
template <class T>
COURSE_HD inline std::uint32_t b_ldmatrix_offset(int warp, int lane, int kk) {
  const FragmentCoord at = b_fragment_coord(4 * (lane & 7), 2 * ((lane >> 3) & 1));  // (k, n)
  const int n = (warp % T::WARPS_N) * T::WN + at.col + 8 * (lane >> 4);
  return T::kAStageBytes + tile_offset<T::kRowBytes, T::SWIZZLED>(n, (16 * kk + at.row) / 8);
}
//! [lane_offsets]

/// Where `lane` points `ldmatrix.x4` for the first A fragment of warp 0 at the first step of k, as
/// the kernel computes it (a_ldmatrix_offset, on a plain tile), as the (row, k) of the first of
/// the 8 values of the row it gives the address of. Lanes 8q .. 8q + 7 give the rows of the 8 x 8
/// matrix that becomes register q. For the pictures of `make lesson-10` and the book.
inline FragmentCoord a_ldmatrix_row(int lane) {
  using Plain =
      Tile<128, 128, 64, 2, 2, 3, false>;  // no swizzle: an offset is row * kRowBytes + 2 k
  const std::uint32_t off = a_ldmatrix_offset<Plain>(0, lane, 0);
  return {static_cast<int>(off / Plain::kRowBytes), static_cast<int>(off % Plain::kRowBytes / 2)};
}
/// The same for B's first pair of n8 tiles (b_ldmatrix_offset), as (k, n): B's tile holds a row
/// per n with k along it, so a lane points at 8 values of k of one n.
inline FragmentCoord b_ldmatrix_row(int lane) {
  using Plain = Tile<128, 128, 64, 2, 2, 3, false>;
  const std::uint32_t off = b_ldmatrix_offset<Plain>(0, lane, 0) - Plain::kAStageBytes;
  return {static_cast<int>(off % Plain::kRowBytes / 2), static_cast<int>(off / Plain::kRowBytes)};
}

}  // namespace COURSE_LIBRARY
}  // namespace lesson10
