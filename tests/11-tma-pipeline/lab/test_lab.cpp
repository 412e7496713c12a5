// The grader of lesson 11's lab (lessons/11-tma-pipeline/lab/): its tile sources' plans and orders
// on the CPU, then every variant the chapter measures against the headline, on the shape grid, the
// ragged problems and the problems stream-K splits along K. The lab is built with the reference
// solution, so this grader runs in `make test` (the test solution.11.lab), never in a grade of your
// exercise.
#include "../cases.hpp"

#include "lab/lab.hpp"
#include "lab/stream_k.hpp"
#include "lab/tile_orders.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace lab = lesson11::lab;

namespace {

// "" when the plan computes every k-block of every tile exactly once, in units the kernel can run
// (whole tiles first; a piece that does not start its tile is its block's first split unit, a
// split tile's first piece its block's last unit, and its other pieces come from the blocks up to
// last_contributor), with the split k-blocks shared within one k-block of evenly, whole tiles
// equally, and at most `max_pieces` pieces a tile; else the first fault.
std::string stream_k_fault(const lab::StreamKPlan& p, int blocks,
                           int max_pieces = lab::kMaxPieces) {
  using lesson11::WorkUnit;
  const std::string plan = "the plan for " + std::to_string(p.tiles) + " tiles of " +
                           std::to_string(p.k_blocks) + " k-blocks on " + std::to_string(blocks) +
                           " blocks (grid " + std::to_string(p.grid) + ", " +
                           std::to_string(p.dp_tiles) + " whole tiles): ";
  if (p.grid < 1 || p.grid > blocks) return plan + "a grid of more blocks than are resident";
  const std::size_t k = static_cast<std::size_t>(p.k_blocks);
  std::vector<int> owner(static_cast<std::size_t>(p.tiles) * k, -1), pieces(p.tiles, 0);
  long long least = -1, most = -1;
  for (int b = 0; b < p.grid; ++b) {
    long long split_work = 0;
    const int whole = lab::whole_tiles_of(p, b);
    if (p.sk_iters > 0 && whole != p.dp_tiles / p.grid) {
      return plan + "block " + std::to_string(b) + " computes " + std::to_string(whole) +
             " whole tiles, not its equal share";
    }
    for (int u = 0;; ++u) {
      const WorkUnit w = lab::work_unit(p, b, u);
      if (w.tile < 0) break;
      const std::string unit = "unit " + std::to_string(u) + " of block " + std::to_string(b) +
                               " (tile " + std::to_string(w.tile) + ", k-blocks " +
                               std::to_string(w.k_begin) + ".." + std::to_string(w.k_end) + ")";
      if (w.tile >= p.tiles || w.k_begin < 0 || w.k_begin >= w.k_end || w.k_end > p.k_blocks) {
        return plan + unit + " is not a piece of a tile";
      }
      if (u < whole && (w.k_begin != 0 || w.k_end != p.k_blocks)) {
        return plan + unit + " should be a whole tile";
      }
      if (lab::hands_over(w) && u != whole) {
        return plan + unit + " starts inside its tile but is not the block's first split unit: " +
               "the block would hand over two pieces into its one slot";
      }
      if (lab::finishes_split(p, w)) {
        if (lab::work_unit(p, b, u + 1).tile >= 0) {
          return plan + unit + " finishes a split tile but is not the block's last unit";
        }
      }
      for (int kb = w.k_begin; kb < w.k_end; ++kb) {
        int& o = owner[static_cast<std::size_t>(w.tile) * k + kb];
        if (o >= 0) return plan + unit + " computes k-block " + std::to_string(kb) + " again";
        o = b;
      }
      ++pieces[w.tile];
      if (u >= whole) split_work += w.k_end - w.k_begin;
    }
    least = least < 0 ? split_work : std::min(least, split_work);
    most = std::max(most, split_work);
  }
  for (std::size_t i = 0; i < owner.size(); ++i) {
    if (owner[i] < 0) {
      return plan + "k-block " + std::to_string(i % k) + " of tile " + std::to_string(i / k) +
             " is never computed";
    }
  }
  if (most - least > 1) {
    return plan + "the blocks' shares of the split k-blocks range from " + std::to_string(least) +
           " to " + std::to_string(most);
  }
  for (int t = 0; t < p.tiles; ++t) {
    if (pieces[t] > max_pieces) {
      return plan + "tile " + std::to_string(t) + " is cut into " + std::to_string(pieces[t]) +
             " pieces";
    }
    if (pieces[t] == 1) continue;
    // The finisher (k-block 0's block) adds the sums of the blocks after it, up to the owner of
    // the tile's last k-block, and each of those holds a piece of it.
    const std::size_t first = static_cast<std::size_t>(t) * k;
    const int finisher = owner[first], last = lab::last_contributor(p, t);
    if (owner[first + k - 1] != last || last - finisher + 1 != pieces[t]) {
      return plan + "the pieces of tile " + std::to_string(t) + " are not those of blocks " +
             std::to_string(finisher) + ".." + std::to_string(last);
    }
  }
  return "";
}

// Problems whose tiles stream-K splits along K (the lab's stream-K variants), which every variant
// must get right.
std::vector<course_test::EdgeCase> stream_k_cases() {
  // On 132 SMs (an H100 SXM), with 128 x 256 tiles; other SM counts split them differently, and
  // the variants that split whenever it helps at all ("stream-K always") split most of them.
  return {
      {{512, 4096, 4096, 1.0f, 0.0f}, "64 tiles on 128 blocks: every tile in two halves of K"},
      {{2048, 2048, 8192, 1.0f, 0.0f}, "128 tiles, fewer than SMs, long K: split by 'always'"},
      {{3712, 2048, 2048, 0.5f, 1.5f},
       "232 tiles, 1.76 waves: all split in two, or ('partial wave only') the last 100 in up "
       "to three pieces; beta applied once"},
      {{4480, 1024, 192, 1.0f, 0.0f},
       "140 tiles of 3 k-blocks, K small: split by 'always' into ranges of 3 or 4 k-blocks"},
      {{512, 1024, 1024, 1.0f, 0.0f},
       "16 tiles on 32 blocks, each in two halves of K; small enough to check every row"},
      {{500, 1001, 1024, -1.0f, 0.5f},
       "the same with the register epilogue (N odd) and beta != 0, every row checked"},
  };
}

}  // namespace

TEST_CASE("the stream-K plan computes every k-block of every tile once, in even shares", "[cpu]") {
  for (int tiles = 1; tiles <= 300; tiles += tiles < 40 ? 1 : 7) {
    for (int k_blocks : {1, 2, 3, 4, 5, 8, 16, 31, 64, 65, 128}) {
      for (int blocks : {1, 2, 3, 5, 8, 66, 114, 132, 133}) {
        for (int gain : {lab::kStreamKAlways, lab::kStreamKTail}) {
          for (bool full_wave : {true, false}) {
            const lab::StreamKPlan p = lab::stream_k_plan(tiles, k_blocks, blocks, gain, full_wave);
            // With a full wave split along, every range is at least a tile long: two pieces.
            const int most = full_wave && tiles >= blocks ? 2 : lab::kMaxPieces;
            const std::string fault = stream_k_fault(p, blocks, most);
            INFO("least gain " << gain << (full_wave ? ", a full wave along: " : ": ") << fault);
            REQUIRE(fault.empty());
          }
        }
        const std::string fault =
            stream_k_fault(lab::whole_tiles_plan(tiles, k_blocks, blocks), blocks);
        INFO("whole tiles: " << fault);
        REQUIRE(fault.empty());
      }
    }
  }
  struct Expected {
    int tiles, k_blocks, split_tiles, busiest;
  };
  // 128 x 256 tiles on 132 SMs, the headline's schedule: (tiles, k-blocks) -> tiles split (the
  // partial wave and the last full one), and the busiest block's k-blocks.
  for (const Expected& e : {Expected{128, 32, 0, 32},         // 2048^3: nothing to gain
                            Expected{512, 64, 248, 249},      // 4096^3: 2 whole + 120.2 each
                            Expected{2048, 128, 200, 1986},   // 8192^3: 14 whole + 193.9
                            Expected{8192, 256, 140, 15888},  // 16384^3: 61 whole + 271.5
                            Expected{512, 63, 248, 245},      // 4000^3
                            Expected{1792, 32, 208, 435},     // 8192 x 7168 x 2048
                            Expected{128, 128, 0, 128},       // 512 x 8192 x 8192: 3 to gain
                            Expected{64, 64, 64, 32}}) {      // 512 x 4096 x 4096: halves of K
    const lab::StreamKPlan p = lab::stream_k_plan(e.tiles, e.k_blocks, 132, lab::kStreamKTail);
    const long long busiest = static_cast<long long>(p.dp_tiles / p.grid) * p.k_blocks +
                              (p.sk_iters + p.grid - 1) / p.grid;
    INFO(e.tiles << " tiles of " << e.k_blocks << " k-blocks on 132 SMs");
    CHECK(p.tiles - p.dp_tiles == e.split_tiles);
    CHECK(p.sk_iters == static_cast<long long>(e.split_tiles) * e.k_blocks);
    CHECK(busiest == e.busiest);
  }
}

TEST_CASE("the Hilbert curve visits every tile of a grid once, each next to the one before",
          "[cpu]") {
  for (int m = 1; m <= 40; ++m) {
    for (int n = 1; n <= 40; n += m < 8 ? 1 : 3) {
      std::vector<int> seen(static_cast<std::size_t>(m) * n, 0);
      for (int t = 0; t < m * n; ++t) {
        const lesson11::TileCoord c = lesson11::tile_at(t, m, n, lesson11::TileOrder::kHilbert, 8);
        INFO("tile number " << t << " of a " << m << " x " << n << " grid: (" << c.m << ", " << c.n
                            << ")");
        REQUIRE((c.m >= 0 && c.m < m && c.n >= 0 && c.n < n));
        REQUIRE(++seen[static_cast<std::size_t>(c.m) * n + c.n] == 1);
      }
    }
  }
  // On a power-of-two square the curve never jumps: each tile is next to the one before.
  for (int side : {2, 4, 8, 16, 32}) {
    for (int t = 1; t < side * side; ++t) {
      const lesson11::TileCoord a = lesson11::hilbert_tile(t - 1, side, side);
      const lesson11::TileCoord b = lesson11::hilbert_tile(t, side, side);
      INFO("Hilbert curve on " << side << " x " << side << ", tiles " << t - 1 << " and " << t);
      REQUIRE(std::abs(a.m - b.m) + std::abs(a.n - b.n) == 1);
    }
  }
}

TEST_CASE("every variant of the lab on the shape grid", "[gpu]") {
  check_until_first_failure(lesson11::lab::variants(), grid_cases());
}

TEST_CASE("every variant of the lab on problems ragged in one dimension at a time", "[gpu]") {
  check_until_first_failure(lesson11::lab::variants(), ragged_cases());
}

TEST_CASE("every variant of the lab on the problems stream-K splits along K", "[gpu]") {
  check_until_first_failure(lesson11::lab::variants(), stream_k_cases());
}
