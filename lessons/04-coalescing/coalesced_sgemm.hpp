/// \file coalesced_sgemm.hpp
/// \brief Lesson 04, the contract: the same one-thread-per-element SGEMM as lesson 03 with the
/// thread mapping swapped, and a contrast kernel that strides through memory again.
///
/// Both compute `C = alpha * A * B + beta * C` in FP32, row-major, A M x K, C M x N, device
/// pointers; when beta == 0 the input C is not read (as in BLAS).
///
/// - coalesced_sgemm: **threadIdx.x walks along the columns of C** (x is the column, as everywhere
///   in the course). The 32 lanes of a warp own 32 neighbouring columns of one row: at each step k
///   they read 32 consecutive floats of B (one 128-byte line), one float of A (a broadcast), and at
///   the end write 32 consecutive floats of C. It is lesson 03's kernel with the two axes swapped.
/// - transposed_b_sgemm: the same mapping and the same arithmetic, but B is given transposed, as
///   Bt (N x K, row-major, `Bt[col][k] == B[k][col]`). Now the 32 lanes read Bt[col][k] for 32
///   consecutive columns: 32 addresses K floats apart, 32 different lines. Uncoalesced again.
///
/// The learner writes both kernels and their launches in `exercises/04-coalescing/`; the reference
/// is in `solutions/04-coalescing/`. This header is plain C++.
#pragma once

#include "common/gemm.hpp"
#include "common/gemm_check.hpp"  // GemmFn

namespace lesson04 {

/// Threads of a block along x: 32 consecutive **columns** of C, one warp.
constexpr int kBlockX = 32;
/// Threads of a block along y: 32 consecutive rows of C. 32 x 32 = 1024 threads, as in lesson 03,
/// so the mapping is the only difference.
constexpr int kBlockY = 32;

/// **Exercise (task 2).** The coalesced SGEMM: one thread per element of C, with **x along the
/// columns** (`col = blockIdx.x * blockDim.x + threadIdx.x`) and y along the rows, on blocks of
/// kBlockX x kBlockY threads and a grid that covers C. Each thread inside C computes
/// `sum_k A[row][k] * B[k][col]` and writes `alpha * sum + beta * C[row][col]` (just
/// `alpha * sum` when beta == 0, without reading C). Checks the launch (CHECK_LAUNCH) and returns
/// without waiting for the kernel.
/// \param A (M x K), B (K x N), C (M x N): **device** pointers, row-major; M, N, K >= 1
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error;
///         the grid's y covers the M rows in blocks of kBlockY)
/// \throws course::CudaError when the launch fails
void coalesced_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                     float* C);

/// **Exercise (task 3).** The contrast: the same mapping as coalesced_sgemm, the same products,
/// but the second operand comes transposed: `Bt` is N x K row-major, `Bt[col * K + k]` holds
/// B[k][col]. Computes `C = alpha * A * Bt^T + beta * C`, i.e. the same C as coalesced_sgemm
/// would with B. Checks the launch and returns without waiting.
/// \param A (M x K), Bt (N x K), C (M x N): **device** pointers, row-major; M, N, K >= 1
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error;
///         the grid's y covers the M rows in blocks of kBlockY)
/// \throws course::CudaError when the launch fails
void transposed_b_sgemm(int M, int N, int K, float alpha, const float* A, const float* Bt,
                        float beta, float* C);

/// transposed_b_sgemm behind the course's SGEMM signature, **for checking only**: each call
/// copies B (K x N, on the device) to the host, transposes it there into Bt (N x K), uploads it,
/// runs transposed_b_sgemm, and waits for it. The copies cost far more than the kernel, so never
/// time this: time transposed_b_sgemm itself on a Bt prepared beforehand (as main.cu does). Given
/// code (lessons/04-coalescing/calls-yours/transposed_b_checking.cpp), not an exercise.
course::GemmFn<course::Fp32> transposed_b_for_checking();

}  // namespace lesson04
