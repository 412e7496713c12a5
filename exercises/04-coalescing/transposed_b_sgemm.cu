// Lesson 04, task 3: the contrast. The coalesced mapping and the same arithmetic, with B given
// transposed (Bt, N x K): the lanes of a warp now read 32 floats K apart, and the kernel is
// uncoalesced again.
//
// exercises/04-coalescing/transposed_b_sgemm.cu is yours: fill in the two regions between
// "BEGIN EXERCISE" and "END EXERCISE". The contract is lessons/04-coalescing/coalesced_sgemm.hpp.
#include "coalesced_sgemm.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/precision.hpp"
#include "common/todo.hpp"

#include <cstddef>
#include <vector>

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

// Not an exercise: lets the checks (the grader, main.cu) run transposed_b_sgemm as a GemmFn<Fp32>.
course::GemmFn<course::Fp32> transposed_b_for_checking() {
  return
      [](int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
        // B is K x N on the device; Bt[col][k] = B[k][col]. Transposed on the host: slow and
        // simple, and certainly right, which is what a check needs.
        std::vector<float> b(static_cast<std::size_t>(K) * N), bt(b.size());
        CUDA_CHECK(cudaMemcpy(b.data(), B, b.size() * sizeof(float), cudaMemcpyDeviceToHost));
        for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) {
          for (std::size_t col = 0; col < static_cast<std::size_t>(N); ++col) {
            bt[col * K + k] = b[k * N + col];
          }
        }
        course::DeviceBuffer<float> d_bt(bt);
        transposed_b_sgemm(M, N, K, alpha, A, d_bt.data(), beta, C);
        CUDA_CHECK(cudaDeviceSynchronize());  // d_bt is freed on return: the kernel must be done
      };
}

}  // namespace lesson04
