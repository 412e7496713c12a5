// Lesson 04, task 2: the coalesced SGEMM. Lesson 03's kernel with the thread mapping swapped, so
// that the 32 lanes of a warp own 32 neighbouring columns of one row of C.
//
// exercises/04-coalescing/coalesced_sgemm.cu is yours: fill in the two regions between
// "BEGIN EXERCISE" and "END EXERCISE". The contract is lessons/04-coalescing/coalesced_sgemm.hpp.
// `make grade-4` grades it on the GPU, `make lesson-4` times it against lesson 03 and cuBLAS.
#include "coalesced_sgemm.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

namespace lesson04 {

//! [kernel]
// One thread computes one element C[row][col], as in lesson 03; only the mapping of threads to
// elements differs.
__global__ void coalesced_sgemm_kernel(int M, int N, int K, float alpha, const float* A,
                                       const float* B, float beta, float* C) {
  // BEGIN EXERCISE: coalesced_sgemm_kernel
  // TODO: lesson 03's kernel with the axes swapped: the column comes from the .x parts, the row
  // from the .y parts. Stop threads outside C, add up A[row][k] * B[k][col] over k, and write
  // alpha * sum, plus beta * C[row][col] only when beta != 0.
  // END EXERCISE
}
//! [kernel]

//! [launch]
void coalesced_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                     float* C) {
  // Sizes >= 1, small enough for int indices, and the grid's y (over the M rows) in its limit.
  course::require_gemm_shape("coalesced_sgemm", M, N, K,
                             (static_cast<long>(M) + kBlockY - 1) / kBlockY);
  // BEGIN EXERCISE: coalesced_sgemm launch
  // TODO: launch coalesced_sgemm_kernel on blocks of kBlockX x kBlockY threads, on a grid whose x
  // covers the N columns and whose y covers the M rows (round up), then CHECK_LAUNCH().
  course::not_implemented("coalesced_sgemm (exercises/04-coalescing/coalesced_sgemm.cu)");
  // END EXERCISE
}
//! [launch]

}  // namespace lesson04
