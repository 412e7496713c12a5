// Lesson 11: the order in which a persistent grid walks the output tiles. Given code, host and
// device.
#pragma once

#include "common/todo.hpp"  // COURSE_HD

namespace lesson11 {

/// The tile a block computes, in units of tiles: row `m` (of block_m rows), column `n`.
struct TileCoord {
  int m = 0, n = 0;
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

}  // namespace lesson11
