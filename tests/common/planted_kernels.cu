#include "planted_kernels.hpp"

#include "common/check.hpp"

namespace planted {
namespace {

__global__ void faulty_sgemm(Fault fault, int M, int N, int K, float alpha, const float* A,
                             const float* B, float beta, float* C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const bool inside = row < M && col < N;
  if (!inside && fault != Fault::kNoWriteGuard) return;
  if (col >= N) return;  // even the unguarded kernel keeps its column in range
  float acc = 0.0f;
  if (inside) {
    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  }
  switch (fault) {
    case Fault::kTransposed:
      C[col * M + row] = alpha * acc + (beta != 0.0f ? beta * C[col * M + row] : 0.0f);
      break;
    case Fault::kIgnoresBeta:
      C[row * N + col] = alpha * acc + C[row * N + col];
      break;
    case Fault::kReadsCWhenBeta0:
      C[row * N + col] = alpha * acc + beta * C[row * N + col];
      break;
    default:
      C[row * N + col] = alpha * acc + (beta != 0.0f && inside ? beta * C[row * N + col] : 0.0f);
  }
}

}  // namespace

void sgemm(Fault fault, int M, int N, int K, float alpha, const float* A, const float* B,
           float beta, float* C) {
  const dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  if (fault == Fault::kGridTooSmall) grid = dim3(N / 16 > 0 ? N / 16 : 1, M / 16 > 0 ? M / 16 : 1);
  faulty_sgemm<<<grid, block>>>(fault, M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
}

}  // namespace planted
