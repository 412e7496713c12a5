/// \file register_tiling.hpp
/// \brief Lesson 07, the contract: three SGEMMs in which every thread computes many elements of C
/// out of values it keeps in registers (register tiling, or thread coarsening), each step loading
/// fewer bytes per multiply-add than the one before.
///
/// `C = alpha * A * B + beta * C`, row-major (element (row, col) of an R x C matrix is at
/// `row * C + col`), A is M x K, B is K x N, C is M x N, all device pointers, any M, N, K >= 1.
/// As in BLAS, when beta == 0 the input C is never read (it may hold NaN). Each launcher returns
/// without waiting for the kernel.
///
/// All three kernels share one outline, the tiled loop of lesson 05: a block computes a BM x BN
/// tile of C and walks along K in steps of BK; at each step its threads copy a BM x BK tile of A
/// and a BK x BN tile of B into shared memory (the next step's tiles travel to registers while
/// this step is multiplied), and then every thread multiplies its part out of shared memory. What
/// changes from kernel to kernel is the part of the block's tile that one thread computes:
///
/// | kernel | one thread computes | threads per block |
/// |---|---|---|
/// | thread_tile_1d_sgemm<BM, BN, BK, TM> | TM rows of one column | (BM / TM) * BN |
/// | thread_tile_2d_sgemm<BM, BN, BK, TM, TN> | a TM x TN patch | (BM / TM) * (BN / TN) |
/// | vectorized_2d_sgemm<BM, BN, BK, TM, TN> | TM x TN, float4 loads, A transposed | the same |
///
/// Every kernel is correct on every shape: a tile that lies wholly inside the matrices takes the
/// fast path (plain loads, no bounds checks; for the vectorized kernel 128-bit loads, which also
/// need K % 4 == 0, N % 4 == 0 and 16-byte aligned pointers), and any other tile a bounds-checked
/// scalar path that loads zeros outside the matrices. Only elements inside C are written.
///
/// The learner writes the regions marked "BEGIN EXERCISE" in `exercises/07-register-tiling/`
/// (the device functions the kernels call, and each launch's blocks and threads); the reference is
/// `solutions/07-register-tiling/`. The kernels and the launchers declared here are given
/// (`lessons/07-register-tiling/calls-yours/`). Each family is explicitly instantiated for the
/// configurations listed below (the lesson program, the grader and the chapter use those).
///
/// This header is plain C++ (the graders are compiled by a C++ compiler).
#pragma once

#include "common/precision.hpp"
#include "common/variants.hpp"

#include <vector>

namespace lesson07 {

// ---- Step 1: a 1D thread tile ------------------------------------------------------------------

/// **Exercise (task 1).** SGEMM with a 1D thread tile: each thread computes TM consecutive rows of
/// one column of C, so each element of B it reads from shared memory feeds TM multiply-adds.
///
/// The launch: one block of (BM / TM) * BN threads (1D) per BM x BN tile of C, a grid of
/// ceil(N / BN) x ceil(M / BM) blocks (x along the columns). Thread `t` owns column `t % BN` of
/// the tile and rows `(t / BN) * TM` to `(t / BN) * TM + TM - 1`.
/// \tparam BM, BN the block's tile of C; \tparam BK the step along K; \tparam TM rows per thread
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error;
///         the grid's y covers the M rows in blocks of BM)
/// \throws course::CudaError when the launch fails
template <int BM, int BN, int BK, int TM>
void thread_tile_1d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C);

/// The `__global__` function thread_tile_1d_sgemm<BM, BN, BK, TM> launches, as the CUDA runtime's
/// C API takes it (for cudaFuncGetAttributes and lesson 06's occupancy calculator). Given code.
template <int BM, int BN, int BK, int TM>
const void* thread_tile_1d_sgemm_kernel();

// The lesson's configuration: a 64 x 64 tile, 8 rows per thread, 512 threads.
extern template void thread_tile_1d_sgemm<64, 64, 8, 8>(int, int, int, float, const float*,
                                                        const float*, float, float*);
extern template const void* thread_tile_1d_sgemm_kernel<64, 64, 8, 8>();

// ---- Step 2: a 2D thread tile, outer products from registers -----------------------------------

/// **Exercise (task 2).** SGEMM with a 2D thread tile: each thread computes a TM x TN patch of C.
/// At every step k it reads TM values of A (a column of the A tile) and TN values of B (a row of
/// the B tile) from shared memory into registers and adds their outer product, TM * TN
/// multiply-adds for TM + TN loads.
///
/// The launch: one block of (BM / TM) * (BN / TN) threads (1D) per BM x BN tile of C, a grid of
/// ceil(N / BN) x ceil(M / BM) blocks. Thread `t` has `tx = t % (BN / TN)`, `ty = t / (BN / TN)`
/// and owns rows `ty * TM ..` and columns `tx * TN ..` of the tile (a contiguous patch).
/// \throws std::invalid_argument when the shape breaks the preconditions (as above)
/// \throws course::CudaError when the launch fails
template <int BM, int BN, int BK, int TM, int TN>
void thread_tile_2d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C);

/// The `__global__` function of thread_tile_2d_sgemm<BM, BN, BK, TM, TN>. Given code.
template <int BM, int BN, int BK, int TM, int TN>
const void* thread_tile_2d_sgemm_kernel();

// The lesson's configuration: a 128 x 128 tile, 8 x 8 per thread, 256 threads.
extern template void thread_tile_2d_sgemm<128, 128, 8, 8, 8>(int, int, int, float, const float*,
                                                             const float*, float, float*);
extern template const void* thread_tile_2d_sgemm_kernel<128, 128, 8, 8, 8>();

// ---- Step 3: 128-bit loads, A transposed in shared memory (the headline) -----------------------

/// **Exercise (task 3), the lesson's headline.** The 2D thread tile with 128-bit (`float4`)
/// loads: from global memory (a thread fetches four consecutive floats of a row of A or B with
/// one instruction) and from shared memory, where the A tile is stored **transposed** (As[k][m])
/// so that the TM values of A a thread needs at step k are consecutive, like those of B.
///
/// A thread's TM x TN patch is split into groups of 4 x 4: its rows are
/// `g * 4 * (BM / TM) + ty * 4 + {0, 1, 2, 3}` for g < TM / 4, its columns
/// `h * 4 * (BN / TN) + tx * 4 + {0, 1, 2, 3}` for h < TN / 4 (with TM = TN = 8 and a 128 x 128
/// tile: two groups of four, 64 apart). Then the float4 reads of a quarter-warp cover 32
/// consecutive words of shared memory, all 32 banks, and C is written as float4 too.
///
/// The 128-bit path is taken for a tile wholly inside the matrices when K % 4 == 0,
/// N % 4 == 0 and A, B and C are 16-byte aligned (every row then starts on a 16-byte boundary);
/// anything else takes the scalar, bounds-checked path. The launch is that of
/// thread_tile_2d_sgemm.
/// \throws std::invalid_argument when the shape breaks the preconditions (as above)
/// \throws course::CudaError when the launch fails
template <int BM, int BN, int BK, int TM, int TN>
void vectorized_2d_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                         float beta, float* C);

/// The `__global__` function of vectorized_2d_sgemm<BM, BN, BK, TM, TN>. Given code.
template <int BM, int BN, int BK, int TM, int TN>
const void* vectorized_2d_sgemm_kernel();

// The lesson's configuration (the headline): a 128 x 128 tile stepping 8 along K, 8 x 8 per
// thread, 256 threads.
extern template void vectorized_2d_sgemm<128, 128, 8, 8, 8>(int, int, int, float, const float*,
                                                            const float*, float, float*);
extern template const void* vectorized_2d_sgemm_kernel<128, 128, 8, 8, 8>();

// ---- The three as a table ----------------------------------------------------------------------

/// One of the lesson's kernels as a variant (common/variants.hpp: its name, `__global__` function,
/// launcher, threads per block, static shared memory and FLOP per byte loaded from global memory),
/// and how its block divides the work.
struct TilingKernel : course::Variant<course::Fp32> {
  int bm = 0, bn = 0;  ///< the block's tile of C
  int tm = 0, tn = 0;  ///< the thread's
};

/// The lesson's configurations, in the order of the chapter: thread_tile_1d_sgemm<64, 64, 8, 8>,
/// thread_tile_2d_sgemm<128, 128, 8, 8, 8> and vectorized_2d_sgemm<128, 128, 8, 8, 8> (the
/// headline). Given.
const std::vector<TilingKernel>& register_tiling_kernels();

}  // namespace lesson07
