/// \file swizzled_sgemm.hpp
/// \brief Lesson 09, the contract of the kernels: the last FP32 SGEMM of the course, warp-tiled
/// with 8 x 8 (or larger) register tiles, fed by a multi-stage `cp.async` pipeline, its A tile in
/// shared memory laid out plain, padded or swizzled.
///
/// `C = alpha * A * B + beta * C`, row-major (element (row, col) of an R x C matrix is at
/// `row * C + col`), A is M x K, B is K x N, C is M x N, all device pointers. As in BLAS, when
/// beta == 0 the input C is never read (it may hold NaN). Correct for every M, N, K >= 1: partial
/// tiles are zero-filled by `cp.async` itself (a source size of 0 bytes writes zeros), and the
/// kernel copies B and writes C four floats at a time only when N is a multiple of 4 and the
/// pointers are 16-byte aligned (otherwise one float at a time).
///
/// The kernels are given code. What you write for them is the layout of the A tile:
/// padded_index() and swizzled_a_index() in smem_swizzle.hpp, which every launcher below except
/// the plain configurations calls (the launchers check on the host, once per layout, that the
/// layout is a bijection on the tile before anything is launched).
///
/// This header is plain C++ (the graders are compiled by a C++ compiler).
#pragma once

#include "bank_conflicts.hpp"

#include "common/device.hpp"
#include "common/variants.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lesson09 {

/// How the A tile (BK x BM floats per stage, k-major) is laid out in shared memory.
enum class ALayout {
  kPlain,     ///< row k at k * BM: the cp.async stores of a warp hit 4 banks, 8 words each
  kPadded,    ///< row k at k * (BM + 4): padded_index(k, m, BM, 4)
  kSwizzled,  ///< panels of 32 columns with the 128-byte swizzle: swizzled_a_index(k, m, BK)
};

/// "plain", "padded" or "swizzled".
const char* layout_name(ALayout layout);

/// One kind of shared-memory access of the kernel, over one stage (one BK slice of the tiles):
/// every warp-wide instruction of every warp of a block, as byte addresses from the stage's base.
struct SharedAccess {
  std::string what;                  ///< e.g. "A store (cp.async, 4 B)"
  int access_bytes = 4;              ///< 4 or 16
  std::vector<WarpAddresses> warps;  ///< one entry per warp-wide instruction
};

/// One compiled configuration of the kernel, an entry of the lesson's table of variants
/// (common/variants.hpp: its name, kernel, threads per block, dynamic shared memory
/// (`smem_bytes`: stages * (A + B tiles)), `__launch_bounds__` promise, FLOP per byte loaded from
/// global memory (BM BN / (2 (BM + BN))), its step in the chapter's ladder (1 to 6; 0: only in the
/// sweep) and its launcher), and its template parameters.
struct SgemmConfig : course::Variant<course::Fp32> {
  int bm = 0, bn = 0, bk = 0;      ///< the block tile: BM x BN of C, BK along K per stage
  int warps_m = 0, warps_n = 0;    ///< warps of the block along M and N
  int thread_m = 0, thread_n = 0;  ///< each thread's register tile of C
  int stages = 0;                  ///< tiles in flight: 1 = load, wait, compute (no overlap)
  ALayout layout = ALayout::kSwizzled;
  /// Its shared-memory accesses of one stage (see final_kernel_shared_accesses()).
  std::vector<SharedAccess> (*shared_accesses)() = nullptr;
};

/// Every configuration the library is compiled with, in the order of the lesson's ladder.
const std::vector<SgemmConfig>& sgemm_configs();

/// Runs configuration `index` of sgemm_configs().
/// \throws std::invalid_argument for an index out of range or a shape that breaks the
///         preconditions (course::gemm_shape_error; the grid's y covers the M rows in blocks of bm)
/// \throws course::NotImplemented when the configuration's layout calls a stub
/// \throws course::CudaError when the launch fails
void config_sgemm(int index, int M, int N, int K, float alpha, const float* A, const float* B,
                  float beta, float* C);

/// The final configuration with the A tile **padded** (padded_index): the comparison for the
/// swizzle.
void padded_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C);

/// The final configuration with the A tile **swizzled** (swizzled_a_index), at one tile size.
void swizzled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                    float* C);

/// **The headline**, the end of the FP32 ladder: the kernel of steps 5 and 6 with the block tile
/// chosen for the problem: the large tile with its A padded (padded_sgemm's, the faster layout
/// there) when the grid still fills every SM, smaller swizzled tiles when it would not. Same
/// preconditions and exceptions as config_sgemm.
void final_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                 float* C);

/// The index in sgemm_configs() that final_sgemm runs for an M x N problem on a GPU with the limits
/// `device`: the largest of its three tiles whose grid gives (nearly) every SM a block, among the
/// configurations that fit the GPU (course::choose_fitting(), common/fit.hpp). final_sgemm asks
/// with the current GPU's (course::current_device_info()).
/// \throws std::runtime_error when none fits the GPU, with the reasons
int final_config_for(int M, int N, const course::DeviceLimits& device);

/// The index in sgemm_configs() of swizzled_sgemm's configuration (and, with a padded or plain A
/// tile, of padded_sgemm's and its plain twin's).
int final_config_index(ALayout layout);

/// The shared-memory accesses of one stage of swizzled_sgemm's configuration, with its A tile in
/// `layout`: the A stores (cp.async), the A loads (LDS.128), the B stores and the B loads. The
/// addresses come from the same index functions the kernel uses, so a count of bank conflicts over
/// them is what the kernel does per stage.
std::vector<SharedAccess> final_kernel_shared_accesses(ALayout layout);

}  // namespace lesson09
