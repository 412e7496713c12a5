/// \file mma_fragment.hpp
/// \brief Lesson 10, the contract of the exercise's first half: which element of each matrix of
/// one `mma.sync.aligned.m16n8k16` bf16 instruction each lane of the warp holds.
///
/// A warp-level matrix instruction has no owner for its matrices: the 32 lanes hold them together,
/// each a few elements in its own registers (its **fragment**). For m16n8k16 with bf16 inputs and
/// fp32 accumulators (NVIDIA's PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point
/// type"):
///
/// | matrix | shape | per lane | registers |
/// |---|---|---|---|
/// | A | 16 x 16 (row, k) | 8 bf16, a0 .. a7 | 4 x 32 bits: element i in register i / 2 |
/// | B | 16 x 8 (k, col) | 4 bf16, b0 .. b3 | 2 x 32 bits: element i in register i / 2 |
/// | C, D | 16 x 8 (row, col) | 4 fp32, c0 .. c3 | 4 x 32 bits |
///
/// Two bf16 share a 32-bit register, the even element in the low half. Every element of every
/// matrix is held by exactly one lane, in exactly one place.
///
/// The layout is built from quads: `group = lane / 4` (0 .. 7) and `thread_in_group = lane % 4`
/// (0 .. 3). Each function below returns (row, col) of element `i` of lane `lane`; for B, row is
/// k and col is n (B as the K x N matrix the instruction multiplies).
///
/// The kernel of mma_sync_gemm.hpp uses all three: A's and B's to point `ldmatrix` at the right
/// rows of shared memory, C's to write each accumulator to its place in C. Before the first
/// launch, the launcher checks on the host that each is a bijection onto its matrix and that the
/// two elements of a register are neighbours (as the kernel assumes); a stub throws
/// course::NotImplemented there.
///
/// Plain C++: the grader calls these on the CPU.
#pragma once

#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

namespace lesson10 {

/// (row, col) of one element of a fragment. For B, row is k and col is n.
struct FragmentCoord {
  int row;
  int col;
};

constexpr int kAFragment = 8;  ///< bf16 elements of A per lane (4 registers)
constexpr int kBFragment = 4;  ///< bf16 elements of B per lane (2 registers)
constexpr int kCFragment = 4;  ///< fp32 elements of C per lane (4 registers)

// The three mappings are yours (mma_sync_parts.cuh), `inline`: each file that compiles a kernel,
// and the grader and the figures on the CPU, has its copy, in this library's namespace.
inline namespace COURSE_LIBRARY {

///
/// **Exercise.** Element a_i of lane `lane` in the 16 x 16 A matrix (row-major, `.row`):
/// - row: group for a0, a1, a4, a5; group + 8 for a2, a3, a6, a7;
/// - col: 2 thread_in_group + (i % 2), plus 8 for a4 .. a7.
///
/// So registers 0 .. 3 of the warp are the four 8 x 8 quarters of A: top left, bottom left,
/// top right, bottom right. Examples: lane 0 holds a0 = (0, 0), a1 = (0, 1), a2 = (8, 0),
/// a7 = (8, 9); lane 5 (group 1, thread_in_group 1) holds a0 = (1, 2), a3 = (9, 3), a4 = (1, 10);
/// lane 31 holds a7 = (15, 15).
/// \pre 0 <= lane < 32, 0 <= i < 8
COURSE_HD inline FragmentCoord a_fragment_coord(int lane, int i);

/// **Exercise.** Element b_i of lane `lane` in the 16 x 8 B matrix, as (k, n) (`.col`: B is
/// column-major, so a lane's two values in one register are consecutive k of one column n):
/// - row (k): 2 thread_in_group + (i % 2), plus 8 for b2, b3;
/// - col (n): group.
///
/// Examples: lane 0 holds b0 = (0, 0), b1 = (1, 0), b2 = (8, 0), b3 = (9, 0); lane 5 holds
/// b0 = (2, 1), b3 = (11, 1); lane 31 holds b3 = (15, 7).
/// \pre 0 <= lane < 32, 0 <= i < 4
COURSE_HD inline FragmentCoord b_fragment_coord(int lane, int i);

/// **Exercise.** Element c_i of lane `lane` in the 16 x 8 accumulator (C and D):
/// - row: group for c0, c1; group + 8 for c2, c3;
/// - col: 2 thread_in_group + (i % 2).
///
/// The same arrangement as the left half of A. Examples: lane 0 holds c0 = (0, 0), c1 = (0, 1),
/// c2 = (8, 0), c3 = (8, 1); lane 5 holds c0 = (1, 2), c3 = (9, 3); lane 31 holds c3 = (15, 7).
/// \pre 0 <= lane < 32, 0 <= i < 4
COURSE_HD inline FragmentCoord c_fragment_coord(int lane, int i);

}  // namespace COURSE_LIBRARY

}  // namespace lesson10
