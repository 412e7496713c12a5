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
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // lanes: neighbouring columns
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;

  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    // B[k][col] is Bt[col][k]. Each thread walks along its own row of Bt, contiguous for the
    // thread, but at each k the warp asks for 32 rows of Bt, K floats apart: 32 sectors in 32
    // lines. Which threads share a warp is what decides coalescing, not what one thread does.
    acc += A[row * K + k] * Bt[col * K + k];
  }
  float& c = C[row * N + col];
  c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * c;
  // END EXERCISE
}
//! [kernel]

void transposed_b_sgemm(int M, int N, int K, float alpha, const float* A, const float* Bt,
                        float beta, float* C) {
  // Sizes >= 1, small enough for int indices, and the grid's y (over the M rows) in its limit.
  course::require_gemm_shape("transposed_b_sgemm", M, N, K,
                             (static_cast<long>(M) + kBlockY - 1) / kBlockY);
  // BEGIN EXERCISE: transposed_b_sgemm launch
  const dim3 block(kBlockX, kBlockY);  // the grid and blocks of coalesced_sgemm
  const dim3 grid((N + kBlockX - 1) / kBlockX, (M + kBlockY - 1) / kBlockY);
  transposed_b_sgemm_kernel<<<grid, block>>>(M, N, K, alpha, A, Bt, beta, C);
  CHECK_LAUNCH();
  // END EXERCISE
}

}  // namespace lesson04
