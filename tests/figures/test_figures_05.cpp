// Lesson 05's figures held to the function they draw: the places of As and Bs drawn as padding are
// exactly those where load_or_zero returns its zero, every other place shows the element it
// returns, each multiply shows the fetch of the next tiles the kernel makes there (zeros past K),
// and the sums the last phase writes are the product A * B.
#include "catch_compat.hpp"

#include "lessons/05-tiling/figures.hpp"

#include <string>

using namespace lesson05;

namespace {

std::string name(const char* m, int r, int c) {
  return std::string(m) + "(" + std::to_string(r) + "," + std::to_string(c) + ")";
}

// Every phase of every block of an M x N x K walk in T x T tiles, checked against the kernel's
// index arithmetic and an independent product.
void check_walks(int M, int N, int K, int T, bool in_the_book) {
  const int grid_rows = (M + T - 1) / T, grid_cols = (N + T - 1) / T;
  for (int br = 0; br < grid_rows; ++br) {
    for (int bc = 0; bc < grid_cols; ++bc) {
      const BlockWalk w = walk_block(M, N, K, T, br, bc);
      REQUIRE(static_cast<int>(w.steps.size()) == (K + T - 1) / T);
      for (int phase = 0; phase < w.phases(); ++phase) {
        const course::svg::Scene s = tile_walk_scene(w, phase, T - 1, T - 1);
        const int step = phase == w.phases() - 1 ? static_cast<int>(w.steps.size()) - 1 : phase / 4;
        const int k0 = step * T;
        INFO(M << " x " << N << " x " << K << ", block (" << br << "," << bc << "), phase "
               << phase);
        int pads = 0, outside = 0;
        for (int ty = 0; ty < T; ++ty) {
          for (int tx = 0; tx < T; ++tx) {
            const std::string pos = std::to_string(ty) + " " + std::to_string(tx) + " ";
            const int row = br * T + ty, col = bc * T + tx;
            // As[ty][tx] is A(row, k0 + tx): padding exactly past row M or column K.
            const bool a_pad = row >= M || k0 + tx >= K;
            const bool b_pad = k0 + ty >= K || col >= N;
            CHECK(s.count("as " + pos + "pad") == (a_pad ? 1 : 0));
            CHECK(s.count("bs " + pos + "pad") == (b_pad ? 1 : 0));
            if (!a_pad) CHECK(s.count("as " + pos + name("A", row, k0 + tx)) == 1);
            if (!b_pad) CHECK(s.count("bs " + pos + name("B", k0 + ty, col)) == 1);
            pads += a_pad + b_pad;
            outside += row >= M || col >= N;
          }
        }
        CHECK(s.count("outside") == outside);
        // A multiply fetches the highlighted thread's share of the next tiles, at k0 + T: the
        // element load_or_zero returns there, its zero past an edge (always, after the last tile).
        const bool multiply = phase < w.phases() - 1 && phase % 4 == 2;
        const int row = br * T + T - 1, col = bc * T + T - 1, k1 = k0 + T;
        const bool a_next_pad = row >= M || k1 + T - 1 >= K,
                   b_next_pad = k1 + T - 1 >= K || col >= N;
        CHECK(s.count(a_next_pad ? "fetch a pad" : "fetch a " + name("A", row, k1 + T - 1)) ==
              (multiply ? 1 : 0));
        CHECK(s.count(b_next_pad ? "fetch b pad" : "fetch b " + name("B", k1 + T - 1, col)) ==
              (multiply ? 1 : 0));
        // The next tiles are outlined where they exist: not after the last tile.
        const std::string k1s = std::to_string(k1);
        CHECK(s.count("next a " + std::to_string(br * T) + " " + k1s) == (multiply && k1 < K));
        CHECK(s.count("next b " + k1s + " " + std::to_string(bc * T)) == (multiply && k1 < K));
        if (in_the_book) CHECK_NOTHROW(s.str());  // every label readable
        // The last phase writes C: each of the block's elements inside C is the dot product.
        if (phase == w.phases() - 1) {
          for (int r = br * T; r < std::min(M, br * T + T); ++r) {
            for (int c = bc * T; c < std::min(N, bc * T + T); ++c) {
              float sum = 0;
              for (int k = 0; k < K; ++k) sum += example_a(r, k) * example_b(k, c);
              CHECK(s.count("c " + std::to_string(r) + " " + std::to_string(c) + " = " +
                            std::to_string(static_cast<int>(sum))) == 1);
            }
          }
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("05 tile phases: the tiles drawn are load_or_zero's, the sums the product",
          "[cpu][figures]") {
  check_walks(4, 4, 4, 2, true);   // 05-tile-phases: no padding anywhere
  check_walks(3, 3, 3, 2, true);   // 05-ragged-tile
  check_walks(5, 3, 7, 4, false);  // ragged along every dimension, wider tiles
  // The toy has no padding; the ragged corner block pads both tiles of its second step.
  CHECK(tile_walk_scene(walk_block(4, 4, 4, 2, 1, 1), 4, 0, 0).count("as 1 1 pad") == 0);
  const course::svg::Scene corner = tile_walk_scene(walk_block(3, 3, 3, 2, 1, 1), 4, 0, 0);
  CHECK(corner.count("as 1 0 pad") == 1);  // row 3 of A does not exist
  CHECK(corner.count("bs 1 1 pad") == 1);  // nor row 3 of B
  CHECK(corner.count("outside") == 3);     // threads (0,1), (1,0), (1,1) of the corner block
  // The toy's multiply of tile 0: thread (0,1) of block (1,0) fetches A(2,3) and B(2,1) of tile 1.
  const course::svg::Scene fetch = tile_walk_scene(walk_block(4, 4, 4, 2, 1, 0), 2, 0, 1);
  CHECK(fetch.count("fetch a A(2,3)") == 1);
  CHECK(fetch.count("fetch b B(2,1)") == 1);
  CHECK(fetch.count("next a 2 2") == 1);
  CHECK(fetch.count("next b 2 0") == 1);
}
