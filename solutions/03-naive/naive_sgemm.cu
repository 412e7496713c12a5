// Lesson 03: the naive SGEMM. One thread per element of C, x walking down the rows.
//
// exercises/03-naive/naive_sgemm.cu is yours: fill in the two regions between "BEGIN EXERCISE"
// and "END EXERCISE"; nothing else needs to change. solutions/03-naive/naive_sgemm.cu is the same
// file with the regions filled in. The contract is lessons/03-naive/naive_sgemm.hpp; the chapter,
// lessons/03-naive/README.md, counts what this kernel costs. Row-major everywhere.
//
// `make grade-3` grades it on the GPU over the course's shape grid, `make lesson-3` times it
// against cuBLAS, `make hint-3` gives the next hint.
#include "naive_sgemm.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

namespace lesson03 {

//! [kernel]
// One thread computes one element C[row][col]: the dot product of row `row` of A with column
// `col` of B, read straight from global memory, then scaled and stored.
__global__ void naive_sgemm_kernel(int M, int N, int K, float alpha, const float* A, const float* B,
                                   float beta, float* C) {
  // BEGIN EXERCISE: naive_sgemm_kernel
  // x walks down the rows: the 32 lanes of a warp (consecutive threadIdx.x) own 32 consecutive
  // rows of one column of C.
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;  // over-launched past the bottom or the right edge of C

  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    // At each k the warp asks for A[row][k] in 32 different rows, K floats apart: 32 separate
    // 32-byte sectors for 128 useful bytes. B[k][col] is one address for the whole warp: a
    // broadcast, one sector.
    acc += A[row * K + k] * B[k * N + col];
  }
  float& c = C[row * N + col];
  // As in BLAS, beta == 0 means "overwrite": C is not read, so NaN in it does no harm.
  c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * c;
  // END EXERCISE
}
//! [kernel]

//! [launch]
void naive_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                 float* C) {
  // Sizes >= 1, small enough for int indices, and the grid's y (over the N columns) in its limit.
  course::require_gemm_shape("naive_sgemm", M, N, K,
                             (static_cast<long>(N) + kBlockY - 1) / kBlockY);
  // BEGIN EXERCISE: naive_sgemm launch
  const dim3 block(kBlockX, kBlockY);  // 32 x 32 = 1024 threads, 32 warps of one column each
  // x covers the M rows, y the N columns; both rounded up, the guard stops the spare threads.
  const dim3 grid((M + kBlockX - 1) / kBlockX, (N + kBlockY - 1) / kBlockY);
  naive_sgemm_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
  // END EXERCISE
}
//! [launch]

}  // namespace lesson03
