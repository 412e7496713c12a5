// Lesson 08: the 2 x 2 cooperative outer product. Four lanes (a quad) compute a 2 x 2 block of C:
// at each step k each lane loads ONE of the four operands the quad needs and gets the other two
// it multiplies by shuffles, so four loads feed four FMAs.
//
// exercises/08-warp-shuffle/warp_outer_product.cu is yours: fill in each region between "BEGIN
// EXERCISE" and "END EXERCISE". The contract is lessons/08-warp-shuffle/warp_shuffle.hpp. Row-major
// everywhere; x is the column, y the row.
#include "warp_shuffle.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/todo.hpp"

#include <cstddef>

namespace lesson08 {

//! [quad_sources]
COURSE_HD int quad_a_source(int q) {
  // BEGIN EXERCISE: quad_a_source
  // Lane q owns row q / 2 of the block; quad lanes 0 and 1 loaded rows 0 and 1 of A.
  return q / 2;
  // END EXERCISE
}

COURSE_HD int quad_b_source(int q) {
  // BEGIN EXERCISE: quad_b_source
  // Lane q owns column q % 2; quad lanes 2 and 3 loaded columns 0 and 1 of B.
  return 2 + q % 2;
  // END EXERCISE
}
//! [quad_sources]

//! [quad_kernel]
__global__ void __launch_bounds__(kQuadThreads)
    quad_sgemm_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                      const float* __restrict__ B, float beta, float* __restrict__ C) {
  const int q = threadIdx.x % 4;     // the lane's place in its quad
  const int quad = threadIdx.x / 4;  // the quad's place in the block: 8 x 8 quads
  const int r0 = blockIdx.y * kQuadTile + 2 * (quad / 8);  // the quad's corner in C
  const int c0 = blockIdx.x * kQuadTile + 2 * (quad % 8);
  const int row = r0 + q / 2, col = c0 + q % 2;  // the element this lane owns

  // The operand this lane loads at every step: quad lanes 0 and 1 a row of A, 2 and 3 a column
  // of B (the table in warp_shuffle.hpp); 0 where it lies outside the matrix.
  const bool loads_a = q < 2;
  const int a_row = r0 + q, b_col = c0 + (q - 2);
  const bool inside = loads_a ? a_row < M : b_col < N;

  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    const float v = !inside   ? 0.0f
                    : loads_a ? A[static_cast<std::size_t>(a_row) * K + k]
                              : B[static_cast<std::size_t>(k) * N + b_col];
    // BEGIN EXERCISE: share the operands
    // Width 4: the warp is 8 independent quads, and the source lane counts from the start of the
    // lane's own quad. Every lane executes both shuffles, inside C or not.
    const float a = __shfl_sync(kFullMask, v, quad_a_source(q), 4);
    const float b = __shfl_sync(kFullMask, v, quad_b_source(q), 4);
    acc = fmaf(a, b, acc);
    // END EXERCISE
  }
  if (row < M && col < N) {
    float* c = C + static_cast<std::size_t>(row) * N + col;
    *c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * *c;  // C unread when beta == 0
  }
}
//! [quad_kernel]

void quad_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                float* C) {
  course::require_gemm_shape("quad_sgemm", M, N, K,
                             (static_cast<long>(M) + kQuadTile - 1) / kQuadTile);
  // BEGIN EXERCISE: quad_sgemm launch
  // One block of kQuadThreads threads per kQuadTile x kQuadTile tile of C, x along the columns.
  const dim3 grid((N + kQuadTile - 1) / kQuadTile, (M + kQuadTile - 1) / kQuadTile);
  quad_sgemm_kernel<<<grid, kQuadThreads>>>(M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
  // END EXERCISE
}

}  // namespace lesson08
