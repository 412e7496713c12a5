/// \file mma_sync_gemm.hpp
/// \brief Lesson 10, the contract of the headline kernel: bf16 GEMM on the tensor cores with
/// `mma.sync.aligned.m16n8k16` through inline PTX, operands loaded from swizzled shared memory
/// with `ldmatrix`, tiles copied in by a multi-stage `cp.async` pipeline, and an epilogue that
/// writes C with 16-byte stores.
///
/// The problem and the preconditions are wmma_gemm.hpp's: A M x K, B N x K, C M x N, bf16,
/// row-major; FP32 accumulation; `C = alpha * A * B^T + beta * C`, C not read when beta == 0;
/// any M, N >= 1; K a multiple of 8; 16-byte aligned pointers. Everything is checked on the host
/// (std::invalid_argument) before anything is launched.
///
/// The kernel is one template with its tile sizes as parameters; each compiled configuration is
/// listed by mma_configs(). What you write for it (exercises/10-tensor-cores/mma_sync_parts.cuh)
/// is the fragment mapping of mma_fragment.hpp and the main loop that feeds the tensor cores; the
/// kernel and its launchers (lessons/10-tensor-cores/calls-yours/mma_sync_kernel.cuh) are given.
///
/// This header is plain C++ (the graders are compiled by a C++ compiler).
#pragma once

#include "lessons/09-swizzling/bank_conflicts.hpp"  // lesson 09: WarpAddresses
#include "lessons/09-swizzling/swizzled_sgemm.hpp"  // lesson 09: SharedAccess

#include "common/device.hpp"
#include "common/gemm.hpp"
#include "common/variants.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lesson10 {

/// One compiled configuration of the mma.sync kernel, an entry of the lesson's table of variants
/// (common/variants.hpp: its name, kernel, threads per block, dynamic shared memory, blocks per SM
/// asked of the compiler, FLOP per byte loaded from global memory (BM BN / (BM + BN)), its step in
/// the chapter's ladder (1 ...; 0: sweep only) and its launcher), and its template parameters.
struct MmaConfig : course::Variant<course::Bf16> {
  int bm = 0, bn = 0, bk = 0;    ///< the block tile: BM x BN of C, BK along K per stage
  int warps_m = 0, warps_n = 0;  ///< warps along M and N; each computes a warp tile of C
  int warp_m = 0, warp_n = 0;    ///< the warp tile: (warp_m / 16) x (warp_n / 8) mma tiles
  int stages = 0;                ///< tiles of A and B in flight
  bool swizzled = false;         ///< shared-memory tiles swizzled (else plain, with conflicts)
  /// Its shared-memory accesses of one stage (see config_shared_accesses()).
  std::vector<lesson09::SharedAccess> (*shared_accesses)() = nullptr;
};

/// Every compiled configuration, the chapter's ladder first.
const std::vector<MmaConfig>& mma_configs();

/// Runs configuration `index` of mma_configs().
/// \throws std::invalid_argument for an index out of range, or a shape or pointers that break the
///         preconditions
/// \throws course::NotImplemented while a fragment mapping is a stub
/// \throws std::logic_error when a fragment mapping is not what the kernel needs (the message
///         names the first element that breaks it)
/// \throws std::runtime_error on a GPU older than compute capability 8.0
void config_gemm(int index, int M, int N, int K, float alpha, const course::bf16* A,
                 const course::bf16* B, float beta, course::bf16* C);

/// **The headline.** The mma.sync kernel with the block tile chosen for the problem and the GPU
/// (mma_config_for()): 128 x 128 x 64 (three stages, four warps of 64 x 64, two blocks an SM) when
/// the grid still gives (nearly) every SM a block, smaller tiles when it would not. Same
/// preconditions and exceptions as config_gemm().
void mma_sync_gemm(int M, int N, int K, float alpha, const course::bf16* A, const course::bf16* B,
                   float beta, course::bf16* C);

/// The index in mma_configs() that mma_sync_gemm() runs for an M x N problem on a GPU with the
/// limits `device`: the largest of its tiles whose grid gives (nearly) every SM a block, among the
/// configurations that fit the GPU and hold the two blocks per SM they were tuned for
/// (course::choose_fitting(), common/fit.hpp). On an SM of less than 194 KiB of shared memory
/// (8.0's 164 KiB, the 100 KiB of 8.6, 8.9 and 12.0) the 128 x 128 tile takes 3 stages of 32 k
/// (48 KiB) instead of 3 of 64 k (96 KiB), which would leave one block an SM. mma_sync_gemm()
/// asks with the current GPU's (course::current_device_info()).
/// \throws std::runtime_error when none fits the GPU (below compute capability 8.0: no bf16
///         tensor cores), with the reasons
int mma_config_for(int M, int N, const course::DeviceLimits& device);

/// The index in mma_configs() of the headline's large tile (the one 4096 x 4096 runs), swizzled or
/// (`swizzled` false) its plain twin.
int headline_config_index(bool swizzled = true);

/// The shared-memory accesses of one stage of configuration `index`, every warp of a block: the
/// `cp.async` stores of A and B, and the `ldmatrix` loads of A and B (each `ldmatrix.x4` is four
/// phases of 8 lanes, one 16-byte row address each, lesson 09's model of a 16-byte access). The
/// addresses come from the same functions the kernel uses (tile_offset() and your fragment
/// mapping), so lesson 09's counter over them is what the kernel does.
/// \throws std::invalid_argument for an index out of range
std::vector<lesson09::SharedAccess> config_shared_accesses(int index);

}  // namespace lesson10
