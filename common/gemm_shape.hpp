/// \file gemm_shape.hpp
/// \brief A GEMM problem's shape and scalars, and how close a result must be to pass.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

namespace course {

/// The problem: M x N x K, and the scalars of `C = alpha * A * B + beta * C`.
struct GemmShape {
  int M = 1, N = 1, K = 1;
  float alpha = 1.0f, beta = 0.0f;
  /// "M=257 N=255 K=300 alpha=1.5 beta=-0.75"
  /// Defined in verify.cpp, so that the kernels' files, which include this header, do not compile
  /// `<sstream>`.
  std::string str() const;
};

/// How close is close enough.
struct Tolerance {
  double element = 0;    ///< per-element factor (times |alpha|·(|A||B|)ij + |beta·C0ij|)
  double frobenius = 0;  ///< limit on ‖C − R‖ / ‖R‖
  /// FP32: 1e-5 · √K for both (rounding error of a K-term sum grows like √K).
  static Tolerance fp32(int K) {
    const double t = 1e-5 * std::sqrt(static_cast<double>(std::max(K, 1)));
    return {t, t};
  }
  /// bf16 output with FP32 accumulation: 1e-2 (bf16 keeps 8 significant bits).
  static Tolerance bf16() { return {1e-2, 1e-2}; }
};

}  // namespace course
