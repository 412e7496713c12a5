// Lesson 04: the adapter that checks your transposed_b_sgemm with the course's SGEMM signature.
// Given code that calls yours: the build compiles this file twice, linked with
// exercises/04-coalescing/transposed_b_sgemm.cu (yours: what `make lesson-4` runs and
// `make grade-4` grades) and with solutions/04-coalescing/transposed_b_sgemm.cu (the reference).
#include "coalesced_sgemm.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/precision.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace lesson04 {

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
        course::wait_for_gpu("transposed_b_sgemm");  // d_bt is freed on return: it must be done
      };
}

}  // namespace lesson04
