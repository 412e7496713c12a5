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
  // TODO: work out this thread's row (from the .x parts: x walks down the rows) and column (the
  // .y parts); stop threads outside C; add up A[row][k] * B[k][col] over k (row-major: A[row][k]
  // is A[row * K + k]); write alpha * sum, plus beta * C[row][col] only when beta != 0.
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
  // TODO: launch naive_sgemm_kernel on blocks of kBlockX x kBlockY threads, on a grid whose x
  // covers the M rows and whose y covers the N columns (round up), then CHECK_LAUNCH().
  course::not_implemented("naive_sgemm (exercises/03-naive/naive_sgemm.cu)");
  // END EXERCISE
}
//! [launch]

}  // namespace lesson03
