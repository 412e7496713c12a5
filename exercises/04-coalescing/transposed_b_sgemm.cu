// Lesson 04, task 3: the contrast. The coalesced mapping and the same arithmetic, with B given
// transposed (Bt, N x K): the lanes of a warp now read 32 floats K apart, and the kernel is
// uncoalesced again.
//
// exercises/04-coalescing/transposed_b_sgemm.cu is yours: fill in the two regions between
// "BEGIN EXERCISE" and "END EXERCISE". The contract is lessons/04-coalescing/coalesced_sgemm.hpp.
#include "coalesced_sgemm.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

namespace lesson04 {

//! [kernel]
// The mapping of coalesced_sgemm_kernel; only the address of the second operand changes.
__global__ void transposed_b_sgemm_kernel(int M, int N, int K, float alpha, const float* A,
                                          const float* Bt, float beta, float* C) {
  // BEGIN EXERCISE: transposed_b_sgemm_kernel
  // TODO: the kernel of task 2, reading B[k][col] from the transposed copy: Bt[col * K + k].
  // END EXERCISE
}
//! [kernel]

void transposed_b_sgemm(int M, int N, int K, float alpha, const float* A, const float* Bt,
                        float beta, float* C) {
  // Sizes >= 1, small enough for int indices, and the grid's y (over the M rows) in its limit.
  course::require_gemm_shape("transposed_b_sgemm", M, N, K,
                             (static_cast<long>(M) + kBlockY - 1) / kBlockY);
  // BEGIN EXERCISE: transposed_b_sgemm launch
  // TODO: launch transposed_b_sgemm_kernel exactly as coalesced_sgemm launches its kernel, then
  // CHECK_LAUNCH().
  course::not_implemented("transposed_b_sgemm (exercises/04-coalescing/transposed_b_sgemm.cu)");
  // END EXERCISE
}

}  // namespace lesson04
