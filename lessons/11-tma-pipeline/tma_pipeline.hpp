// Lesson 11: the GEMMs of the TMA pipeline, rung by rung, in the course's bf16 layout:
// A M x K, B N x K (K-major), C M x N, all row-major bf16, FP32 accumulation,
// C = alpha * A * B^T + beta * C. Any M, N >= 1; K a multiple of 8 (TMA's row stride is a
// multiple of 16 bytes); A, B, C 16-byte aligned. Rungs 1 to 6 need compute capability 9.0
// (sm_90a: wgmma, setmaxnreg), the portable rung any GPU with TMA (9.0 and newer); a launcher says
// so on another GPU.
#pragma once

#include "tile_source.hpp"

#include "common/device.hpp"
#include "common/gemm.hpp"
#include "common/precision.hpp"
#include "common/variants.hpp"

#include <cstdint>

#include <string>
#include <vector>

namespace lesson11 {

using course::bf16;

/// The signature of every kernel of the lesson: course::GemmFn<course::Bf16>'s, as a plain
/// function.
using Bf16Launcher = course::GemmLauncher<course::Bf16>;

/// One rung of the ladder, or one variant of the lab (lab/lab.hpp): an entry of the lesson's table
/// of variants (common/variants.hpp): its name in tables, what it adds in a few words (`what`), its
/// launcher (`run`), its rung (`step`: 1 to 6; 0 for a variant of the lab) and whether `--sweep`
/// measures it (`swept`: the lab's). Its launcher chooses among compiled configurations (by N % 8,
/// say), so `kernel` is left null.
using Rung = course::Variant<course::Bf16>;

/// The ladder of the chapter, in order: rungs 1 to 6 (wgmma, compute capability 9.0; rung 6,
/// hopper_gemm, the headline), then the portable rung (any GPU with TMA); rungs 1 to 5 are
/// launched through it alone (gemm/rungs.cu). A save's grader has rungs 6 and 7 alone.
const std::vector<Rung>& rungs();

/// The lesson's headline, rung 6: the ring with two wgmma consumers sharing 128 x 256 tiles, in
/// bands of 16 tile rows: the epilogue streamed per warp through two 8 KiB staging boxes per
/// consumer, written with stmatrix, so the ring keeps 4 stages; 192 x 160 tiles where they fit
/// the shape better (headline_tile_for); from registers when N % 8 != 0.
void hopper_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                 bf16* C);
/// The portable rung: the same ring with eight mma.sync consumer warps that read the swizzled
/// tiles with ldmatrix (128 x 128 tiles, 3 stages, 97 KiB of shared memory, the epilogue from
/// registers). It needs TMA alone, so it runs on every GPU of compute capability 9.0 or newer
/// (H100, H200, B200, RTX 50 series), where it is the lesson's headline when wgmma is not there.
void portable_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                   bf16* C);

/// Empty when the GPU `info` describes (probe_device(), current_device_info()) can run the
/// lesson's wgmma rungs (compute capability 9.0), otherwise why not, in one line.
std::string hopper_support_error(const course::DeviceInfo& info);

/// Empty when the GPU `info` describes can run the lesson at all (TMA: compute capability 9.0 or
/// newer, where the portable rung runs), otherwise why not, in one line.
std::string tma_support_error(const course::DeviceInfo& info);

}  // namespace lesson11
