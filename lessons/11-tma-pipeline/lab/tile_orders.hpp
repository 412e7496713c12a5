// Lesson 11's lab: the other order a persistent grid can walk its tiles in, a Hilbert curve, and
// the run-time choice between it and the ladder's bands (tile_source.hpp). Host and device: the
// lab's kernels call it for every tile, the book's figures draw it, and the lab's test checks on
// the CPU that it visits every tile of many grids exactly once.
#pragma once

#include "../tile_source.hpp"

#include "common/todo.hpp"  // COURSE_HD

namespace lesson11 {

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

/// The orders a persistent kernel can walk its tiles in, chosen at run time (a lab::Schedule):
/// every kernel instantiation runs every order.
enum class TileOrder : int {
  kGrouped = 0,  ///< bands of `group` tile rows (grouped_tile)
  kHilbert = 1,  ///< a Hilbert curve (hilbert_tile)
};

/// Tile number `t` of the grid in the order `order` (bands of `group` tile rows for kGrouped).
COURSE_HD inline TileCoord tile_at(int t, int tiles_m, int tiles_n, TileOrder order, int group) {
  if (order == TileOrder::kHilbert) return hilbert_tile(t, tiles_m, tiles_n);
  return grouped_tile(t, tiles_m, tiles_n, group);
}

}  // namespace lesson11
