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
  // A quad (4 lanes) shares a row; registers 0 .. 3 walk the four 8 x 8 quarters of A: rows
  // + 8 for registers 1 and 3, columns + 8 for registers 2 and 3.
  const int group = lane >> 2, thread_in_group = lane & 3;
  return {group + 8 * ((i >> 1) & 1), 2 * thread_in_group + (i & 1) + 8 * (i >> 2)};
  // END EXERCISE
}

COURSE_HD FragmentCoord b_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: b_fragment_coord
  // A quad shares a column n; a register holds two consecutive k, register 1 eight k further on.
  const int group = lane >> 2, thread_in_group = lane & 3;
  return {2 * thread_in_group + (i & 1) + 8 * (i >> 1), group};
  // END EXERCISE
}

COURSE_HD FragmentCoord c_fragment_coord(int lane, int i) {
  // BEGIN EXERCISE: c_fragment_coord
  // The left half of A's layout: c0, c1 in row group, c2, c3 eight rows further down.
  const int group = lane >> 2, thread_in_group = lane & 3;
  return {group + 8 * (i >> 1), 2 * thread_in_group + (i & 1)};
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

}  // namespace lesson10

// The kernel, its launchers and checks (given): they call mma_stage above.
#include "mma_sync_kernel.cuh"
