/// \file smem_swizzle.hpp
/// \brief Lesson 09, the contract of the layouts: where element (row, col) of a shared-memory tile
/// is stored, padded or swizzled, so that the warps' accesses spread over the 32 banks.
///
/// All three functions are `__host__ __device__`: the kernel of swizzled_sgemm.hpp calls them on
/// the GPU, the grader on the CPU (this header is plain C++ for a C++ compiler).
#pragma once

#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

#include <cstdint>

namespace lesson09 {

// The contract of your three functions (swizzle_parts.cuh), in this library's namespace: each
// file that compiles a kernel, and the grader and the figures on the CPU, has its own copy.
inline namespace COURSE_LIBRARY {

/// **Exercise (task 2).** The index of element (row, col) in a row-major tile whose rows of
/// `row_length` elements are each followed by `pad` unused elements: row r starts at
/// `r * (row_length + pad)`. Padding shifts each row by `pad` banks relative to the previous one,
/// so a column no longer sits in a single bank.
/// Example: padded_index(2, 3, 32, 1) == 2 * 33 + 3 == 69; with pad 0 it is the plain row-major
/// index, 2 * 32 + 3 == 67.
/// \pre 0 <= row, 0 <= col < row_length, 0 <= pad
COURSE_HD inline int padded_index(int row, int col, int row_length, int pad);

/// **Exercise (task 3).** The XOR swizzle `Swizzle<B, M, S>` of CUTLASS/CuTe and of the Tensor
/// Memory Accelerator, applied to a byte offset. It keeps every bit of the offset except the B
/// bits starting at bit M, which it XORs with the B bits starting at bit M + S:
///
///     out = offset ^ ((offset & (((1 << B) - 1) << (M + S))) >> S)
///
/// With M = 4 the unit it moves is a 16-byte chunk (a float4); bits M + S and up count rows of
/// 2^(M+S) bytes. The TMA's modes are:
/// - 128-byte swizzle, Swizzle<3, 4, 3>: in rows of 128 bytes (8 chunks), chunk c of row r moves to
///   chunk c ^ (r % 8);
/// - 64-byte swizzle, Swizzle<2, 4, 3>: bits 4-5 XOR bits 7-8;
/// - 32-byte swizzle, Swizzle<1, 4, 3>: bit 4 XOR bit 7.
///
/// Examples with Swizzle<3, 4, 3>: offset 0x000 (row 0, chunk 0) stays 0x000; 0x080 (row 1,
/// chunk 0) goes to 0x090 (row 1, chunk 1); 0x3F4 (row 7, chunk 7, byte 4) goes to 0x384 (row 7,
/// chunk 0, byte 4).
///
/// Since the bits that steer (M + S and up) are never changed, applying the swizzle twice gives the
/// offset back: it is a bijection on every aligned block of 2^(M+S+B) bytes.
/// \tparam B the number of bits XORed (the swizzle permutes 2^B chunks)
/// \tparam M the first bit changed (log2 of the chunk size in bytes)
/// \tparam S the distance from the bits changed to the bits that steer them; S >= B
template <int B, int M, int S>
struct Swizzle {
  static_assert(B >= 1 && M >= 0 && S >= B && B + M + S <= 31,
                "Swizzle<B, M, S>: the B steering bits must lie above the B bits they change");
  static constexpr int kBits = B;   ///< bits XORed
  static constexpr int kBase = M;   ///< the lowest bit changed
  static constexpr int kShift = S;  ///< distance to the steering bits
  /// The swizzled byte offset.
  COURSE_HD std::uint32_t operator()(std::uint32_t offset) const;
};

/// The three modes of the Tensor Memory Accelerator (and of wgmma's shared-memory descriptors).
using Swizzle32B = Swizzle<1, 4, 3>;
using Swizzle64B = Swizzle<2, 4, 3>;
using Swizzle128B = Swizzle<3, 4, 3>;

// operator() is defined in swizzle_parts.cuh (yours).

/// **Exercise (task 4).** The float index, within one stage of the kernel's A tile, of the element
/// at (k, m) (row m of A, column k: the tile holds BK values of k for BM rows of A) in the
/// **swizzled** layout.
///
/// The kernel stores the A tile transposed, k-major, so that a thread can read four consecutive m
/// as one float4. To use the 128-byte swizzle, whose rows are 128 bytes, the tile is cut into
/// **panels** of 32 columns of m: panel p = m / 32 holds m = 32 p .. 32 p + 31 and is a row-major
/// BK x 32 array of floats (row k is 128 bytes), the panels one after the other. Within its panel,
/// the element's byte offset `(k * 32 + m % 32) * 4` goes through Swizzle128B; the index is then
///
///     p * (bk * 32) + Swizzle128B()((k * 32 + m % 32) * 4) / 4
///
/// Examples with bk = 16: (k, m) = (0, 0) -> 0; (1, 0) -> 36 (row 1: chunk 0 moves to chunk 1, and
/// 128 + 16 bytes is float 36); (3, 37) -> 617 (panel 1 starts at 512; m % 32 = 5 is word 1 of
/// chunk 1, which row 3 moves to chunk 1 ^ 3 = 2: 512 + 3 * 32 + 2 * 4 + 1).
/// \pre 0 <= k < bk, bk a multiple of 8, 0 <= m
COURSE_HD inline int swizzled_a_index(int k, int m, int bk);

}  // namespace COURSE_LIBRARY
}  // namespace lesson09
