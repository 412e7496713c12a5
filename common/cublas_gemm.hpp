/// \file cublas_gemm.hpp
/// \brief cuBLAS baselines in the course's row-major layouts: the speed every kernel is held to.
///
/// One name, cublas_gemm(), for both precisions; the operands' type picks the cuBLAS routine.
/// Each precision's traits (common/precision.hpp) name its baseline.
#pragma once

#include "common/gemm.hpp"

// cuBLAS's handle type, declared as <cublas_v2.h> declares it: the kernels' files include this
// header (through common/precision.hpp), and cuBLAS's headers would add about half a second to
// each of their compiles. common/cublas_gemm.cpp, the only caller of cuBLAS, includes them.
struct cublasContext;
typedef struct cublasContext* cublasHandle_t;

namespace course {

/// Owns a cuBLAS handle (created on construction, destroyed with the object). Move-only.
class CublasHandle {
 public:
  CublasHandle();
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  CublasHandle(CublasHandle&& other) noexcept;
  CublasHandle& operator=(CublasHandle&& other) noexcept;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

/// Row-major FP32 `C = alpha*A*B + beta*C` (A M x K, B K x N, C M x N) through cublasSgemm,
/// in full FP32 (no TF32). cuBLAS is column-major: a row-major matrix is its transpose in
/// column-major, so this computes C^T = B^T * A^T, which needs no copies.
void cublas_gemm(cublasHandle_t handle, int M, int N, int K, float alpha, const float* A,
                 const float* B, float beta, float* C);

/// bf16 `C = alpha*A*B^T + beta*C` with A M x K, B N x K, C M x N, all row-major, FP32
/// accumulation (cublasGemmEx, CUBLAS_COMPUTE_32F): the layout of the course's bf16 lessons.
void cublas_gemm(cublasHandle_t handle, int M, int N, int K, float alpha, const bf16* A,
                 const bf16* B, float beta, bf16* C);

}  // namespace course
