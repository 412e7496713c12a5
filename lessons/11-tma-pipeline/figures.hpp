/// \file figures.hpp
/// \brief Lesson 11's figures: the orders a persistent grid walks its tiles in (tile_source.hpp;
/// the Hilbert curve of lab/tile_orders.hpp), which block takes which tile (tile_source.hpp's
/// WholeTiles), the ring stepped k-block by k-block (ring_model.hpp driven by your producer_slot,
/// consumer_slot and empty_barrier_arrivals), and the 128-byte swizzle of a staged tile
/// (staging_offset).
#pragma once

#include "lessons/11-tma-pipeline/ring_model.hpp"
#include "lessons/11-tma-pipeline/lab/tile_orders.hpp"
#include "lessons/11-tma-pipeline/tile_source.hpp"

#include "common/svg.hpp"

#include <string>
#include <vector>

namespace lesson11 {

/// The grid the figures assume: the headline's 128 x 256 tiles on 132 SMs (H100 SXM, H200).
constexpr int kFigureSms = 132;
constexpr int kFigureBlockM = 128, kFigureBlockN = 256;

/// An order the tile figures show: rows (bands of one tile row), bands of `group`, or Hilbert.
struct FigureOrder {
  TileOrder order = TileOrder::kGrouped;
  int group = 1;
};

/// The output tiles of a size^3 GEMM in 128 x 256 tiles, walked in `order`; wave `wave` (1, 2,
/// ...) of kFigureSms tiles highlighted, with the tile rows of A and the tile columns of B it
/// reads. Tagged for tests: every tile cell is class "tile" with the tooltip "t=T m=M n=N" (its
/// number in the order and its place); each tile row of A the wave reads is class "a-row", each
/// tile column of B "b-col".
course::svg::Scene tile_order_scene(int size, FigureOrder order, int wave);

/// The persistent grid of kFigureSms blocks at 4096^3 (whole tiles, WholeTiles::unit()), walking
/// the tiles in `order`: each tile labelled with the block that takes it, wave `wave` (1, 2, ...)
/// highlighted, and the blocks' current tiles below. Tagged for tests: each tile cell is class
/// "tile" with the tooltip "t=T m=M n=N block=B unit=U"; each block of the wave is class "sm"
/// (busy) or "sm-idle".
course::svg::Scene persistent_scene(FigureOrder order, int wave);

/// The k-blocks the ring figures play.
constexpr int kRingFigureBlocks = 12;
/// The consumer warps of the ring figures: two consumer warpgroups.
constexpr int kRingFigureWarps = 8;

/// The ring played by the model with the producer running ahead as far as the protocol lets it
/// (it tries first at every step; the consumers go when it cannot): every move, and what went
/// wrong ("" when all kRingFigureBlocks k-blocks went through).
struct RingTrace {
  std::vector<RingMove> moves;
  std::string error;
};
RingTrace ring_trace(const RingProtocol& ring, int stages);

/// The ring of `stages` stages after `step` moves of ring_trace() with the protocol of your
/// library (ring_protocol(), your_ring.hpp): each stage's k-block, its full and empty
/// barriers' phases, who moved and what the protocol said. Tagged for tests: the move is class
/// "move producer|consumers it=I stage=S parity=P"; each stage's barriers "barriers stage=S
/// full=F empty=E" (their phases); each k-block's column of the table "slot it=I stage=S full=P
/// empty=Q" (the protocol's stage and parities).
course::svg::Scene ring_scene(int stages, int step);

/// The whole trace of a ring of `stages` stages over time: one column a move, the producer's loads
/// and the consumers' releases, and which k-block each stage holds. Tagged for tests: each load is
/// class "load it=I stage=S parity=P", each release "release it=I stage=S parity=P".
course::svg::Scene ring_timeline_scene(int stages);

/// One 1024-byte atom of a staging box (8 rows of 128 bytes, 8 chunks of 16 bytes each) as the
/// tile sees it and as staging_offset() lays it out in shared memory, with the chunks k-step
/// `kstep` (0 to 3) of wgmma reads outlined. Tagged for tests: each chunk in shared memory is class
/// "mem" with the tooltip "r=R c=C" (its row and its chunk in the tile); the outlined ones there
/// are class "read".
course::svg::Scene swizzle_scene(int kstep);

}  // namespace lesson11
