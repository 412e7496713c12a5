// Lesson 02's figures held to the emulated launches they draw: the threads, blocks, idle threads
// and writes the pictures show are the ones emulate_1d and emulate_2d count, for every frame.
#include "catch_compat.hpp"

#include "lessons/02-dispatch/emulate.hpp"
#include "lessons/02-dispatch/figures.hpp"

#include <numeric>

using namespace lesson02;

TEST_CASE("02 launch 1d: threads, blocks, idle threads and writes are the emulation's",
          "[cpu][figures]") {
  for (int n : {1, 20, 33}) {
    for (int block : {4, 6, 8, 16, 32}) {
      INFO("n = " << n << ", block " << block);
      const Emulation1D e = emulate_1d(n, block);
      const course::svg::Scene s = launch_1d_scene(n, block);
      CHECK(s.count("block") == e.blocks);
      CHECK(s.count("thread") == e.threads_launched);
      CHECK(s.count("idle") == e.threads_idle);
      CHECK(s.count("arrow") == std::accumulate(e.coverage.begin(), e.coverage.end(), 0));
      CHECK(s.count("written") == n);  // every element once
      CHECK(s.count("missing") == 0);
      CHECK(s.count("twice") == 0);
      CHECK(s.count("past-end") == 0);
      CHECK_NOTHROW(s.str());  // every label readable in the book
    }
  }
  // The chapter's numbers: n = 20 in blocks of 8 is 3 blocks, 24 threads, 4 of them idle.
  const course::svg::Scene s = launch_1d_scene(20, 8);
  CHECK(s.count("block") == 3);
  CHECK(s.count("idle") == 4);
}

TEST_CASE("02 launch 2d: cells written, idle threads and blocks drawn are the emulation's",
          "[cpu][figures]") {
  for (int bx : {1, 2, 4, 8, 16, 32}) {
    for (int by : {1, 2, 4, 8}) {
      INFO("block " << bx << " x " << by);
      const Emulation2D e = emulate_2d(12, 7, bx, by);
      const course::svg::Scene s = launch_2d_scene(12, 7, bx, by);
      long written = 0;
      for (int c : e.coverage) written += c > 0;
      CHECK(s.count("cell") == written);
      CHECK(s.count("cell") == 12 * 7);
      CHECK(s.count("unwritten") == 0);
      CHECK(s.count("twice") == 0);
      CHECK(s.count("idle") == e.threads_idle);
      CHECK(s.count("block") == e.grid.x * e.grid.y);
      CHECK_NOTHROW(s.str());
    }
  }
  // 8 x 4 blocks over 12 x 7: a grid of 2 x 2 blocks, 128 threads, 44 of them idle.
  const course::svg::Scene s = launch_2d_scene(12, 7, 8, 4);
  CHECK(s.count("block") == 4);
  CHECK(s.count("idle") == 128 - 84);
}

TEST_CASE("02 launch 2d: a wrong launch shows as a wrong picture", "[cpu][figures]") {
  // Records of a launch whose index swapped x and y: the picture marks what nobody wrote.
  Emulation2D e = emulate_2d(12, 7, 4, 4);
  e.records[5 * 12 + 3] = unwritten_record();
  e.coverage[5 * 12 + 3] = 0;
  e.coverage[0] = 2;
  const course::svg::Scene s = grid_scene(e);
  CHECK(s.count("unwritten") == 1);
  CHECK(s.count("twice") == 1);
  CHECK(s.count("cell") == 12 * 7 - 1);
}
