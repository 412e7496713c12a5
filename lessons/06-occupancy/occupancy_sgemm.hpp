/// \file occupancy_sgemm.hpp
/// \brief Lesson 06, the kernels: a tiled SGEMM whose launch configuration is chosen with the
/// occupancy calculator (tuned_tiled_sgemm, the lesson's headline), and the list of kernels whose
/// occupancy the lesson takes apart: lesson 05's shared-memory tiled SGEMM (TILE 16 and 32,
/// lesson05::tiled_sgemm) and the tuned ones.
///
/// Every GEMM here computes `C = alpha * A * B + beta * C`, row-major (element (row, col) of an
/// R x C matrix is at `row * C + col`), A is M x K, B is K x N, C is M x N, device pointers, any
/// M, N, K >= 1. As in BLAS, when beta == 0 the input C is never read (it may hold NaN). Each
/// launcher returns without waiting for the kernel.
///
/// The kernels are given code (lesson 05 is where a tiled kernel is written, and its reference
/// solution is the tiled kernel measured here); what the learner writes is the calculator in
/// occupancy.hpp, which tuned_tiled_sgemm uses to pick its launch.
///
/// This header is plain C++ (the graders are compiled by a C++ compiler): kernels are passed
/// around as `const void*`, the form the CUDA runtime's C API takes them in.
#pragma once

#include "occupancy.hpp"

#include "common/variants.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lesson06 {

/// One compiled configuration of the tuned kernel, an entry of the lesson's table of variants
/// (common/variants.hpp: its name, kernel, threads per block, `__launch_bounds__` promise and
/// launcher): a block computes a tile_m x tile_n tile of C with tile_m * tile_n / rows_per_thread
/// threads, each thread `rows_per_thread` elements of one column (a small coarsening: both rows use
/// the same element of B), walking K in steps of tile_k. `min_blocks` is the kernel's
/// `__launch_bounds__` promise: the compiler keeps the registers low enough for that many blocks
/// per SM (on an SM that holds fewer threads than threads x min_blocks, for as many blocks as it
/// holds).
struct TunedConfig : course::Variant<course::Fp32> {
  int tile_m = 0, tile_n = 0, tile_k = 0;
  int rows_per_thread = 0;
};

/// The configurations tuned_tiled_sgemm chooses from, in the order choose_launch sees them. Each
/// one's launcher (`run`) launches it without planning or padding.
const std::vector<TunedConfig>& tuned_configs();

/// A kernel of this lesson, as a variant (common/variants.hpp): `kernel` is the `__global__`
/// function, launched with `threads` threads per block by `run`.
using LessonKernel = course::Variant<course::Fp32>;

/// Lesson 05's tiled_sgemm<16> and tiled_sgemm<32> (lesson05::tiled_sgemm_kernel) and each tuned
/// configuration (in tuned_configs() order), with the block sizes their launchers use.
std::vector<LessonKernel> lesson_kernels();

/// Sets the tuned kernels' attributes on the current device (see TunedPlan), once per device;
/// plan_tuned_sgemm and the launchers do it themselves. Uses query_sm_limits, kernel_usage and
/// occupancy.
void prepare_tuned_kernels();

/// What tuned_tiled_sgemm decides for an M x N output on the current device.
///
/// Before the first launch on a device, each tuned kernel gets two attributes: its shared-memory
/// carve-out is set to the smallest configuration that still holds the blocks per SM the
/// calculator allows (the rest of the SM's L1/shared block stays L1 cache), and its dynamic
/// shared-memory limit is raised to the per-block maximum (so tuned_config_sgemm can pad).
struct TunedPlan {
  SmLimits sm;                              ///< query_sm_limits of the current device
  int sm_count = 0;                         ///< its SMs
  std::vector<LaunchCandidate> candidates;  ///< one per tuned_configs(), with the real usage
  int chosen = -1;                          ///< choose_launch's pick
};

/// The plan for M x N on the current device (M, N >= 1).
TunedPlan plan_tuned_sgemm(int M, int N);

/// Runs tuned configuration `index` (no planning), with `padding_smem_bytes` of dynamic shared
/// memory that the kernel never touches: it only lowers the blocks per SM, so the same kernel
/// can be timed at several occupancies. Validates like tuned_tiled_sgemm; throws
/// std::invalid_argument for an index out of range.
void tuned_config_sgemm(int index, std::size_t padding_smem_bytes, int M, int N, int K, float alpha,
                        const float* A, const float* B, float beta, float* C);

/// **The headline.** A tiled SGEMM whose launch configuration is chosen with the occupancy
/// calculator: plan_tuned_sgemm(M, N), then tuned_config_sgemm(chosen, 0, ...).
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error;
///         the grid's y covers the M rows in blocks of the chosen tile_m)
/// \throws course::CudaError when the launch fails
void tuned_tiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                       float* C);

/// cudaOccupancyMaxActiveBlocksPerMultiprocessor for `kernel`: the CUDA runtime's answer, which
/// the calculator must reproduce.
int api_blocks_per_sm(const void* kernel, int threads_per_block, std::size_t dynamic_smem_bytes);

/// One grid of the wave-quantization demo and how long it took.
struct WaveStep {
  long long grid_blocks = 0;
  Waves waves;
  double ms = 0;  ///< median time of the launch
};

/// The wave-quantization demo: a kernel whose every block does the same fixed work (it spins for
/// `spin_us` microseconds at the SM's clock), launched with `threads_per_block` threads per
/// block on each of `grids`; `blocks_per_sm` is what the calculator says for it. With every block
/// taking the same time, a launch takes (number of waves) x (one block's time): the time is a
/// staircase in the grid size.
std::vector<WaveStep> measure_wave_quantization(const std::vector<long long>& grids,
                                                int threads_per_block, int blocks_per_sm,
                                                double spin_us, int reps, int warmup);

/// The spin kernel of the demo, for the occupancy APIs.
const void* spin_kernel();

}  // namespace lesson06
