/// \file gemm_check.hpp
/// \brief Run a GEMM on the GPU on fresh random inputs and check it against Eigen; time it
/// against cuBLAS in the same process.
///
/// The graders of every GEMM lesson are a loop over shape_grid<P>() calling check_gemm() and
/// printing VerifyReport::describe() when it fails. check_gemm() and bench_vs_cublas() take a
/// kernel of either precision (course::Fp32 or course::Bf16, common/precision.hpp): the kernel's
/// signature picks the overload.
#pragma once

#include "common/gemm.hpp"
#include "common/precision.hpp"
#include "common/timing.hpp"
#include "common/verify.hpp"

#include <functional>
#include <vector>

namespace course {

/// A GEMM of precision P as a value: GemmLauncher<P>'s signature (common/precision.hpp) held by a
/// std::function, so that a lambda binding a handle or a configuration is one too. Every kernel of
/// the course is checked and timed through one.
template <class P>
using GemmFn =
    std::function<void(int M, int N, int K, float alpha, const typename P::Element* A,
                       const typename P::Element* B, float beta, typename P::Element* C)>;

/// P's cuBLAS baseline bound to `handle`, as a GemmFn (for the checking and timing helpers).
template <class P>
GemmFn<P> cublas_gemm_fn(cublasHandle_t handle) {
  return [handle](int M, int N, int K, float alpha, const typename P::Element* A,
                  const typename P::Element* B, float beta,
                  typename P::Element* C) { P::cublas(handle, M, N, K, alpha, A, B, beta, C); };
}

/// The design's shape grid for precision P: 1x1x1, primes, non-square and non-tile-multiple
/// shapes, beta == 0 and beta != 0, one whose N and K are multiples of 4 (the float4 paths) with
/// beta != 0, and (with `large`) shapes of 1024 and more. For a precision
/// whose K must be a multiple of P::kKMultiple (8 for bf16: 16-byte row loads), each K is rounded
/// up to the next multiple; every M and N stays ragged.
template <class P>
std::vector<GemmShape> shape_grid(bool large = true);

/// Runs `gemm` once on random inputs (seeded from the run seed and the shape) with the output
/// poisoned and guarded by canaries, waits for it (at most kKernelTimeLimitSeconds: a kernel that
/// never ends stops the program with a message), and checks it against Eigen.
///
/// When it fails, the table of causes (common/diagnosis.hpp) runs the kernel again on probes:
/// inputs designed so that the result shows which rows, columns and k each element of C used, and
/// how alpha and beta were applied; VerifyReport::cause then names the mistake. The verdict is the
/// first run's. A CUDA error in the kernel throws course::CudaError; a stub throws
/// course::NotImplemented.
VerifyReport check_gemm(const GemmFn<Fp32>& gemm, const GemmShape& shape,
                        const VerifyOptions& options = {});

/// The same for a bf16 GEMM (A M x K, B N x K, C M x N in bf16).
VerifyReport check_gemm(const GemmFn<Bf16>& gemm, const GemmShape& shape,
                        const VerifyOptions& options = {});

/// A kernel and cuBLAS timed on the same inputs in the same process, interleaved (common/
/// timing.hpp): each TimingStats names its regime and carries the SM clock (and, sustained, the
/// power and the energy per GEMM) NVML saw while it ran.
struct GemmBench {
  TimingStats kernel, cublas;
  double kernel_tflops = 0, cublas_tflops = 0;
  double pct_of_cublas = 0;  ///< 100 * cuBLAS time / kernel time
};

/// Times `gemm` and cuBLAS SGEMM at M x N x K (alpha 1, beta 0) on the same random inputs,
/// interleaved repetition by repetition (burst) or block by block (sustained), as `options` say.
/// cuBLAS takes the first turn unless `kernel_first` (the two orders must agree: lesson 01's check
/// of the method).
GemmBench bench_vs_cublas(const GemmFn<Fp32>& gemm, int M, int N, int K,
                          const TimingOptions& options = {}, bool kernel_first = false);
/// Times `gemm` and cuBLAS bf16 GEMM at M x N x K on the same random inputs, as above.
GemmBench bench_vs_cublas(const GemmFn<Bf16>& gemm, int M, int N, int K,
                          const TimingOptions& options = {}, bool kernel_first = false);

/// The GemmBench of a kernel and cuBLAS timed together by time_interleaved() on an M x N x K
/// problem: their TFLOP/s and the kernel's % of cuBLAS. For a kernel that bench_vs_cublas() cannot
/// time (lesson 04's contrast takes B transposed).
GemmBench bench_of(const TimingStats& kernel, const TimingStats& cublas, int M, int N, int K);

}  // namespace course
