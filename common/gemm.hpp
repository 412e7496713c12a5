/// \file gemm.hpp
/// \brief The one host signature per precision that every GEMM in the course is launched through.
///
/// Row-major everywhere: element (row, col) of an R x C matrix is at `row * C + col`.
/// - FP32: `C = alpha * A * B + beta * C`, A is M x K, B is K x N, C is M x N.
/// - bf16: A is M x K, B is **N x K** (K-major, the layout tensor cores want), products accumulate
///   in FP32, and C (M x N) is bf16: `C = alpha * A * B^T + beta * C`.
///
/// As in BLAS, when beta == 0 the input C is not read (it may hold anything, NaN included).
/// All pointers are device pointers; the call launches on the default stream and returns without
/// waiting. Exercise and solution export the same functions, so a lesson program, a grader or the
/// benchmark can run either.
#pragma once

#include <cuda_bf16.h>

#include <functional>

namespace course {

/// bf16: 8 exponent bits like FP32, 8 significant bits.
using bf16 = __nv_bfloat16;

/// The FP32 GEMM signature: (M, N, K, alpha, A, B, beta, C), device pointers, row-major.
using SgemmFn = std::function<void(int M, int N, int K, float alpha, const float* A, const float* B,
                                   float beta, float* C)>;

/// The bf16 GEMM signature: (M, N, K, alpha, A (M x K), B (N x K), beta, C (M x N)).
using Bf16GemmFn = std::function<void(int M, int N, int K, float alpha, const bf16* A,
                                      const bf16* B, float beta, bf16* C)>;

}  // namespace course
