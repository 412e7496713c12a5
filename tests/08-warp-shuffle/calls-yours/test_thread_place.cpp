// The grader of lesson 08, part 2, its tests of thread_place: compiled with each library's
// warptiled_parts.cuh (yours, or the reference's), calling your function by its name.
//
// [cpu] thread_place on the host for every configuration of the lesson and a few more tilings:
//       each element of the block tile computed by exactly one thread, each warp inside its own
//       warp tile, the lanes of a warp covering one sub-tile together.
#include "catch_compat.hpp"

#include "warptiled_parts.cuh"  // thread_place: yours, or the reference's
#include "warptiled_sgemm.hpp"

#include "common/reference_gpus.hpp"

#include <set>
#include <string>
#include <vector>

namespace {

using lesson08::ThreadPlace;
using lesson08::WarpTileShape;

std::string shape_str(const WarpTileShape& s) {
  return "block " + std::to_string(s.bm) + "x" + std::to_string(s.bn) + ", warp " +
         std::to_string(s.wm) + "x" + std::to_string(s.wn) + " in " + std::to_string(s.wm_iter) +
         "x" + std::to_string(s.wn_iter) + " steps, thread " + std::to_string(s.tm) + "x" +
         std::to_string(s.tn);
}

// The lesson's configurations and a few more tilings, all valid.
std::vector<WarpTileShape> shapes_to_place() {
  std::vector<WarpTileShape> out = lesson08::warptiled_shapes();
  out.push_back({32, 32, 4, 32, 32, 1, 1, 4, 8});    // one warp, 8 x 4 lanes of 4 x 8
  out.push_back({256, 64, 8, 64, 64, 2, 2, 4, 8});   // 4 warps in a column
  out.push_back({64, 256, 8, 32, 128, 1, 2, 8, 8});  // 2 x 2 warps, wide warp tiles
  return out;
}

// What a wrong field of thread_place means: warps are laid out row by row over the block tile
// (warp / warp_cols, warp % warp_cols), lanes row by row over a sub-tile (lane / lane_cols, ...).
std::string place_words(const WarpTileShape& s, int tid, const ThreadPlace& q) {
  const int warp = tid / 32, lane = tid % 32;
  std::string w = "thread_place(tid " + std::to_string(tid) + "): ";
  if (q.warp_row != warp / s.warp_cols() || q.warp_col != warp % s.warp_cols()) {
    if (q.warp_row == warp % s.warp_cols() && q.warp_col == warp / s.warp_cols()) {
      w += "warp row and column swapped; ";
    } else if (q.warp_row == lane / s.lane_cols() || q.warp_col == lane % s.lane_cols()) {
      w += "the warp's place comes from the lane; the warp is tid / 32; ";
    }
    return w + "warp " + std::to_string(warp) + " is at (warp / warp_cols, warp % warp_cols), " +
           std::to_string(s.warp_cols()) + " warp tiles across";
  }
  if (q.lane_row == lane % s.lane_cols() && q.lane_col == lane / s.lane_cols()) {
    w += "lane row and column swapped; ";
  } else if (q.lane_row == tid / s.lane_cols() || q.lane_col == tid % s.lane_cols()) {
    w += "the lane's place comes from tid, not the lane tid % 32; ";
  } else if (q.lane_row == lane / s.warp_cols() || q.lane_col == lane % s.warp_cols()) {
    w += "the lanes use the warps' width; ";
  }
  return w + "lane " + std::to_string(lane) + " is at (lane / lane_cols, lane % lane_cols), " +
         std::to_string(s.lane_cols()) + " lanes across a sub-tile";
}

}  // namespace

TEST_CASE("thread_place puts every thread where the contract says", "[cpu][task_4]") {
  // The header's example first.
  const WarpTileShape ex{128, 128, 8, 32, 64, 2, 2, 4, 4};
  const ThreadPlace p = lesson08::thread_place(ex, 77);
  INFO(
      "thread 77 is warp 2, lane 13; with 2 warp tiles across, warp 2 is at (1, 0); with 8 "
      "lanes across a sub-tile, lane 13 is at (1, 5). Got warp ("
      << p.warp_row << ", " << p.warp_col << "), lane (" << p.lane_row << ", " << p.lane_col
      << ")");
  {
    INFO(place_words(ex, 77, p));
    CHECK(p.warp_row == 1);
    CHECK(p.warp_col == 0);
    CHECK(p.lane_row == 1);
    CHECK(p.lane_col == 5);
  }

  for (const WarpTileShape& s : shapes_to_place()) {
    INFO(shape_str(s));
    REQUIRE(lesson08::warp_tile_shape_error(s).empty());
    for (int tid = 0; tid < s.threads(); ++tid) {
      const ThreadPlace q = lesson08::thread_place(s, tid);
      const int warp = tid / 32, lane = tid % 32;
      INFO("thread " << tid << " (warp " << warp << ", lane " << lane << "): got warp ("
                     << q.warp_row << ", " << q.warp_col << "), lane (" << q.lane_row << ", "
                     << q.lane_col << "); expected warp (" << warp / s.warp_cols() << ", "
                     << warp % s.warp_cols() << "), lane (" << lane / s.lane_cols() << ", "
                     << lane % s.lane_cols() << ")");
      INFO(place_words(s, tid, q));
      REQUIRE(q.warp_row == warp / s.warp_cols());
      REQUIRE(q.warp_col == warp % s.warp_cols());
      REQUIRE(q.lane_row == lane / s.lane_cols());
      REQUIRE(q.lane_col == lane % s.lane_cols());
    }
  }
}

TEST_CASE("the thread tiles cover the block tile once, warp by warp", "[cpu][task_4]") {
  for (const WarpTileShape& s : shapes_to_place()) {
    INFO(shape_str(s));
    std::vector<int> owner(static_cast<std::size_t>(s.bm) * s.bn, -1);
    for (int tid = 0; tid < s.threads(); ++tid) {
      const ThreadPlace p = lesson08::thread_place(s, tid);
      const int warp = tid / 32;
      for (int i = 0; i < s.wm_iter * s.tm; ++i) {
        for (int j = 0; j < s.wn_iter * s.tn; ++j) {
          const int r = lesson08::result_row(s, p, i), c = lesson08::result_col(s, p, j);
          INFO("thread " << tid << ", result (" << i << ", " << j << ") at (" << r << ", " << c
                         << ") of the block tile");
          REQUIRE(r >= 0);
          REQUIRE(r < s.bm);
          REQUIRE(c >= 0);
          REQUIRE(c < s.bn);
          // Inside its warp's tile.
          CHECK(r / s.wm * s.warp_cols() + c / s.wn == warp);
          int& o = owner[static_cast<std::size_t>(r) * s.bn + c];
          INFO("already computed by thread " << o);
          REQUIRE(o == -1);
          o = tid;
        }
      }
    }
    int missing = 0;
    for (int o : owner) missing += o == -1;
    CHECK(missing == 0);
  }
  // The lanes of warp 0, at sub-tile step (0, 0), cover one sub_m x sub_n rectangle: the warp
  // shares its rows of A and its columns of B.
  const WarpTileShape s = lesson08::warptiled_configs()[0].shape;
  std::set<int> rows, cols;
  for (int lane = 0; lane < 32; ++lane) {
    const ThreadPlace p = lesson08::thread_place(s, lane);
    for (int t = 0; t < s.tm; ++t) rows.insert(lesson08::result_row(s, p, t));
    for (int t = 0; t < s.tn; ++t) cols.insert(lesson08::result_col(s, p, t));
  }
  CHECK(static_cast<int>(rows.size()) == s.sub_m());
  CHECK(static_cast<int>(cols.size()) == s.sub_n());
  // And the launch planner of tuned_warptiled_sgemm on an H100's 132 SMs (given code).
  const course::DeviceLimits h100 = course::reference_gpu("H100 SXM5").limits;
  CHECK(lesson08::choose_warptiled_config(4096, 4096, h100) == 0);
  CHECK(lesson08::choose_warptiled_config(2048, 2048, h100) == 0);
  CHECK(lesson08::choose_warptiled_config(1024, 1024, h100) == 1);
  CHECK(lesson08::choose_warptiled_config(1, 1, h100) == 1);
}
