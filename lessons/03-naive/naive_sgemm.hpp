/// \file naive_sgemm.hpp
/// \brief Lesson 03, the contract: the naive SGEMM, one thread per element of C.
///
/// `C = alpha * A * B + beta * C` in FP32, row-major, A M x K, B K x N, C M x N, all device
/// pointers (the course's SGEMM signature, common/gemm.hpp). As in BLAS, when beta == 0 the
/// input C is not read: it may hold anything, NaN included.
///
/// The thread mapping of this lesson is the one a first attempt usually writes: **threadIdx.x
/// walks down the rows of C**, threadIdx.y along its columns. Every thread computes one element,
/// a dot product of K terms, straight from global memory. It is correct and deliberately slow;
/// lesson 04 swaps the two axes and measures the difference.
///
/// The learner writes the kernel and its launch in `exercises/03-naive/naive_sgemm.cu`; the
/// reference is `solutions/03-naive/naive_sgemm.cu`. This header is plain C++ (the grader is
/// compiled by a C++ compiler).
#pragma once

namespace lesson03 {

/// Threads of a block along x: in this lesson's mapping, 32 consecutive **rows** of C.
/// 32 is one warp: the 32 threads of a warp are the 32 rows of one column of the block.
constexpr int kBlockX = 32;
/// Threads of a block along y: 32 consecutive **columns** of C. 32 x 32 = 1024 threads, the
/// largest block CUDA allows, 32 warps.
constexpr int kBlockY = 32;

/// Bytes of a cache line: the unit in which the L1 looks loads up (four 32-byte sectors).
constexpr int kLineBytes = 128;

/// What the naive kernel's loads ask of the L1 cache, per FMA of its inner loop. The L1 sees every
/// load the threads make; what it does not hold it fetches from L2 and device memory.
struct NaiveTraffic {
  double bytes_per_fma = 0;  ///< bytes the threads load for one FMA: one float of A, one of B
  double lines_per_fma = 0;  ///< 128-byte lines the L1 looks up for one FMA, a warp's step / 32
  /// FLOP per byte loaded (an FMA is 2 FLOP): the intensity if every load went to device memory.
  double flop_per_byte() const { return 2 / bytes_per_fma; }
  /// FLOP per byte of the lines the L1 looks up: the intensity the L1's own roof caps.
  double flop_per_line_byte() const { return 2 / (lines_per_fma * kLineBytes); }
};

/// The naive mapping's traffic when A has `K` columns (row-major). At step k of the loop, lane l of
/// the first warp owns row l of C and loads A[l * K + k] and B[k * N + col]: its 32 loads of A are
/// 4K bytes apart, so they fall in 32 different lines once a row of A is at least a line long
/// (K >= 32), fewer for a narrower A; all 32 lanes load the same float of B, one line. Each lane
/// does one FMA per step: 8 bytes for 2 FLOP, an intensity of 0.25, and at K = 4096 33 lines for
/// 32 FMAs.
inline NaiveTraffic naive_traffic(int K) {
  constexpr int kLanes = kBlockX;  // a warp is 32 consecutive threadIdx.x: 32 rows of C
  int lines_a = 1;                 // the lines lane 0..31's addresses of A fall in, at k = 0
  for (int l = 1; l < kLanes; ++l) {
    const long line = static_cast<long>(l) * K * 4 / kLineBytes;
    const long before = static_cast<long>(l - 1) * K * 4 / kLineBytes;
    lines_a += line != before;
  }
  constexpr int kLinesB = 1;  // the broadcast
  NaiveTraffic t;
  t.bytes_per_fma = 2 * 4;
  t.lines_per_fma = static_cast<double>(lines_a + kLinesB) / kLanes;
  return t;
}

/// **Exercise.** The naive SGEMM: `C = alpha * A * B + beta * C`, one thread per element of C.
///
/// Launches blocks of kBlockX x kBlockY threads on a grid that covers C, with **x along the rows**
/// (`row = blockIdx.x * blockDim.x + threadIdx.x`) and y along the columns; each thread inside C
/// computes `sum_k A[row][k] * B[k][col]` and writes `alpha * sum + beta * C[row][col]`
/// (just `alpha * sum` when beta == 0, without reading C). Threads past the bottom or right edge
/// do nothing. Checks the launch (CHECK_LAUNCH) and returns without waiting for the kernel.
/// \param M, N, K the problem: A is M x K, B is K x N, C is M x N, all row-major; each >= 1
/// \param A, B    **device** pointers to the inputs
/// \param C       **device** pointer to the output (read too when beta != 0)
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error;
///         the grid's y covers the N columns in blocks of kBlockY)
/// \throws course::CudaError when the launch fails
void naive_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                 float* C);

}  // namespace lesson03
