/// \file gemm_check.hpp
/// \brief Run a GEMM on the GPU on fresh random inputs and check it against Eigen; time it
/// against cuBLAS in the same process.
///
/// The graders of every GEMM lesson are a loop over gemm_shape_grid() calling check_sgemm()
/// (or check_bf16_gemm()) and printing VerifyReport::describe() when it fails.
#pragma once

#include "common/gemm.hpp"
#include "common/timing.hpp"
#include "common/verify.hpp"

#include <vector>

namespace course {

/// The design's shape grid: 1x1x1, primes, non-square and non-tile-multiple shapes, beta == 0
/// and beta != 0, and (with `large`) shapes of 1024 and more.
std::vector<GemmShape> gemm_shape_grid(bool large = true);

/// The same grid for bf16 kernels that need K to be a multiple of `k_multiple` (8 for 16-byte
/// row loads): each K rounded up to the next multiple, every M and N kept ragged.
std::vector<GemmShape> bf16_shape_grid(int k_multiple = 8, bool large = true);

/// Runs `gemm` once on random inputs (seeded from the run seed and the shape) with the output
/// poisoned and guarded by canaries, waits for it, and checks it against Eigen.
///
/// When it fails on a shape too small to tell the possible causes apart (VerifyReport::ambiguous(),
/// a 1 x 1 x 1 problem, say), it runs `gemm` once more on the first of probe_shapes() that the
/// kernel accepts (a launcher that refuses a shape throws std::invalid_argument, and the next one
/// is tried) and adds what that shape shows to VerifyReport::cause. The verdict is the first
/// shape's.
/// A CUDA error in the kernel throws course::CudaError; a stub throws course::NotImplemented.
VerifyReport check_sgemm(const SgemmFn& gemm, const GemmShape& shape,
                         const VerifyOptions& options = {});

/// The same for a bf16 GEMM (A M x K, B N x K, C M x N in bf16), probing with
/// probe_shapes(true) (every K a multiple of 8).
VerifyReport check_bf16_gemm(const Bf16GemmFn& gemm, const GemmShape& shape,
                             const VerifyOptions& options = {});

/// A kernel and cuBLAS timed on the same inputs in the same process.
struct GemmBench {
  TimingStats kernel, cublas;
  double kernel_tflops = 0, cublas_tflops = 0;
  double pct_of_cublas = 0;  ///< 100 * cuBLAS time / kernel time
};

/// Times `gemm` and cuBLAS SGEMM at M x N x K (alpha 1, beta 0) on the same random inputs.
GemmBench bench_sgemm_vs_cublas(const SgemmFn& gemm, int M, int N, int K,
                                const TimingOptions& options = {});
/// Times `gemm` and cuBLAS bf16 GEMM at M x N x K on the same random inputs.
GemmBench bench_bf16_vs_cublas(const Bf16GemmFn& gemm, int M, int N, int K,
                               const TimingOptions& options = {});

}  // namespace course
