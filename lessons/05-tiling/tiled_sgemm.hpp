/// \file tiled_sgemm.hpp
/// \brief Lesson 05, the contract: an FP32 GEMM that stages TILE x TILE tiles of A and B in shared
/// memory, so each element fetched from global memory is used TILE times.
///
/// `C = alpha * A * B + beta * C`, row-major (element (row, col) of an R x C matrix is at
/// `row * C + col`), A is M x K, B is K x N, C is M x N, all device pointers. As in BLAS, when
/// beta == 0 the input C is never read (it may hold NaN).
///
/// The learner writes the regions marked "BEGIN EXERCISE" in `exercises/05-tiling/tiled_sgemm.cuh`;
/// the reference is `solutions/05-tiling/tiled_sgemm.cuh`. Both define the same template, which
/// the given `lessons/05-tiling/calls-yours/tiled_sgemm.cu` explicitly instantiates for the two
/// tile sizes of the lesson.
///
/// This header is plain C++ (the graders are compiled by a C++ compiler).
#pragma once

#include "common/todo.hpp"

namespace lesson05 {

/// **Exercise (task 1).** Element (r, c) of a `rows x cols` row-major matrix X, or 0 when (r, c)
/// lies outside it (r >= rows or c >= cols). The kernel loads every element of its tiles through
/// this function, so a partial tile at the bottom, the right or the end of K is padded with
/// zeros, which add nothing to a dot product. `__host__ __device__`: the kernel calls it on the
/// GPU, the grader on the CPU. Example: X 3 x 5, load_or_zero(X, 3, 5, 2, 4) == X[14];
/// load_or_zero(X, 3, 5, 3, 0) == 0 (no row 3); load_or_zero(X, 3, 5, 0, 5) == 0 (no column 5),
/// and X is not read then.
/// \pre 0 <= r, 0 <= c; X points to rows * cols floats
COURSE_HD float load_or_zero(const float* X, int rows, int cols, int r, int c);

/// **Exercise (tasks 2 and 3).** `C = alpha * A * B + beta * C` with shared-memory tiling.
///
/// The launch: one block of TILE x TILE threads per TILE x TILE tile of C, `threadIdx.x` along the
/// columns (x is the column, y the row), a grid of ceil(N / TILE) x ceil(M / TILE) blocks. Each
/// thread computes one element of C. The block walks along K one tile at a time: its threads store
/// a TILE x TILE tile of A and one of B into shared memory together (one element each, fetched
/// coalesced: consecutive threadIdx.x read consecutive addresses), wait for each other, start
/// fetching the next tiles into registers, multiply the two tiles out of shared memory, and wait
/// again before the next tiles overwrite them.
///
/// Correct for every M, N, K >= 1: elements of a partial tile that lie outside A or B (past row M,
/// column N, or K along the inner dimension) are loaded as zeros (load_or_zero), so they add
/// nothing; only threads inside C write.
///
/// \tparam TILE the tile edge, 16 or 32 (the two explicit instantiations)
/// \param M, N, K the sizes, each >= 1
/// \param A, B, C **device** pointers, row-major; C is read only when beta != 0
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error:
///         M, N or K below 1, a matrix too large for int indices, or M needing more than
///         course::kMaxGridY blocks along y)
/// \throws course::CudaError when the launch fails
/// Returns without waiting for the kernel.
template <int TILE>
void tiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                 float* C);

// Defined in tiled_sgemm.cuh (yours), instantiated in calls-yours/tiled_sgemm.cu.
extern template void tiled_sgemm<16>(int, int, int, float, const float*, const float*, float,
                                     float*);
extern template void tiled_sgemm<32>(int, int, int, float, const float*, const float*, float,
                                     float*);

/// The `__global__` function that tiled_sgemm<TILE> launches, as the CUDA runtime's C API takes it
/// (`const void*`): for the occupancy APIs (cudaFuncGetAttributes,
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor) that lesson 06 applies to this kernel. Its
/// blocks have TILE x TILE threads and no dynamic shared memory. Given code
/// (calls-yours/tiled_sgemm.cu), not an exercise.
template <int TILE>
const void* tiled_sgemm_kernel();

extern template const void* tiled_sgemm_kernel<16>();
extern template const void* tiled_sgemm_kernel<32>();

}  // namespace lesson05
