// The grader of lesson 11 (the TMA pipeline). Linked against the learner's exercise (grade11) and
// against the reference solution (test11).
//
// [cpu] tests of your functions: calls-yours/test_ring_functions.cpp.
// [gpu] tests (compute capability 9.0 or newer): every rung this GPU runs (all of them on Hopper,
//       the portable rung elsewhere) on the design's shape grid (K a multiple of 8), up to the
//       first failure, problems ragged along one dimension at a time, both epilogues, K not a
//       multiple of the 64-wide k-block, and the precondition messages.
//       Given code that runs on the CPU is checked there too, before the kernels that use it: the
//       bands visit every tile of many grids exactly once, stmatrix's lanes address the rows the
//       staging layout wants, and the headline picks its tile for a shape as the chapter says.
//       (It is given code: a [cpu] test of it alone would pass for an untouched exercise, which
//       must read "not started".) The lab's plans and orders are checked by its own test
//       (lab/test_lab.cpp).
#include "cases.hpp"
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "causes.hpp"  // the lesson's rules in the table of causes
#include "staging_layout.hpp"
#include "tile_source.hpp"
#include "tma_pipeline.hpp"

#include "common/buffers.hpp"

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

// "" when the bands of `group` visit each tile of a tiles_m x tiles_n grid exactly once, else the
// first fault.
std::string tile_order_fault(int group, int tiles_m, int tiles_n) {
  std::vector<int> seen(static_cast<std::size_t>(tiles_m) * tiles_n, -1);
  for (int t = 0; t < tiles_m * tiles_n; ++t) {
    const lesson11::TileCoord c = lesson11::grouped_tile(t, tiles_m, tiles_n, group);
    const std::string where = "tile number " + std::to_string(t) + " of a " +
                              std::to_string(tiles_m) + " x " + std::to_string(tiles_n) + " grid";
    if (c.m < 0 || c.m >= tiles_m || c.n < 0 || c.n >= tiles_n) {
      return where + " is (" + std::to_string(c.m) + ", " + std::to_string(c.n) + "), outside it";
    }
    int& first = seen[static_cast<std::size_t>(c.m) * tiles_n + c.n];
    if (first >= 0) {
      return where + " is (" + std::to_string(c.m) + ", " + std::to_string(c.n) +
             "), already visited as number " + std::to_string(first);
    }
    first = t;
  }
  return "";  // as many tiles as cells, none twice: every cell once
}

// The given code on the CPU: the tile order, the stmatrix addresses of the staging layout and the
// headline's choice of a tile.
void check_given_orders_and_layouts() {
  std::vector<std::pair<int, int>> grids;
  for (int m = 1; m <= 24; ++m) {
    for (int n = 1; n <= 24; ++n) grids.emplace_back(m, n);
  }
  for (auto g : {std::pair<int, int>{32, 16}, {64, 32}, {128, 128}, {4, 64}, {63, 65}, {33, 129}}) {
    grids.push_back(g);
  }
  for (const auto& [m, n] : grids) {
    for (int group : {1, 3, 8, 16}) {
      const std::string fault = tile_order_fault(group, m, n);
      INFO("bands of " << group << ": " << fault);
      REQUIRE(fault.empty());
    }
  }
  // stmatrix: register k of lane l holds row l / 4 (+ 8 for k odd) and columns 2 (l % 4), + 1 of
  // column group 2 pair + k / 2; it lands at the address that lane 8 k + l / 4 gives, plus its
  // place in the row. That must be where staging_offset puts the element.
  // The same for the 160-wide tile's slices of 32 columns (pairs 0 and 1): the same 128-byte rows,
  // their first half.
  for (const int slice : {64, 32}) {
    for (int pair = 0; pair < slice / 16; ++pair) {
      for (int lane = 0; lane < 32; ++lane) {
        for (int k = 0; k < 4; ++k) {
          for (int e = 0; e < 2; ++e) {
            const int row = lane / 4 + 8 * (k % 2),
                      col = 16 * pair + 8 * (k / 2) + 2 * (lane % 4) + e;
            const int giver = 8 * k + lane / 4;
            const int at = lesson11::staging_offset(lesson11::stmatrix_row(giver),
                                                    lesson11::stmatrix_col(giver, pair)) +
                           2 * (2 * (lane % 4) + e);
            INFO("slices of " << slice << " columns, stmatrix pair " << pair << ", lane " << lane
                              << ", register " << k);
            REQUIRE(at == lesson11::staging_offset(row, col));
          }
        }
      }
    }
  }
  // The headline's tile for a shape: 192 x 160 only where it saves a wave's worth of padding.
  using lesson11::HeadlineTile;
  struct Shape {
    int m, n;
    HeadlineTile tile;
  };
  for (const Shape& e :
       {Shape{4000, 4000, HeadlineTile::k192x160},  // 525 tiles: 4 waves, not 512
        Shape{4096, 4096, HeadlineTile::k128x256},  // 512 tiles: 4 waves, not 5
        Shape{8192, 8192, HeadlineTile::k128x256}, Shape{16384, 16384, HeadlineTile::k128x256},
        Shape{2048, 2048, HeadlineTile::k128x256},  // one wave, not two
        Shape{512, 8192, HeadlineTile::k128x256}, Shape{8192, 7168, HeadlineTile::k128x256},
        Shape{257, 255, HeadlineTile::k192x160}}) {  // one wave of a smaller tile
    INFO(e.m << " x " << e.n << " on 132 SMs");
    CHECK(lesson11::headline_tile_for(e.m, e.n, 132) == e.tile);
  }
}

}  // namespace

TEST_CASE("every rung on the shape grid", "[gpu][task_2]") {
  check_given_orders_and_layouts();
  check_until_first_failure(lesson11::rungs(), grid_cases());
}

TEST_CASE("every rung on problems ragged in one dimension at a time", "[gpu][task_2]") {
  check_until_first_failure(lesson11::rungs(), ragged_cases());
}

TEST_CASE("the launchers check K, the sizes and alignment before launching", "[gpu][task_2]") {
  course::DeviceBuffer<course::bf16> A(64 * 64), B(64 * 64), C(64 * 64);
  for (const lesson11::Rung& r : lesson11::rungs()) {
    if (!course::fits_current_device(r)) continue;  // a wgmma rung on a GPU without wgmma
    INFO(r.name);
    // The valid neighbour of the refused problems runs and is right: refusing is not all a
    // launcher does (and a stub fails here, as everywhere, with NOT IMPLEMENTED).
    course_test::check_on_shapes(r.run, r.name, {{64, 64, 64, 1.0f, 0.0f}});
    CHECK(course_test::throws_invalid_argument(
        [&] { r.run(64, 64, 60, 1.0f, A.data(), B.data(), 0.0f, C.data()); }));  // K % 8 != 0
    CHECK(course_test::throws_invalid_argument(
        [&] { r.run(0, 64, 64, 1.0f, A.data(), B.data(), 0.0f, C.data()); }));
    CHECK(course_test::throws_invalid_argument(
        [&] { r.run(8, 8, 8, 1.0f, A.data() + 1, B.data(), 0.0f, C.data()); }));  // misaligned
  }
}
