// Lesson 10: tensor cores. The fragments of mma.sync.m16n8k16 and the bf16 GEMM built on them:
// operands from swizzled shared memory through ldmatrix, tiles copied in by a cp.async pipeline,
// C written through shared memory with 16-byte stores.
//
// exercises/10-tensor-cores/mma_sync_gemm.cu is yours: fill in the regions between "BEGIN
// EXERCISE" and "END EXERCISE" (the three fragment mappings, then the main loop mma_stage); the
// rest is given (lessons/10-tensor-cores/mma_sync_config.cuh and mma_sync_kernel.cuh, included
// here because they are compiled with your functions). solutions/10-tensor-cores/mma_sync_gemm.cu
// is the same file with the regions filled in. The contracts are
// lessons/10-tensor-cores/mma_fragment.hpp and mma_sync_gemm.hpp; the chapter,
// lessons/10-tensor-cores/README.md, explains the ideas. Row-major everywhere; x is the column, y
// the row.
//
// `make grade-10` grades it (the mappings on the CPU, the kernels on the GPU), `make lesson-10`
// runs it against cuBLAS, `make hint-10` gives the next hint.
#include "mma_fragment.hpp"
#include "mma_sync_config.cuh"  // given: tile configurations, lane offsets
#include "mma_sync_gemm.hpp"
#include "ptx.cuh"
#include "smem_tile.hpp"
#include "wmma_gemm.hpp"  // require_bf16_tensor_cores

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson10 {

using course::bf16;

// ---- Part 1: who holds what (mma_fragment.hpp) -------------------------------------------------

//! [fragments]
COURSE_HD FragmentCoord a_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: a_fragment_coord
  // TODO: (row, col) of element a_i of this lane in the 16 x 16 A matrix (mma_fragment.hpp has the
  // rule and examples). group = lane / 4 picks the row (+ 8 for a2, a3, a6, a7); thread_in_group =
  // lane % 4 picks the pair of columns 2 thread_in_group, + 1 (+ 8 for a4 .. a7).
  COURSE_TODO_HD("a_fragment_coord (exercises/10-tensor-cores/mma_sync_gemm.cu)",
                 (FragmentCoord{0 * lane, 0 * i}));
  // END EXERCISE
}

COURSE_HD FragmentCoord b_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: b_fragment_coord
  // TODO: (k, n) of element b_i of this lane in the 16 x 8 B matrix: n is the lane's group, k the
  // pair 2 thread_in_group, + 1 (+ 8 for b2, b3).
  COURSE_TODO_HD("b_fragment_coord (exercises/10-tensor-cores/mma_sync_gemm.cu)",
                 (FragmentCoord{0 * lane, 0 * i}));
  // END EXERCISE
}

COURSE_HD FragmentCoord c_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: c_fragment_coord
  // TODO: (row, col) of accumulator c_i of this lane in the 16 x 8 C matrix: the row is the
  // lane's group (+ 8 for c2, c3), the column 2 thread_in_group + (i % 2).
  COURSE_TODO_HD("c_fragment_coord (exercises/10-tensor-cores/mma_sync_gemm.cu)",
                 (FragmentCoord{0 * lane, 0 * i}));
  // END EXERCISE
}
//! [fragments]

// ---- Part 2: the main loop
// -----------------------------------------------------------------------

//! [mma_stage]
// One stage of the main loop for one warp: its MT x NT mma tiles over the BK values of k that the
// stage holds. `stage` is the shared-memory address of the stage; a_off[kk] and b_off[kk] are this
// lane's ldmatrix addresses for step kk (16 values of k) of the warp's first mma tile of A and
// first pair of n8 tiles of B, from the stage's start (a_ldmatrix_offset, b_ldmatrix_offset).
// The next mma tile of A, and the next pair of B, is T::k16RowsBytes further: 16 rows down.
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

}  // namespace lesson10

// The kernel, its launchers and checks (given): they call mma_stage above.
#include "mma_sync_kernel.cuh"
