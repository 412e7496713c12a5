// Lesson 11: where a bf16 value of an output tile sits in the shared-memory staging area that a TMA
// store with the 128-byte swizzle reads. Given code, host and device: the epilogues write through
// these functions, and the grader checks on the CPU that stmatrix's lanes put every value where the
// TMA store expects it.
#pragma once

#include "common/todo.hpp"  // COURSE_HD

namespace lesson11 {

//! [staging_offset]
/// The byte offset of element (row, col) in a staging box of 64 bf16 columns (128-byte rows) that
/// starts on a 1024-byte boundary: the 16-byte chunk c = col / 8 of row r is stored at chunk
/// c ^ (r % 8), which is how TMA's 128-byte swizzle lays out (and reads back) such a box.
///
/// A box narrower than the swizzle's 128 bytes (32 columns: the slices of a tile 160 wide) is laid
/// out the same way: each of its rows still takes a 128-byte row of shared memory, of which it
/// fills the first chunks before the XOR, so its elements sit exactly where this function puts
/// the same (row, col) of a 64-column box.
COURSE_HD inline int staging_offset(int row, int col) {
  return row * 128 + (((col / 8) ^ (row % 8)) << 4) + (col % 8) * 2;
}
//! [staging_offset]

/// stmatrix.x4 in a warp's 16-row slice of a box: matrix k (of the instruction's four) is rows
/// 8 (k % 2) to 8 (k % 2) + 7 of column group 2 pair + k / 2 (8 columns). Lane l gives the address
/// of row l % 8 of matrix l / 8: this is that row of the slice...
COURSE_HD inline int stmatrix_row(int lane) {
  return lane % 8 + 8 * ((lane / 8) % 2);
}
/// ...and this the first column of its 8, for the instruction that stores column groups
/// 2 pair and 2 pair + 1 (columns 16 pair to 16 pair + 15 of the box).
COURSE_HD inline int stmatrix_col(int lane, int pair) {
  return 8 * (2 * pair + lane / 16);
}

}  // namespace lesson11
