#include "common/cublas_gemm.hpp"

#include "common/check.hpp"

#include <cublas_v2.h>

#include <string>
#include <utility>

namespace course {
namespace {

[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                  cublasGetStatusString(status) + " (" + cublasGetStatusName(status) + ")");
}

}  // namespace

// Checks a cuBLAS call, as CUDA_CHECK (common/check.hpp) checks a CUDA runtime call: throws
// course::CudaError naming the source file and line, the call and cuBLAS's status.
#define CUBLAS_CHECK(call)                                           \
  do {                                                               \
    cublasStatus_t course_status_ = (call);                          \
    if (course_status_ != CUBLAS_STATUS_SUCCESS)                     \
      throw_cublas_error(course_status_, #call, __FILE__, __LINE__); \
  } while (0)

CublasHandle::CublasHandle() {
  CUBLAS_CHECK(cublasCreate(&handle_));
  // The default math mode keeps SGEMM in FP32; say so explicitly so no global setting turns on
  // TF32.
  CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
}
CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}
CublasHandle::CublasHandle(CublasHandle&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)) {}
CublasHandle& CublasHandle::operator=(CublasHandle&& other) noexcept {
  std::swap(handle_, other.handle_);
  return *this;
}

void cublas_gemm(cublasHandle_t handle, int M, int N, int K, float alpha, const float* A,
                 const float* B, float beta, float* C) {
  // Column-major view: C^T (N x M, ld N) = B^T (N x K, ld N) * A^T (K x M, ld K).
  CUBLAS_CHECK(
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N));
}

void cublas_gemm(cublasHandle_t handle, int M, int N, int K, float alpha, const bf16* A,
                 const bf16* B, float beta, bf16* C) {
  // Column-major view: row-major B (N x K) is a K x N column-major matrix; transposing it gives
  // N x K. C^T (N x M, ld N) = op_T(B_cm) (N x K) * A_cm (K x M, ld K).
  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16BF, K, A,
                            CUDA_R_16BF, K, &beta, C, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
}

}  // namespace course
