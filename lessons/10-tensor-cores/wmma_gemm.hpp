/// \file wmma_gemm.hpp
/// \brief Lesson 10, given code: the simplest correct tensor-core GEMM, through CUDA's
/// `nvcuda::wmma` API, and the compute-capability check every launcher of the lesson makes.
///
/// The bf16 problem of the course: A is M x K row-major, B is **N x K** row-major (K-major), C is
/// M x N row-major, all bf16 device pointers; products accumulate in FP32 and
/// `C = alpha * A * B^T + beta * C` is rounded to bf16 once. When beta == 0 the input C is never
/// read (it may hold NaN).
///
/// Preconditions, checked on the host before anything is launched (std::invalid_argument with the
/// reason): M, N, K >= 1; K a multiple of 8, so that every row of A and B starts on a 16-byte
/// boundary and is read in 16-byte pieces (pad K with zeros otherwise); A, B and C 16-byte aligned
/// (as cudaMalloc returns them); no matrix above 2^31 - 1 elements. Any M and N are fine: partial
/// tiles are zero-filled on the way in and bounded on the way out.
///
/// This header is plain C++ (the graders are compiled by a C++ compiler).
#pragma once

#include "common/gemm.hpp"

#include "common/device.hpp"
#include "common/precision.hpp"
#include "common/variants.hpp"

#include <string>

namespace lesson10 {

/// The compute capability bf16 tensor cores need: 8.0 (Volta's and Turing's tensor cores have no
/// bf16). The lesson's record says the same (min_cc = "8.0"; wmma_gemm.cu checks that they agree).
constexpr int kBf16TensorCoresCc = 80;

/// Throws std::runtime_error("KERNEL (bf16 tensor cores) needs compute capability 8.0, ...") when
/// the current device is older than kBf16TensorCoresCc.
inline void require_bf16_tensor_cores(const std::string& kernel) {
  course::require_compute_capability(kernel, kBf16TensorCoresCc, "bf16 tensor cores");
}

/// `nvcuda::wmma` 16 x 16 x 16 bf16 -> fp32: 64 x 64 tiles of C per block of 4 warps, each warp
/// 2 x 2 wmma tiles; tiles of A and B staged in shared memory with ordinary 16-byte loads, no
/// overlap of loads and math; the accumulators leave through shared memory so that C is written
/// with bounds checks (any M, N).
/// \throws std::invalid_argument when the shape or the pointers break the preconditions
/// \throws std::runtime_error on a GPU older than compute capability 8.0
void wmma_gemm(int M, int N, int K, float alpha, const course::bf16* A, const course::bf16* B,
               float beta, course::bf16* C);

/// wmma_gemm as a variant (common/variants.hpp): its kernel, threads, static shared memory (the
/// staged tiles of A, B and C) and the compute capability it needs, for the check that it fits a
/// GPU (common/fit.hpp).
const course::Variant<course::Bf16>& wmma_variant();

}  // namespace lesson10
