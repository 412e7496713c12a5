/// \file warp_shuffle.hpp
/// \brief Lesson 08, the contract of the shuffle exercises: a warp broadcast, a butterfly
/// all-reduce, and the 2 x 2 cooperative outer product, each a tiny kernel behind a host launcher.
///
/// `__shfl_sync(mask, v, src)` lets every lane of a warp read the value of `v` that lane `src`
/// holds, register to register, without shared memory: one instruction, 4 bytes per lane. With a
/// `width` (2, 4, 8 or 16) the warp acts as 32 / width independent segments, and `src` counts
/// from the start of the lane's own segment. Every lane named in `mask` must execute the same
/// shuffle; the kernels here use the full mask, so no lane may leave early.
///
/// The learner writes the regions marked "BEGIN EXERCISE" in
/// `exercises/08-warp-shuffle/warp_shuffle.cu` and `warp_outer_product.cu`; the references are the
/// same files in `solutions/08-warp-shuffle/`. The lane arithmetic is `__host__ __device__`, so
/// the grader emulates a warp on the CPU with it (the emulations below are given code).
///
/// This header is plain C++ (the graders are compiled by a C++ compiler).
#pragma once

#include "common/todo.hpp"

#include <array>
#include <cstddef>

namespace lesson08 {

/// Lanes in a warp.
constexpr int kWarpSize = 32;
/// The mask that names all 32 lanes: every lane of the warp takes part in the shuffle.
constexpr unsigned kFullMask = 0xffffffffu;

// ---- Task 1: broadcast
// ---------------------------------------------------------------------------

/// **Exercise (task 1).** A broadcast inside every warp: for each i < n, `out[i]` is the value
/// that lane `src_lane` of i's warp holds, where warp w (threads 32w .. 32w + 31 of the launch)
/// holds `in[32w .. 32w + 31]` and a lane past the end (32w + lane >= n) holds 0. So
/// `out[i] = in[32 * (i / 32) + src_lane]`, or 0 when that index is n or more.
/// One shuffle per warp, no shared memory.
/// \param in, out **device** pointers to n floats
/// \param n at least 1
/// \param src_lane the lane whose value every lane receives, 0 .. 31
/// \throws std::invalid_argument when n < 1 or src_lane is outside 0 .. 31
/// \throws course::CudaError when the launch fails
void warp_broadcast(const float* in, float* out, int n, int src_lane);

// ---- Task 2: the butterfly
// ------------------------------------------------------------------------

/// **Exercise (task 2).** The partner of `lane` at one stage of a butterfly: the lane whose index
/// differs from `lane` in exactly the bit `offset` (lane XOR offset). `__host__ __device__`: the
/// kernel uses it on the GPU, the grader on the CPU.
/// Example: butterfly_partner(5, 16) == 21, butterfly_partner(21, 16) == 5,
/// butterfly_partner(6, 2) == 4.
/// \pre 0 <= lane < 32; offset is 1, 2, 4, 8 or 16
COURSE_HD int butterfly_partner(int lane, int offset);

/// Given: the butterfly all-reduce on the CPU, as a warp runs it, all 32 lanes in step. At each
/// stage (offset 16, 8, 4, 2, 1) every lane adds the value its butterfly_partner held **before**
/// the stage. After the 5 stages, if the partners are right, every lane holds the sum of all 32
/// values. Returns the 32 lanes' values after each stage: `[0]` after offset 16, ..., `[4]` after
/// offset 1 (the result). Throws std::out_of_range when a partner is not a lane (0 .. 31).
inline std::array<std::array<float, kWarpSize>, 5> emulate_butterfly(
    std::array<float, kWarpSize> lanes) {
  std::array<std::array<float, kWarpSize>, 5> stages{};
  int s = 0;
  for (int offset = kWarpSize / 2; offset >= 1; offset /= 2, ++s) {
    std::array<float, kWarpSize> next{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
      // The same addition the GPU does, in the same order: own value + partner's value.
      next[lane] = lanes[lane] + lanes.at(butterfly_partner(lane, offset));
    }
    lanes = next;
    stages[s] = lanes;
  }
  return stages;
}

/// **Exercise (task 2).** A sum inside every warp, left in **every** lane (an all-reduce): for
/// each i < n, `out[i]` is the sum of the 32 values of i's warp (`in[32w .. 32w + 31]`, with 0
/// for a lane past the end), computed with five shuffles, a butterfly, in the order
/// emulate_butterfly() shows. Each lane adds its partner's value to its own, so every lane computes
/// bit for bit the same sum the emulation does.
/// \param in, out **device** pointers to n floats
/// \throws std::invalid_argument when n < 1
/// \throws course::CudaError when the launch fails
void warp_sums(const float* in, float* out, int n);

// ---- Task 3: the 2 x 2 cooperative outer product
// ----------------------------------------------------

/// Four consecutive lanes, a **quad**, compute a 2 x 2 block of C together. Quad lane q (0 .. 3,
/// `lane % 4`) owns C[r0 + q / 2][c0 + q % 2], where (r0, c0) is the quad's corner. At each step
/// k of the dot products the quad needs four operands, A[r0][k], A[r0 + 1][k], B[k][c0] and
/// B[k][c0 + 1], and each lane loads exactly one of them from global memory:
///
/// | quad lane q | owns C[..][..] | loads          |
/// |-------------|----------------|----------------|
/// | 0           | [r0][c0]       | A[r0][k]       |
/// | 1           | [r0][c0 + 1]   | A[r0 + 1][k]   |
/// | 2           | [r0 + 1][c0]   | B[k][c0]       |
/// | 3           | [r0 + 1][c0+1] | B[k][c0 + 1]   |
///
/// Each lane then gets its A operand and its B operand from the lanes that loaded them, by two
/// shuffles of width 4: four loads feed four FMAs, where lanes that do not share would load eight.

/// **Exercise (task 3).** The quad lane (0 .. 3) that loaded the A operand quad lane q needs:
/// A[r0 + q / 2][k]. `__host__ __device__`. Example: quad_a_source(3) == 1.
/// \pre 0 <= q < 4
COURSE_HD int quad_a_source(int q);

/// **Exercise (task 3).** The quad lane (0 .. 3) that loaded the B operand quad lane q needs:
/// B[k][c0 + q % 2]. `__host__ __device__`. Example: quad_b_source(3) == 3.
/// \pre 0 <= q < 4
COURSE_HD int quad_b_source(int q);

/// Given: one quad's 2 x 2 block on the CPU, as the four lanes compute it with the sources above.
/// A2 is the quad's two rows of A (2 x K, row-major), B2 its two columns of B (K x 2, row-major).
/// Returns the four lanes' sums, lane q's at [q] (C[q / 2][q % 2] when the sources are right).
/// Throws std::out_of_range when a source is not a quad lane (0 .. 3).
inline std::array<float, 4> emulate_quad(int K, const float* A2, const float* B2) {
  std::array<float, 4> acc{};
  for (int k = 0; k < K; ++k) {
    // What each quad lane loaded at this step (the table above).
    const std::array<float, 4> loaded = {A2[k], A2[K + k], B2[2 * k], B2[2 * k + 1]};
    for (int q = 0; q < 4; ++q) {
      const float a = loaded.at(quad_a_source(q));
      const float b = loaded.at(quad_b_source(q));
      acc[q] += a * b;
    }
  }
  return acc;
}

/// Rows and columns of C per block of quad_sgemm: 64 quads as 8 x 8 blocks of 2 x 2.
constexpr int kQuadTile = 16;
/// Threads per block of quad_sgemm: 8 warps of 8 quads.
constexpr int kQuadThreads = 256;

/// **Exercise (task 3).** `C = alpha * A * B + beta * C` (row-major, A M x K, B K x N, any M, N, K
/// >= 1), every 2 x 2 block of C computed by one quad that shares its operands by shuffles. A
/// demonstration, not a fast kernel: one global load and two shuffles per FMA. A block of
/// kQuadThreads threads covers a kQuadTile x kQuadTile tile of C; quad t of the block (threads
/// 4t .. 4t + 3) has its corner at row 2 * (t / 8) and column 2 * (t % 8) of the tile. A lane whose
/// operand lies outside A or B loads 0; only lanes inside C write. As in BLAS, C is read only when
/// beta != 0.
/// \param A, B, C **device** pointers
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error)
/// \throws course::CudaError when the launch fails
void quad_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                float* C);

}  // namespace lesson08
