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
  // x walks along the row: the 32 lanes of a warp (consecutive threadIdx.x) own 32 neighbouring
  // columns of one row of C.
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;  // over-launched past the right or the bottom edge of C

  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    // At each k the warp reads B[k][col..col+31], 32 consecutive floats: one 128-byte line, four
    // sectors, every byte used. A[row][k] is one address for the whole warp: a broadcast.
    acc += A[row * K + k] * B[k * N + col];
  }
  // The store is coalesced too: 32 consecutive floats of one row of C.
  float& c = C[row * N + col];
  c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * c;  // beta == 0: C is not read
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
  const dim3 block(kBlockX, kBlockY);  // 32 x 32 threads: each warp is 32 columns of one row
  // x covers the N columns, y the M rows: the two axes of lesson 03's grid, swapped.
  const dim3 grid((N + kBlockX - 1) / kBlockX, (M + kBlockY - 1) / kBlockY);
  coalesced_sgemm_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
  // END EXERCISE
}
//! [launch]

}  // namespace lesson04
