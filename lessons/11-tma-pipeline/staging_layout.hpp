// Lesson 11: where a bf16 value of an output tile sits in the shared-memory staging area that a TMA
// store with the 128-byte swizzle reads. Given code, host and device: the epilogues write through
// these functions, and the grader checks on the CPU that both ways of writing (st.shared and
// stmatrix) put every value where the TMA store expects it.
#pragma once

#include "common/todo.hpp"  // COURSE_HD

namespace lesson11 {

/// The byte offset of element (row, col) in a staging box of 64 bf16 columns (128-byte rows) that
/// starts on a 1024-byte boundary: the 16-byte chunk c = col / 8 of row r is stored at chunk
/// c ^ (r % 8), which is how TMA's 128-byte swizzle lays out (and reads back) such a box.
///
/// The swizzle is a function of the address: the 16-byte chunk within each 128-byte line is XORed
/// with the line's index modulo 8. So a box of 32 columns (`row_bytes` 64: two rows to a line)
/// follows the same rule, with its own rows packed two to a line.
COURSE_HD inline int staging_offset(int row, int col, int row_bytes = 128) {
  const int at = row * row_bytes + col * 2;
  return at ^ ((at >> 3) & 0x70);
}

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
