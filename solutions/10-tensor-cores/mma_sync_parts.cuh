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
  // A quad (4 lanes) shares a row; registers 0 .. 3 walk the four 8 x 8 quarters of A: rows
  // + 8 for registers 1 and 3, columns + 8 for registers 2 and 3.
  const int group = lane >> 2, thread_in_group = lane & 3;
  return {group + 8 * ((i >> 1) & 1), 2 * thread_in_group + (i & 1) + 8 * (i >> 2)};
  // END EXERCISE
}

COURSE_HD inline FragmentCoord b_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: b_fragment_coord
  // A quad shares a column n; a register holds two consecutive k, register 1 eight k further on.
  const int group = lane >> 2, thread_in_group = lane & 3;
  return {2 * thread_in_group + (i & 1) + 8 * (i >> 1), group};
  // END EXERCISE
}

COURSE_HD inline FragmentCoord c_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: c_fragment_coord
  // The left half of A's layout: c0, c1 in row group, c2, c3 eight rows further down.
  const int group = lane >> 2, thread_in_group = lane & 3;
  return {group + 8 * (i >> 1), 2 * thread_in_group + (i & 1)};
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
#pragma unroll
  for (int kk = 0; kk < T::KSTEPS; ++kk) {
    // The operands of step kk: MT fragments of A (one ldmatrix.x4 each: the four 8 x 8 quarters
    // are registers 0 .. 3), NT of B (one ldmatrix.x4 per pair of n8 tiles).
    std::uint32_t a[T::MT][4], b[T::NT][2];
#pragma unroll
    for (int i = 0; i < T::MT; ++i) ldmatrix_x4(a[i], stage + a_off[kk] + i * T::k16RowsBytes);
#pragma unroll
    for (int j = 0; j < T::NT; j += 2) {
      std::uint32_t r[4];
      ldmatrix_x4(r, stage + b_off[kk] + (j / 2) * T::k16RowsBytes);
      b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
    }
    // MT x NT tensor-core instructions. Odd rows of tiles run backwards (a serpentine), so that
    // consecutive instructions share an operand register: B's at each turn, A's in between.
#pragma unroll
    for (int i = 0; i < T::MT; ++i) {
#pragma unroll
      for (int j = 0; j < T::NT; ++j) {
        const int jj = (i & 1) ? T::NT - 1 - j : j;
        mma_m16n8k16_bf16(acc[i][jj], a[i], b[jj]);
      }
    }
  }
  // END EXERCISE
}
//! [mma_stage]

}  // namespace COURSE_LIBRARY
}  // namespace lesson10
