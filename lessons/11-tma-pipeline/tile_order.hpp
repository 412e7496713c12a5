// Lesson 11: the order in which a persistent grid walks the output tiles. Given code, host and
// device: the kernels call it for every tile, and the grader checks on the CPU that every order
// visits every tile of a grid exactly once.
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

/// Tile number `t` along a Hilbert curve over the grid. The curve is drawn over the smallest
/// power-of-two square that holds the grid, and the cells outside the grid are skipped: any grid
/// works, square or not. Consecutive tiles are neighbours (except where the curve leaves the grid
/// and comes back), and any run of tiles covers a compact patch of the grid, about as many tile
/// rows as tile columns: the tiles in flight at once read few distinct rows of A and columns of B.
///
/// It descends the quadrants of the square from the largest to single cells. The curve visits a
/// square's four quadrants in the order (0,0), (0,1), (1,1), (1,0) of (column, row) halves,
/// drawing the first one transposed and the last one transposed and turned by half a turn. At each
/// level the quadrants before the one holding `t` are skipped whole, counting only their cells
/// inside the grid: log2(side) levels of at most four small steps, no table and no loop over tiles.
//! [hilbert_tile]
COURSE_HD inline TileCoord hilbert_tile(int t, int tiles_m, int tiles_n) {
  int side = 1;
  while (side < tiles_m || side < tiles_n) side *= 2;
  int col = 0, row = 0;             // the current square's corner in the grid (x: column, y: row)
  bool swap = false, turn = false;  // how the current square's curve is drawn
  for (; side > 1; side /= 2) {
    const int half = side / 2;
    for (int q = 0; q < 4; ++q) {
      // The quadrant's position in the curve's own frame: (0,0), (0,1), (1,1), (1,0)...
      int x = (q == 2 || q == 3) ? 1 : 0, y = (q == 1 || q == 2) ? 1 : 0;
      // ...and in the grid, once the square's own drawing is applied.
      if (turn) x = 1 - x, y = 1 - y;
      if (swap) {
        const int tmp = x;
        x = y, y = tmp;
      }
      const int qc = col + x * half, qr = row + y * half;
      const int cols_in = tiles_n - qc < 0 ? 0 : (tiles_n - qc < half ? tiles_n - qc : half);
      const int rows_in = tiles_m - qr < 0 ? 0 : (tiles_m - qr < half ? tiles_m - qr : half);
      const int cells = cols_in * rows_in;  // of this quadrant inside the grid
      if (t < cells) {
        col = qc, row = qr;
        if (q == 0) swap = !swap;                // the first quadrant is drawn transposed
        if (q == 3) swap = !swap, turn = !turn;  // the last transposed and turned
        break;
      }
      t -= cells;
    }
  }
  return TileCoord{row, col};
}
//! [hilbert_tile]

/// The orders a persistent kernel can walk its tiles in, chosen at run time (GemmParams::order):
/// every kernel instantiation runs every order.
enum class TileOrder : int {
  kGrouped = 0,  ///< bands of GemmParams::group tile rows (grouped_tile)
  kHilbert = 1,  ///< a Hilbert curve (hilbert_tile)
};

/// How a launcher asks a persistent kernel to walk its tiles.
struct TileSchedule {
  TileOrder order = TileOrder::kGrouped;
  int group = 8;  ///< tile rows per band, for TileOrder::kGrouped
  /// 0: whole tiles only. n > 0: split the last wave's tiles along K (stream-K, stream_k.hpp) when
  /// that shortens the busiest block by at least n k-blocks (kStreamKTail, kStreamKAlways).
  int stream_k = 0;
  /// With stream-K: the last full wave is split along with the partial one (stream_k_plan).
  bool stream_k_full_wave = true;
  /// A persistent grid (as many blocks as are resident at once), or one block per tile.
  bool persistent = true;
};

/// Tile number `t` of the grid in the order `order` (bands of `group` tile rows for kGrouped).
COURSE_HD inline TileCoord tile_at(int t, int tiles_m, int tiles_n, TileOrder order, int group) {
  if (order == TileOrder::kHilbert) return hilbert_tile(t, tiles_m, tiles_n);
  return grouped_tile(t, tiles_m, tiles_n, group);
}

}  // namespace lesson11
