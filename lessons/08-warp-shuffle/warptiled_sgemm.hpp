/// \file warptiled_sgemm.hpp
/// \brief Lesson 08, the contract of the warp-tiled SGEMM: a block tile split into warp tiles,
/// each warp tile covered by the lanes' thread tiles, so the hierarchy of the work matches the
/// hierarchy of the hardware (block <-> SM, warp <-> warp scheduler, thread <-> registers).
///
/// `C = alpha * A * B + beta * C`, row-major (element (row, col) of an R x C matrix is at
/// `row * C + col`), A is M x K, B is K x N, C is M x N, all device pointers, any M, N, K >= 1. As
/// in BLAS, when beta == 0 the input C is never read (it may hold NaN). Each launcher returns
/// without waiting for the kernel.
///
/// The learner writes the regions marked "BEGIN EXERCISE" in
/// `exercises/08-warp-shuffle/warptiled_parts.cuh` (thread_place, the warp's multiply of a staged
/// tile, the launch configuration); the reference is
/// `solutions/08-warp-shuffle/warptiled_parts.cuh`. The kernel that calls them and the launchers
/// declared here are given (`lessons/08-warp-shuffle/calls-yours/warptiled_kernel.cuh`).
///
/// This header is plain C++ (the graders are compiled by a C++ compiler).
#pragma once

#include "common/device.hpp"
#include "common/todo.hpp"
#include "common/variants.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace lesson08 {

/// The three levels of a warp tiling, in elements of C (and steps along K).
///
/// - **Block tile** bm x bn: one block computes it, walking K in steps of bk; at each step the
///   block stages a bm x bk tile of A (transposed) and a bk x bn tile of B in shared memory.
/// - **Warp tile** wm x wn: the block tile is split into (bm / wm) x (bn / wn) of them, one per
///   warp. A warp covers its tile in wm_iter x wn_iter steps of a **sub-tile** of
///   sub_m() x sub_n() = (wm / wm_iter) x (wn / wn_iter) elements.
/// - **Thread tile** tm x tn: the 32 lanes of a warp cover a sub-tile as lane_rows() x lane_cols()
///   thread tiles of tm x tn, so each thread computes wm_iter * tm x wn_iter * tn results in all.
struct WarpTileShape {
  int bm = 0, bn = 0, bk = 0;    ///< the block tile, and its step along K
  int wm = 0, wn = 0;            ///< the warp tile
  int wm_iter = 0, wn_iter = 0;  ///< sub-tile steps of a warp, down and across
  int tm = 0, tn = 0;            ///< the thread tile in one sub-tile step

  constexpr int warps() const { return (bm / wm) * (bn / wn); }          ///< warps per block
  constexpr int threads() const { return 32 * warps(); }                 ///< threads per block
  constexpr int warp_cols() const { return bn / wn; }                    ///< warp tiles across
  constexpr int sub_m() const { return wm / wm_iter; }                   ///< sub-tile rows
  constexpr int sub_n() const { return wn / wn_iter; }                   ///< sub-tile columns
  constexpr int lane_rows() const { return sub_m() / tm; }               ///< thread tiles down
  constexpr int lane_cols() const { return sub_n() / tn; }               ///< thread tiles across
  constexpr int results() const { return wm_iter * tm * wn_iter * tn; }  ///< results per thread
  /// Floats of shared memory per block: two buffers (double buffering) of a bk x bm tile of A
  /// and a bk x bn tile of B.
  constexpr int smem_floats() const { return 2 * bk * (bm + bn); }
  /// FLOP per byte loaded from global memory, by design: each step loads (bm + bn) * bk floats
  /// for bm * bn * bk FMAs, so bm * bn / (2 * (bm + bn)). 128 x 128: 32 FLOP/byte.
  constexpr double intensity() const { return static_cast<double>(bm) * bn / (2.0 * (bm + bn)); }
};

/// What is wrong with a shape, or "" when it is a valid warp tiling: every division exact, 32
/// lanes per sub-tile, float4 steps (bk, tm and tn multiples of 4), a whole number of float4
/// loads of each tile per thread, and at most 1024 threads.
inline std::string warp_tile_shape_error(const WarpTileShape& s) {
  if (s.bm <= 0 || s.bn <= 0 || s.bk <= 0 || s.wm <= 0 || s.wn <= 0 || s.wm_iter <= 0 ||
      s.wn_iter <= 0 || s.tm <= 0 || s.tn <= 0)
    return "every size must be positive";
  if (s.bm % s.wm != 0 || s.bn % s.wn != 0) return "the warp tiles must divide the block tile";
  if (s.wm % s.wm_iter != 0 || s.wn % s.wn_iter != 0)
    return "the sub-tile steps must divide the warp tile";
  if (s.sub_m() % s.tm != 0 || s.sub_n() % s.tn != 0)
    return "the thread tiles must divide the sub-tile";
  if (s.lane_rows() * s.lane_cols() != 32) return "a sub-tile must hold exactly 32 thread tiles";
  if (s.bk % 4 != 0 || s.tm % 4 != 0 || s.tn % 4 != 0)
    return "bk, tm and tn must be multiples of 4 (float4 steps)";
  if (s.threads() > 1024) return "more than 1024 threads per block";
  if ((s.bm * s.bk / 4) % s.threads() != 0 || (s.bk * s.bn / 4) % s.threads() != 0)
    return "every thread must load the same number of float4s of each tile";
  return "";
}

/// Where one thread works inside the block tile.
struct ThreadPlace {
  int warp_row = 0,
      warp_col = 0;  ///< its warp's tile: rows warp_row * wm .., columns warp_col * wn ..
  int lane_row = 0, lane_col = 0;  ///< its thread tile in every sub-tile: rows lane_row * tm ..,
                                   ///< columns lane_col * tn ..
};

/// **Exercise (task 4)**, in warptiled_parts.cuh: `thread_place(s, tid)`, the place of thread
/// `tid` (0 .. threads() - 1) of a block:
/// - its warp is `tid / 32` and its lane `tid % 32`;
/// - the warps are laid out row by row over the block tile, warp_cols() per row of warp tiles:
///   warp w has warp_row = w / warp_cols(), warp_col = w % warp_cols();
/// - the lanes are laid out row by row over the sub-tile, lane_cols() per row: lane l has
///   lane_row = l / lane_cols(), lane_col = l % lane_cols(). Consecutive lanes take consecutive
///   thread tiles along a row, so a warp's reads of a row of B are consecutive in memory.
/// `__host__ __device__`: the kernel calls it on the GPU, the grader on the CPU.
/// Example: bm = bn = 128, wm = 32, wn = 64, 2 x 2 sub-tile steps, 4 x 4 thread tiles (2 warp
/// tiles across, 8 lanes across): thread 77 is warp 2, lane 13, at warp (1, 0), lane (1, 5).

/// Given: the row, within the block tile, of the thread's result row `i` (0 .. wm_iter * tm - 1):
/// sub-tile step i / tm, row i % tm of the thread tile in it.
COURSE_HD inline int result_row(const WarpTileShape& s, const ThreadPlace& p, int i) {
  return p.warp_row * s.wm + (i / s.tm) * s.sub_m() + p.lane_row * s.tm + i % s.tm;
}
/// Given: the column, within the block tile, of the thread's result column `j`
/// (0 .. wn_iter * tn - 1).
COURSE_HD inline int result_col(const WarpTileShape& s, const ThreadPlace& p, int j) {
  return p.warp_col * s.wn + (j / s.tn) * s.sub_n() + p.lane_col * s.tn + j % s.tn;
}

/// Given: whether `p` is 16-byte aligned, as a float4 load or store needs it.
inline bool is_aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

/// The warp-tiled SGEMM with a compile-time tiling (given; its kernel calls your
/// warp_tile_multiply, task 5, and it launches as your warptiled_launch says, task 6):
/// `WarpTileShape{BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN}` (see there), with
/// `__launch_bounds__(threads, MIN_BLOCKS)`: the compiler keeps the registers per thread low enough
/// for MIN_BLOCKS blocks per SM (65536 / (threads * MIN_BLOCKS), rounded down to a multiple of 8).
///
/// One block per BM x BN tile of C, a grid of ceil(N / BN) x ceil(M / BM) blocks of
/// threads() threads. Two paths, chosen per launch: when K and N are multiples of 4 and A, B, C
/// are 16-byte aligned, every global access is a float4; otherwise the same kernel loads and
/// stores one float at a time. Both are correct for any M, N, K >= 1: parts of a tile outside A or
/// B load as zeros, and only results inside C are written.
///
/// Instantiated for the lesson's configurations, which warptiled_configs() lists.
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error)
/// \throws course::CudaError when the launch fails
template <int BM, int BN, int BK, int WM, int WN, int WM_ITER, int WN_ITER, int TM, int TN,
          int MIN_BLOCKS>
void warptiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                     float* C);

//! [configs]
/// The lesson's configurations: the one list of them, which the table (warptiled_configs()) and
/// the build (the record's configs table: a file a line) both expand. One line a configuration:
/// X(tag, BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN, MIN_BLOCKS). The tag `quick` marks what
/// the lesson's tests need on any GPU, the two configurations tuned_warptiled_sgemm chooses from: a
/// save grades with those alone (make grade-8, make watch), and with every line once that passes on
/// a GPU (and in make grade, make test).
#define LESSON08_CONFIGS(X)                                                                  \
  /* [0] the H100 choice for large problems: 128 x 256 block tiles, 8 warps of 64 x 64, each \
     lane 16 x 8 results as 4 x 2 steps of 4 x 4; one block (8 warps) per SM. */             \
  X(quick, 128, 256, 8, 64, 64, 4, 2, 4, 4, 1)                                               \
  /* [1] the fallback for small problems: 64 x 64 tiles, 4 warps, 8 x 4 results per lane. */ \
  X(quick, 64, 64, 8, 32, 32, 2, 1, 4, 4, 4)                                                 \
  /* The alternatives the chapter's tuning table compares. */                                \
  X(full, 128, 128, 8, 32, 64, 2, 2, 4, 4, 2)                                                \
  X(full, 64, 128, 8, 32, 64, 2, 2, 4, 4, 4)                                                 \
  X(full, 256, 128, 8, 64, 64, 2, 4, 4, 4, 1)                                                \
  X(full, 128, 256, 16, 64, 64, 4, 2, 4, 4, 1)                                               \
  X(full, 128, 128, 16, 64, 64, 1, 4, 8, 4, 2)
//! [configs]

/// The tiling of each configuration of LESSON08_CONFIGS, compiled or not (plain data).
inline std::vector<WarpTileShape> warptiled_shapes() {
#define LESSON08_SHAPE(tag, BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN, MIN_BLOCKS) \
  WarpTileShape{BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN},
  return {LESSON08_CONFIGS(LESSON08_SHAPE)};
#undef LESSON08_SHAPE
}

/// One compiled configuration of warptiled_sgemm, an entry of the lesson's table of variants
/// (common/variants.hpp): its name, its launcher (`run`, warptiled_sgemm<...>), the `__global__`
/// function of the float4 path (`kernel`, what a large aligned problem runs: for lesson 06's
/// kernel_usage and the occupancy APIs), its threads per block, its MIN_BLOCKS (`min_blocks`) and
/// its FLOP per byte; and its tiling.
struct WarpTiledConfig : course::Variant<course::Fp32> {
  WarpTileShape shape;  ///< its tiling
};

/// Every configuration this library compiles, in the order of LESSON08_CONFIGS. `[0]` is the one
/// tuned for the H100 at large sizes (the headline's usual choice), `[1]` the one
/// tuned_warptiled_sgemm falls back to when a grid of `[0]`'s tiles would leave SMs idle; the
/// others are the alternatives the chapter compares. A save's grader compiles the quick lines
/// only: then these two are all.
const std::vector<WarpTiledConfig>& warptiled_configs();

/// The index in warptiled_configs() that tuned_warptiled_sgemm runs for an M x N output on a GPU
/// with the limits `device`: 0 when a grid of config 0's tiles has blocks for at least 90% of the
/// SMs, else 1 (smaller tiles, more blocks); only a configuration that fits the GPU
/// (course::choose_fitting(), common/fit.hpp): 1 when 0 does not. Plain host arithmetic. Example,
/// on the H100's 132 SMs with config 0's 128 x 256 tiles: 4096 x 4096 is 512 blocks -> 0;
/// 2048 x 2048 is 128 blocks (97%) -> 0; 1024 x 1024 is 32 blocks (24%) -> 1.
/// \throws std::runtime_error when neither fits the GPU, with the reasons
int choose_warptiled_config(int M, int N, const course::DeviceLimits& device);

/// **The headline.** The warp-tiled SGEMM with the configuration chosen by
/// choose_warptiled_config() for the current device (course::current_device_info()).
/// \throws std::invalid_argument when the shape breaks the preconditions (course::gemm_shape_error)
/// \throws course::CudaError when the launch fails
void tuned_warptiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                           float beta, float* C);

}  // namespace lesson08
