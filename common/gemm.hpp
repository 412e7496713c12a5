/// \file gemm.hpp
/// \brief What every GEMM of the course computes, in which layout, and the shape preconditions
/// every GEMM launcher checks before it launches. The host signature of each precision,
/// GemmLauncher<P>, and the precisions' traits are in common/precision.hpp.
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

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

// CUDA's bf16 type, declared as <cuda_bf16.h> declares it before defining it: here it is only
// pointed to, and the FP32 lessons' kernels, which include this header, need not compile the
// bf16 headers (more than half a second a file). Code that computes with bf16 includes
// <cuda_bf16.h>.
struct __nv_bfloat16;

namespace course {

/// bf16: 8 exponent bits like FP32, 8 significant bits (defined in <cuda_bf16.h>).
using bf16 = __nv_bfloat16;

/// The most blocks a grid may have along y (and along z); along x the limit is 2^31 - 1.
constexpr long kMaxGridY = 65535;

/// The preconditions of a GEMM launcher of the course, checked on the host before anything is
/// launched. Empty when they hold; otherwise what is wrong, in one line that starts with the shape
/// ("M=3 N=0 K=5: every dimension must be at least 1"). In the order checked:
/// - every dimension is at least 1;
/// - every matrix (A: M x K, B: K x N, C: M x N) has at most 2^31 - 1 elements, so that the
///   kernels' `int` indices such as `row * K + k` cannot overflow;
/// - the grid has at most kMaxGridY blocks along y.
///
/// \param M, N, K the problem's sizes, as the launcher got them
/// \param grid_y_blocks the blocks the launch puts along y, e.g.
///        `(static_cast<long>(M) + TILE - 1) / TILE` for a grid whose y covers the rows of C
///        (computed in `long`: `M + TILE - 1` may not fit an `int`); 0 when the launcher does not
///        know it yet, and then only the sizes are checked
inline std::string gemm_shape_error(long M, long N, long K, long grid_y_blocks) {
  const std::string shape =
      "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K);
  if (M < 1 || N < 1 || K < 1) return shape + ": every dimension must be at least 1";
  constexpr long kIntMax = std::numeric_limits<int>::max();
  if (M > kIntMax / K || K > kIntMax / N || M > kIntMax / N) {
    return shape + ": a matrix has more than 2^31 - 1 elements, too many for int indices";
  }
  if (grid_y_blocks > kMaxGridY) {
    return shape + ": the grid needs " + std::to_string(grid_y_blocks) +
           " blocks along y, more than the grid's limit of " + std::to_string(kMaxGridY);
  }
  return "";
}

/// Throws `std::invalid_argument("KERNEL: REASON")`, with REASON the line of gemm_shape_error(M,
/// N, K, grid_y_blocks), when the shape breaks the preconditions; does nothing otherwise. Every
/// GEMM launcher of the course calls it before it launches, e.g. lesson 05's
/// `require_gemm_shape("tiled_sgemm", M, N, K, (static_cast<long>(M) + TILE - 1) / TILE)`.
/// \param kernel the launcher's name, the start of the message
/// \throws std::invalid_argument when the shape breaks the preconditions
inline void require_gemm_shape(const std::string& kernel, long M, long N, long K,
                               long grid_y_blocks) {
  if (std::string why = gemm_shape_error(M, N, K, grid_y_blocks); !why.empty()) {
    throw std::invalid_argument(kernel + ": " + why);
  }
}

/// The preconditions of a bf16 GEMM launcher that loads rows of A and B in 16-byte pieces (8 bf16
/// values; `cp.async`, TMA): those of gemm_shape_error(M, N, K, 0), then that K is a multiple of
/// `k_multiple` (every row then starts on a 16-byte boundary when k_multiple is 8) and that A, B
/// and C start on 16-byte boundaries (what cudaMalloc returns). Empty when they hold; otherwise
/// one line that starts with the shape.
inline std::string bf16_gemm_shape_error(long M, long N, long K, int k_multiple, const void* A,
                                         const void* B, const void* C) {
  if (std::string why = gemm_shape_error(M, N, K, 0); !why.empty()) return why;
  const std::string shape =
      "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K);
  if (K % k_multiple != 0) {
    return shape + ": K must be a multiple of " + std::to_string(k_multiple) +
           " (rows are loaded in 16-byte pieces; pad K with zeros to the next multiple)";
  }
  auto misaligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 != 0; };
  if (misaligned(A) || misaligned(B) || misaligned(C)) {
    return shape + ": A, B and C must start on 16-byte boundaries (as cudaMalloc returns them)";
  }
  return "";
}

/// Throws `std::invalid_argument("KERNEL: REASON")` when bf16_gemm_shape_error() finds a broken
/// precondition; does nothing otherwise. Every bf16 launcher of the course calls it first.
/// \throws std::invalid_argument when the shape or the pointers break the preconditions
inline void require_bf16_gemm_shape(const std::string& kernel, long M, long N, long K,
                                    int k_multiple, const void* A, const void* B, const void* C) {
  if (std::string why = bf16_gemm_shape_error(M, N, K, k_multiple, A, B, C); !why.empty()) {
    throw std::invalid_argument(kernel + ": " + why);
  }
}

}  // namespace course
