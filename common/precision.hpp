/// \file precision.hpp
/// \brief The two precisions of the course's GEMMs, as traits: what differs between an FP32 and a
/// bf16 GEMM, in one place, so that checking, timing and reporting are written once for both.
///
/// - course::Fp32: A (M x K), B (K x N) and C (M x N) in FP32, against cuBLAS SGEMM.
/// - course::Bf16: A (M x K), B (**N x K**, K-major) and C (M x N) in bf16, FP32 accumulation,
///   against cuBLAS bf16 (cublasGemmEx).
///
/// Every helper of the harness takes a kernel of either precision: GemmLauncher<P> is the signature
/// of a GEMM of precision P as a plain function, GemmFn<P> (common/gemm_check.hpp) the same as a
/// value, and check_gemm(), bench_vs_cublas(), measure_kernels() and the rest are overloaded (or
/// templated) on it, so the compiler picks the precision from the kernel. This header is light
/// (no `<functional>`): the kernels' files include it through common/variants.hpp, and it is
/// compiled again with every save of an exercise.
#pragma once

#include "common/cublas_gemm.hpp"
#include "common/gemm.hpp"
#include "common/verify.hpp"

namespace course {

/// How a precision stores B.
enum class BLayout {
  kKByN,  ///< K x N, row-major: `B[k * N + n]` (the FP32 lessons)
  kNByK,  ///< N x K, row-major (K-major, what tensor cores want): `B[n * K + k]` (bf16 lessons)
};

/// The FP32 GEMMs of lessons 03 to 09.
struct Fp32 {
  using Element = float;  ///< the type of A, B and C
  /// The value of the "precision" field of a measurement line (common/report.hpp).
  static constexpr const char* kName = "fp32";
  /// The baseline's row in a lesson's table.
  static constexpr const char* kBaseline = "cuBLAS SGEMM";
  static constexpr BLayout kBLayout = BLayout::kKByN;  ///< B is K x N
  /// K must be a multiple of this (1: any K).
  static constexpr int kKMultiple = 1;
  /// The ragged shape a lesson program checks every kernel at before it times it: ragged against
  /// every power-of-two tile, beta != 0.
  static constexpr GemmShape kRaggedShape{257, 255, 300, 1.25f, -0.75f};
  /// How close is close enough: Tolerance::fp32(K).
  static Tolerance tolerance(int K) { return Tolerance::fp32(K); }
  /// The baseline: cublas_gemm() with FP32 operands (cublasSgemm).
  static void cublas(cublasHandle_t handle, int M, int N, int K, float alpha, const float* A,
                     const float* B, float beta, float* C) {
    cublas_gemm(handle, M, N, K, alpha, A, B, beta, C);
  }
};

/// The bf16 GEMMs of lessons 10 and 11.
struct Bf16 {
  using Element = bf16;  ///< the type of A, B and C
  /// The value of the "precision" field of a measurement line (common/report.hpp).
  static constexpr const char* kName = "bf16";
  /// The baseline's row in a lesson's table.
  static constexpr const char* kBaseline = "cuBLAS bf16";
  static constexpr BLayout kBLayout = BLayout::kNByK;  ///< B is N x K
  /// K must be a multiple of this: rows are loaded in 16-byte pieces of 8 bf16.
  static constexpr int kKMultiple = 8;
  /// The ragged check's shape: K a multiple of 8 (the precondition), but of no tile.
  static constexpr GemmShape kRaggedShape{257, 255, 264, 1.25f, -0.75f};
  /// How close is close enough: Tolerance::bf16().
  static Tolerance tolerance(int /*K*/) { return Tolerance::bf16(); }
  /// The baseline: cublas_gemm() with bf16 operands (cublasGemmEx, FP32 accumulation).
  static void cublas(cublasHandle_t handle, int M, int N, int K, float alpha, const bf16* A,
                     const bf16* B, float beta, bf16* C) {
    cublas_gemm(handle, M, N, K, alpha, A, B, beta, C);
  }
};

/// The signature of a GEMM of precision P, as a plain function pointer: (M, N, K, alpha, A, B,
/// beta, C), device pointers, row-major, B laid out as P::kBLayout says. A launcher in a lesson's
/// table of variants is one.
template <class P>
using GemmLauncher = void (*)(int M, int N, int K, float alpha, const typename P::Element* A,
                              const typename P::Element* B, float beta, typename P::Element* C);

}  // namespace course
