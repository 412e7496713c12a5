// Lesson 10: tensor cores. Your two parts of the bf16 GEMM built on mma.sync.m16n8k16: the
// fragments (which lane holds which element of A, B and C) and the main loop's stage (operands
// from shared memory through ldmatrix, then the tensor-core instructions).
//
// exercises/10-tensor-cores/mma_sync_parts.cuh is yours: fill in the regions between "BEGIN
// EXERCISE" and "END EXERCISE". The kernel that calls these functions, its launchers and its
// configurations are given: lessons/10-tensor-cores/calls-yours/mma_sync_kernel.cuh includes this
// file, so your functions are compiled with the kernel and inlined into it (the files that compile
// the configurations include that one); the grader and the figures include it too, and call the
// three mappings on the CPU.
// solutions/10-tensor-cores/mma_sync_parts.cuh is this file with the regions filled in. The
// contracts are lessons/10-tensor-cores/mma_fragment.hpp and mma_sync_gemm.hpp; the chapter,
// lessons/10-tensor-cores/README.md, explains the ideas. Row-major everywhere; x is the column, y
// the row.
//
// `make grade-10` grades it (the mappings on the CPU, the kernels on the GPU), `make lesson-10`
// runs it against cuBLAS, `make hint-10` gives the next hint.
#pragma once

#include "mma_fragment.hpp"
#include "ptx.cuh"  // ldmatrix_x4, mma_m16n8k16_bf16

#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"

#include <cstdint>

namespace lesson10 {
inline namespace COURSE_LIBRARY {  // yours or reference, named by the build (common/library.hpp)

// ---- Part 1: who holds what (mma_fragment.hpp) -------------------------------------------------

//! [fragments]
COURSE_HD inline FragmentCoord a_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: a_fragment_coord
  // TODO: (row, col) of element a_i of this lane in the 16 x 16 A matrix (mma_fragment.hpp has the
  // rule and examples). group = lane / 4 picks the row (+ 8 for a2, a3, a6, a7); thread_in_group =
  // lane % 4 picks the pair of columns 2 thread_in_group, + 1 (+ 8 for a4 .. a7).
  COURSE_TODO_HD("a_fragment_coord (exercises/10-tensor-cores/mma_sync_parts.cuh)",
                 (FragmentCoord{0 * lane, 0 * i}));
  // END EXERCISE
}

COURSE_HD inline FragmentCoord b_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: b_fragment_coord
  // TODO: (k, n) of element b_i of this lane in the 16 x 8 B matrix: n is the lane's group, k the
  // pair 2 thread_in_group, + 1 (+ 8 for b2, b3).
  COURSE_TODO_HD("b_fragment_coord (exercises/10-tensor-cores/mma_sync_parts.cuh)",
                 (FragmentCoord{0 * lane, 0 * i}));
  // END EXERCISE
}

COURSE_HD inline FragmentCoord c_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: c_fragment_coord
  // TODO: (row, col) of accumulator c_i of this lane in the 16 x 8 C matrix: the row is the
  // lane's group (+ 8 for c2, c3), the column 2 thread_in_group + (i % 2).
  COURSE_TODO_HD("c_fragment_coord (exercises/10-tensor-cores/mma_sync_parts.cuh)",
                 (FragmentCoord{0 * lane, 0 * i}));
  // END EXERCISE
}
//! [fragments]

// ---- Part 2: the main loop ------------------------------------------------------------------

//! [mma_stage]
/// One stage of the main loop for one warp: adds to `acc` the products of its T::MT x T::NT mma
/// tiles (16 x 8 each) over the BK values of k the stage holds, T::KSTEPS steps of 16.
/// \tparam T the kernel's configuration (Tile<...> of calls-yours/mma_sync_config.cuh): T::MT,
///           T::NT, T::KSTEPS, and T::k16RowsBytes, the bytes of 16 rows of a staged tile
/// \param acc   the warp's accumulators: acc[i][j] is the C fragment (c0 .. c3) of mma tile (i, j)
/// \param stage the shared-memory address of the stage (its A tile, then its B tile)
/// \param a_off a_off[kk]: this lane's ldmatrix address for step kk of the warp's first mma tile
///              of A, from the stage's start; the next mma tile of A is T::k16RowsBytes further
/// \param b_off b_off[kk]: the same for the warp's first pair of n8 tiles of B; the next pair is
///              T::k16RowsBytes further
template <class T>
__device__ __forceinline__ void mma_stage(float (&acc)[T::MT][T::NT][4], std::uint32_t stage,
                                          const std::uint32_t (&a_off)[T::KSTEPS],
                                          const std::uint32_t (&b_off)[T::KSTEPS]) {
  // BEGIN EXERCISE: mma_stage
  // TODO: for each step kk of the stage (T::KSTEPS of them, 16 values of k each; put #pragma
  // unroll on every loop, so that all arrays stay in registers):
  //   1. A: for each of the warp's T::MT mma tiles i, one ldmatrix_x4 (ptx.cuh) into
  //      std::uint32_t a[T::MT][4] from stage + a_off[kk] + i * T::k16RowsBytes: its four
  //      registers are exactly the fragment a0 .. a7 of that tile.
  //   2. B: for each pair of n8 tiles (j, j + 1), one ldmatrix_x4 from stage + b_off[kk] +
  //      (j / 2) * T::k16RowsBytes; registers 0 and 1 are tile j's b0 .. b3, registers 2 and 3
  //      tile j + 1's. Keep them as std::uint32_t b[T::NT][2].
  //   3. For every i and j, mma_m16n8k16_bf16(acc[i][j], a[i], b[j]).
  (void)acc, (void)stage, (void)a_off, (void)b_off;
  // END EXERCISE
}
//! [mma_stage]

}  // namespace COURSE_LIBRARY
}  // namespace lesson10
