// Lesson 11: the tile source of the ladder, which tells each block which output tiles it computes,
// in which order, and the tile the headline chooses for a shape. Given code, host and device: the
// kernels ask it for every tile, the launcher for the grid, and the grader checks on the CPU that
// the order visits every tile of a grid exactly once.
#pragma once

#include "common/todo.hpp"  // COURSE_HD

namespace lesson11 {

/// The tile a block computes, in units of tiles: row `m` (of block_m rows), column `n`.
struct TileCoord {
  int m = 0, n = 0;
};

/// One piece of a block's work: k-blocks k_begin .. k_end - 1 of tile number `tile` (in the order
/// the source walks); tile < 0: the block has no more work.
struct WorkUnit {
  int tile = -1;
  int k_begin = 0, k_end = 0;
};

/// Tile number `t` of a `tiles_m` x `tiles_n` grid of output tiles, walked in bands of `group`
/// tile rows: down a band's column, then the next column, then the next band. The tiles that
/// run at the same time then share a few rows of A and a few columns of B, which stay in L2,
/// instead of sweeping one whole row of tiles across all of B.
//! [grouped_tile]
COURSE_HD inline TileCoord grouped_tile(int t, int tiles_m, int tiles_n, int group) {
  const int band_tiles = group * tiles_n;
  const int band = t / band_tiles;
  const int first_m = band * group;
  const int rows = (tiles_m - first_m) < group ? (tiles_m - first_m) : group;  // the last band
  const int in_band = t - band * band_tiles;
  return TileCoord{first_m + in_band % rows, in_band / rows};
}
//! [grouped_tile]

/// How a launcher asks for its tiles: a persistent grid (as many blocks as are resident at once)
/// or one block per tile, walking bands of `group` tile rows.
struct TileSchedule {
  int group = 8;
  bool persistent = true;
};

//! [whole_tiles]
/// The ladder's tile source: every tile computed whole by one block. Block b of a grid of `grid`
/// blocks takes tiles b, b + grid, b + 2 grid, ... of the grouped order: one block per tile when
/// the grid has a block per tile, else a persistent grid in which each block walks many.
struct WholeTiles {
  struct Params {
    int tiles_m = 0, tiles_n = 0, tiles = 0;  ///< the grid of output tiles
    int group = 8;                            ///< tile rows per band
    int grid = 0;                             ///< blocks launched
    int k_blocks = 0;                         ///< k-blocks of one tile
  };

  /// The plan for a `tiles_m` x `tiles_n` grid of tiles of `k_blocks` k-blocks each on at most
  /// `blocks` blocks.
  static Params plan(int tiles_m, int tiles_n, int k_blocks, int blocks, int group) {
    Params p;
    p.tiles_m = tiles_m, p.tiles_n = tiles_n, p.tiles = tiles_m * tiles_n;
    p.group = group;
    p.grid = p.tiles < blocks ? p.tiles : blocks;
    p.k_blocks = k_blocks;
    return p;
  }

  /// Unit `u` (0, 1, 2, ...) of block `b`: its u-th tile, whole. The producer and the consumers of
  /// a block walk the same units, and so count the same ring iterations.
  COURSE_HD static WorkUnit unit(const Params& p, int b, int u) {
    const int t = b + u * p.grid;
    return t < p.tiles ? WorkUnit{t, 0, p.k_blocks} : WorkUnit{};
  }

  /// Where tile number `t` lies in C.
  COURSE_HD static TileCoord tile(const Params& p, int t) {
    return grouped_tile(t, p.tiles_m, p.tiles_n, p.group);
  }

  /// A whole tile's sums are complete after its K loop: nothing to join, the epilogue stores it.
  template <class Mainloop, class... Any>
  COURSE_HD static bool fix_up(Any&&...) {
    return true;
  }
};
//! [whole_tiles]

//! [tile_for_shape]
/// The tiles the headline runs: 128 x 256 (two consumer warpgroups) or 192 x 160 (three).
enum class HeadlineTile { k128x256, k192x160 };

/// Which tile hopper_gemm() runs an M x N problem with on a persistent grid of `sms` blocks. A wave
/// of tiles costs one tile's tensor work whether or not every SM has a tile, and a tile at C's
/// edge costs as much as a whole one; so the work the SMs do is waves x the tile's area, padding
/// and the last wave's idle SMs included. 192 x 160 is taken only where that saves at least 2%:
/// at 4000^3 on 132 SMs it is 525 tiles in 4 waves against 512 tiles (4.6% of them padding) in 4,
/// 6% less; at 4096^3, 8192^3 and 16384^3 it loses a wave or more to 128 x 256.
inline HeadlineTile headline_tile_for(int M, int N, int sms) {
  auto cost = [&](long bm, long bn) {
    const long tiles = ((M + bm - 1) / bm) * ((N + bn - 1) / bn);
    return (tiles + sms - 1) / sms * bm * bn;
  };
  return 100 * cost(192, 160) <= 98 * cost(128, 256) ? HeadlineTile::k192x160
                                                     : HeadlineTile::k128x256;
}
//! [tile_for_shape]

}  // namespace lesson11
