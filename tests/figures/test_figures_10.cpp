// Lesson 10's figures held to the functions they draw: every element of the fragment picture is
// held by exactly one lane, the one the mapping names; every element of the tile an ldmatrix.x4
// reads reaches exactly one (lane, register), and it is the one the fragment mapping names.
#include "catch_compat.hpp"

#include "lessons/10-tensor-cores/figures.hpp"
#include "calls-yours/lane_offsets.hpp"  // the reference's a_ldmatrix_row, b_ldmatrix_row
#include "mma_sync_parts.cuh"            // the reference's fragment mappings

#include <string>

using namespace lesson10;

TEST_CASE("10 fragments: one cell per element, one lane each", "[cpu][figures]") {
  const course::svg::Scene s = fragment_scene();
  CHECK(s.count("lane") == 16 * 16 + 16 * 8 + 16 * 8);
  CHECK(s.count("hole") == 0);
  CHECK(s.count("clash") == 0);
  const std::string svg = s.str();  // and readable in the book
  CHECK(svg.find(">T31</text>") != std::string::npos);
  CHECK(svg.find(">a7</text>") != std::string::npos);
  CHECK(svg == fragment_svg());
}

TEST_CASE("10 ldmatrix: each element reaches the (lane, register) the mapping names",
          "[cpu][figures]") {
  for (bool b : {false, true}) {
    for (int reg = 0; reg < 4; ++reg) {
      const course::svg::Scene s = ldmatrix_scene(b, reg);
      INFO((b ? "B" : "A") << ", register " << reg);
      CHECK(s.count("hole") == 0);
      CHECK(s.count("clash") == 0);
      CHECK(s.count("mismatch") == 0);
      CHECK(s.count("register") == 32);
      // Every (lane, register, half) drawn once, where the fragment mapping puts it.
      for (int lane = 0; lane < 32; ++lane) {
        for (int q = 0; q < 4; ++q) {
          for (int h = 0; h < 2; ++h) {
            FragmentCoord at;
            if (b) {
              const FragmentCoord kn = b_fragment_coord(lane, 2 * (q % 2) + h);
              at = {kn.col + 8 * (q / 2), kn.row};  // the tile's row n, k along it
            } else {
              at = a_fragment_coord(lane, 2 * q + h);
            }
            CHECK(s.count("got " + std::to_string(at.row) + " " + std::to_string(at.col) + " " +
                          std::to_string(lane) + " " + std::to_string(q) + " " +
                          std::to_string(h)) == 1);
          }
        }
        // The address each lane gives is the kernel's: the first element of its row.
        const FragmentCoord p = b ? b_ldmatrix_row(lane) : a_ldmatrix_row(lane);
        const int row = b ? p.col : p.row, k = b ? p.row : p.col;
        CHECK(s.count("addr " + std::to_string(lane) + " " + std::to_string(row) + " " +
                      std::to_string(k)) == 1);
        // Lanes 8q .. 8q + 7 point at the 8 rows of piece q: for A rows 8 (q % 2) + ..., for B
        // (two n8 tiles) the rows n of tile q / 2.
        CHECK(row == lane % 8 + 8 * (b ? lane / 16 : (lane / 8) % 2));
      }
      CHECK_NOTHROW(s.str());
    }
  }
}
