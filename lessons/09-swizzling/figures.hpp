/// \file figures.hpp
/// \brief Lesson 09's figures: one warp's access of the final kernel's A tile, bank by bank and
/// wavefront by wavefront, counted by your bank_conflicts(); and the XOR swizzle of a tile, drawn
/// from your Swizzle<B, M, S>.
#pragma once

#include "lessons/09-swizzling/bank_conflicts.hpp"
#include "lessons/09-swizzling/smem_swizzle.hpp"
#include "lessons/09-swizzling/swizzled_sgemm.hpp"

#include "common/svg.hpp"

namespace lesson09 {

/// The floats of padding after each row of the padded A tile (the kernel's kPad).
constexpr int kFigurePad = 4;
/// The final kernel's A tile per stage: BK = 8 rows k of BM = 128 floats.
constexpr int kFigureBm = 128, kFigureBk = 8;

/// The byte addresses of one warp walking down a column of the final kernel's A tile in `layout`,
/// `access_bytes` (4, 8 or 16) per lane: lane t takes A(k = t % 8, m = (access_bytes / 4) (t / 8)
/// ..), eight lanes a column of eight rows k. At 4 bytes this is the kernel's first cp.async copy
/// of A (warp 0); at 16 bytes each quarter-warp reads a float4 column. The addresses come from
/// padded_index and swizzled_a_index (yours, in the exercise's library).
WarpAddresses column_access(ALayout layout, int access_bytes);

/// That access on the 32 banks: a block per phase (the warp, half-warps or quarter-warps), a row
/// per wavefront, each word of a lane in its bank's column. Tagged for tests: every wavefront row
/// drawn is class "wavefront", every one beyond the first of its phase also "extra", every word
/// "word"; the headline's counts are bank_conflicts() and shared_wavefronts().
course::svg::Scene banks_scene(ALayout layout, int access_bytes);

/// Swizzle<B, 4, 3> on one period of the mode of `mode_bytes` (128, 64 or 32: B = 3, 2, 1): eight
/// rows of mode_bytes, in 16-byte chunks, as written (left) and where the swizzle stores each chunk
/// (right); chunk `follow` (modulo the chunks of a row) of every row outlined, with the banks it
/// lands in. Tagged for tests: the stored cell of chunk c of row r, at row r2 and chunk s, is class
/// "swz r c r2 s"; a place several chunks claim is "clash", one none claims "hole".
course::svg::Scene xor_swizzle_scene(int mode_bytes, int follow);

/// The byte offset Swizzle<B, 4, 3> gives `offset` for the mode of `mode_bytes` (128, 64, 32).
std::uint32_t swizzle_of_mode(int mode_bytes, std::uint32_t offset);

}  // namespace lesson09
