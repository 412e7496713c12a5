// Lesson 08's figures held to the functions they draw: every element of the block tile is drawn
// owned by exactly one thread, the one thread_place and result_row/result_col give, for every
// configuration; the butterfly's arrows are butterfly_partner's and its values emulate_butterfly's.
#include "catch_compat.hpp"

#include "lessons/08-warp-shuffle/figures.hpp"
#include "warptiled_parts.cuh"  // the reference's thread_place

#include <cmath>
#include <string>

using namespace lesson08;

TEST_CASE("08 warp tiles: each element drawn owned by thread_place's thread", "[cpu][figures]") {
  for (const WarpTileShape& s : warptiled_shapes()) {
    const course::svg::Scene sc = warp_tiles_scene(s);
    INFO(s.bm << "x" << s.bn << " warps " << s.wm << "x" << s.wn);
    CHECK(sc.count("hole") == 0);
    CHECK(sc.count("clash") == 0);
    // Patches of tm x tn, one per thread and sub-tile step, covering the tile exactly.
    CHECK(sc.count("patch") == s.threads() * s.wm_iter * s.wn_iter);
    CHECK(sc.count("patch") * s.tm * s.tn == s.bm * s.bn);
    CHECK(sc.count("lane") == 32 * s.wm_iter * s.wn_iter);
    for (int tid = 0; tid < s.threads(); ++tid) {
      const ThreadPlace p = thread_place(s, tid);
      for (int i = 0; i < s.wm_iter; ++i) {
        for (int j = 0; j < s.wn_iter; ++j) {
          const int r = result_row(s, p, i * s.tm), c = result_col(s, p, j * s.tn);
          REQUIRE(sc.count("t " + std::to_string(tid) + " " + std::to_string(r) + " " +
                           std::to_string(c)) == 1);
        }
      }
    }
    CHECK_NOTHROW(sc.str());
  }
}

TEST_CASE("08 shuffle: the sources drawn are butterfly_partner's", "[cpu][figures]") {
  std::array<float, kWarpSize> start{};
  for (int l = 0; l < kWarpSize; ++l) start[l] = static_cast<float>(l);
  const auto stages = emulate_butterfly(start);
  for (int stage = 1; stage <= 5; ++stage) {
    const course::svg::Scene s = butterfly_scene(stage);
    const int d = kWarpSize >> stage;
    INFO("stage " << stage);
    for (int l = 0; l < kWarpSize; ++l) {
      CHECK(s.count("from " + std::to_string(butterfly_partner(l, d)) + " to " +
                    std::to_string(l)) == 1);
      CHECK(s.count("from " + std::to_string(l ^ d) + " to " + std::to_string(l)) == 1);
      CHECK(s.count("after " + std::to_string(l) + " " +
                    std::to_string(std::lround(stages[stage - 1][l]))) == 1);
    }
    CHECK_NOTHROW(s.str());
  }
  CHECK(butterfly_scene(5).count("after 7 496") == 1);
}

TEST_CASE("08 quad: each lane's arrows come from quad_a_source and quad_b_source",
          "[cpu][figures]") {
  const course::svg::Scene s = lesson08::quad_scene();
  for (int q = 0; q < 4; ++q) {
    INFO("quad lane " << q);
    CHECK(s.count("a " + std::to_string(lesson08::quad_a_source(q)) + " " + std::to_string(q)) ==
          1);
    CHECK(s.count("b " + std::to_string(lesson08::quad_b_source(q)) + " " + std::to_string(q)) ==
          1);
  }
  // The reference's sources are the ones the table gives: no arrow is drawn as wrong.
  CHECK(s.count("a 0 1") == 1);
  CHECK(s.count("b 3 3") == 1);
  CHECK(s.count("wrong") == 0);
  CHECK_NOTHROW(s.str());
}
