// Lesson 11's lab: stream-K, the schedule that splits the last wave's tiles along K so that every
// persistent block has the same amount of work. Host and device: the lab's kernels ask it for each
// block's work, its launcher for the grid, and the lab's test checks on the CPU that every k-block
// of every tile is computed exactly once, that the blocks' shares are even and that no tile is cut
// into more than three pieces.
//
// Why: a persistent grid of 132 blocks walking 512 whole tiles (4096^3 in 128 x 256 tiles) runs
// 3.88 waves; in the fourth, 116 blocks work and 16 wait for them, 3% of the run. Splitting the
// last wave's 116 tiles x 64 k-blocks evenly over all 132 blocks gives each 56 or 57 k-blocks
// instead of 64 for some and 0 for others (with the third wave split along, 120 or 121 after two
// whole tiles). A tile computed by several blocks costs its pieces a round trip through global
// memory: the pieces that do not start the tile store their FP32 sums (128 KiB for a 128 x 256
// tile) and the piece that starts it adds them before its epilogue.
#pragma once

#include "../tile_source.hpp"  // WorkUnit

#include "common/todo.hpp"  // COURSE_HD

namespace lesson11::lab {

//! [stream_k_plan]
/// How a persistent grid of `grid` blocks (or clusters) shares out `tiles` output tiles of
/// `k_blocks` k-blocks each. Tiles 0 .. dp_tiles - 1 are computed whole, round robin (tile t by
/// block t % grid). The k-blocks of the other tiles, `sk_iters` of them numbered tile by tile,
/// are cut into `grid` contiguous ranges whose lengths differ by at most one: block b computes
/// k-blocks stream_k_begin(b) .. stream_k_begin(b + 1) - 1, after its whole tiles.
struct StreamKPlan {
  int grid = 0;            ///< blocks (clusters) of the persistent grid
  int tiles = 0;           ///< output tiles (cluster tiles)
  int k_blocks = 0;        ///< k-blocks of one tile
  int dp_tiles = 0;        ///< tiles computed whole; with stream-K a multiple of grid
  long long sk_iters = 0;  ///< k-blocks of the split tiles; 0: whole tiles only
};
//! [stream_k_plan]

/// The most pieces a tile is cut into: the plan keeps every block's range at least half a tile
/// long (at least a whole tile, and two pieces, when a full wave is split along). The finisher's
/// loop over the other pieces is unrolled to this bound (a loop with a barrier inside and a
/// run-time trip count costs the K loop its uniform registers).
constexpr int kMaxPieces = 3;

/// Schedule::stream_k for the headline's kernel: split the last wave when that shortens the busiest
/// block by at least 4 k-blocks. A split tile costs its pieces about that much: the pieces that do
/// not start it store 128 KiB of FP32 sums, the one that starts it reads them back.
constexpr int kStreamKTail = 4;
/// Split the last wave whenever that shortens the busiest block at all (a variant, for measuring
/// where the split stops paying).
constexpr int kStreamKAlways = 1;

/// Whole tiles only: min(tiles, blocks) blocks, round robin.
COURSE_HD inline StreamKPlan whole_tiles_plan(int tiles, int k_blocks, int blocks) {
  StreamKPlan p;
  p.grid = tiles < blocks ? tiles : blocks;
  p.tiles = tiles;
  p.k_blocks = k_blocks;
  p.dp_tiles = tiles;
  return p;
}

//! [stream_k_choice]
/// The schedule for `tiles` tiles of `k_blocks` k-blocks on at most `blocks` blocks that are all
/// resident at once. Full waves of whole tiles stay whole; the last, partial, wave's tiles are
/// split, and their k-blocks shared evenly by every block. With `full_wave` (the default), the last
/// full wave's tiles are split too: every block's range is then at least a tile long, so a tile has
/// at most two pieces, and the piece that is not the tile's start is always its block's *first*
/// split unit, stored early, long before the finisher (its block's last unit) needs it. With the
/// partial wave alone, a range can lie inside one tile (at 4096^3, 56 k-blocks of a 64-k-block
/// tile): that tile has three pieces, and its finisher waits at the very end for the middle block
/// to store its sums, then reads two tiles of sums instead of one. Either way about one split tile
/// per block, and the same shares.
///  - Fewer tiles than blocks: all of them, on at most two blocks per tile (at most three pieces).
///  - Without `full_wave`, a partial wave of fewer than half the blocks still takes a full wave
///    along, to keep a tile to three pieces.
/// Whole tiles only when the split would not shorten the busiest block by `min_gain` k-blocks
/// (K = 8: one k-block per tile, nothing to split) or when every wave is full.
COURSE_HD inline StreamKPlan stream_k_plan(int tiles, int k_blocks, int blocks, int min_gain,
                                           bool full_wave = true) {
  const StreamKPlan whole = whole_tiles_plan(tiles, k_blocks, blocks);
  if (min_gain < 1 || tiles < 1 || blocks < 1 || k_blocks < 2) return whole;
  const int waves = tiles / blocks, tail = tiles % blocks;
  if (tail == 0) return whole;
  StreamKPlan p = whole;
  int split = tail;
  if (waves == 0) {
    p.grid = blocks < 2 * tiles ? blocks : 2 * tiles;
  } else if (full_wave || 2 * tail < blocks) {
    split = tail + blocks;
  }
  p.dp_tiles = tiles - split;
  p.sk_iters = static_cast<long long>(split) * k_blocks;
  const long long busiest_whole = static_cast<long long>((tiles + blocks - 1) / blocks) * k_blocks;
  const long long busiest =
      static_cast<long long>(p.dp_tiles / p.grid) * k_blocks + (p.sk_iters + p.grid - 1) / p.grid;
  return busiest_whole - busiest >= min_gain ? p : whole;
}
//! [stream_k_choice]

/// The first split k-block of block b's range (b = grid: the end of the last range).
COURSE_HD inline long long stream_k_begin(const StreamKPlan& p, int b) {
  return p.sk_iters * b / p.grid;
}

/// The block whose range holds split k-block `iter`: the last b with stream_k_begin(b) <= iter.
COURSE_HD inline int stream_k_owner(const StreamKPlan& p, long long iter) {
  return static_cast<int>(((iter + 1) * p.grid + p.sk_iters - 1) / p.sk_iters - 1);
}

/// The number of whole tiles of the round robin that block b computes.
COURSE_HD inline int whole_tiles_of(const StreamKPlan& p, int b) {
  return b < p.dp_tiles ? (p.dp_tiles - 1 - b) / p.grid + 1 : 0;
}

//! [work_unit]
/// Unit `u` (0, 1, 2, ...) of block `b`'s work: first its whole tiles, b, b + grid, ...; then the
/// pieces of the tiles its range of split k-blocks crosses, in order. Only a block's first piece
/// can start inside a tile, and only its last can end inside one; a tile's piece that starts it
/// (k_begin == 0) is therefore its block's last unit, run when every block is near its end, while
/// the tile's other pieces are the first units of the blocks after it. The producer and the
/// consumers of a block walk the same units, and so count the same ring iterations.
COURSE_HD inline WorkUnit work_unit(const StreamKPlan& p, int b, int u) {
  const int whole = whole_tiles_of(p, b);
  if (u < whole) return WorkUnit{b + u * p.grid, 0, p.k_blocks};
  if (p.sk_iters == 0) return WorkUnit{};
  const long long begin = stream_k_begin(p, b), end = stream_k_begin(p, b + 1);
  const long long s = begin / p.k_blocks + (u - whole);  // counted from the first split tile
  const long long start = s * p.k_blocks;                // its first k-block in the range space
  const long long k_begin = u == whole ? begin - start : 0;
  if (start + k_begin >= end) return WorkUnit{};
  const long long k_end = end - start < p.k_blocks ? end - start : p.k_blocks;
  return WorkUnit{p.dp_tiles + static_cast<int>(s), static_cast<int>(k_begin),
                  static_cast<int>(k_end)};
}
//! [work_unit]

/// A piece that does not start its tile: it stores its sums for the tile's finisher.
COURSE_HD inline bool hands_over(const WorkUnit& w) {
  return w.k_begin > 0;
}

/// A piece that starts a tile but does not end it: the tile's finisher, which adds the other
/// pieces' sums (of blocks b + 1 .. last_contributor) before the epilogue.
COURSE_HD inline bool finishes_split(const StreamKPlan& p, const WorkUnit& w) {
  return w.k_begin == 0 && w.k_end < p.k_blocks;
}

/// For a split tile: the last block whose range holds some of its k-blocks. Its pieces come from
/// the blocks after the finisher's, up to this one.
COURSE_HD inline int last_contributor(const StreamKPlan& p, int tile) {
  return stream_k_owner(p, static_cast<long long>(tile - p.dp_tiles + 1) * p.k_blocks - 1);
}

}  // namespace lesson11::lab
