/// \file figures.cpp
/// \brief Lesson 05's figures: what the book shows and `make lesson-5` draws of your code.
#include "lessons/05-tiling/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson05 {

namespace {

// The phases of a walk of `steps` tiles, as slider values and labels.
course::fig::Control phase_control(int steps, const std::string& initial = "") {
  course::fig::Control c{"phase", "phase", {}, {}, initial, true};
  for (int p = 0; p < 4 * steps + 1; ++p) {
    c.values.push_back(std::to_string(p));
    const int s = p / 4;
    const std::string tile = "tile " + std::to_string(s);
    // The multiply also fetches the next tile, where there is one.
    const std::string fetch = s + 1 < steps ? "fetch tile " + std::to_string(s + 1) + ", " : "";
    c.shown.push_back(p == 4 * steps ? "write C"
                      : p % 4 == 0   ? "store " + tile
                      : p % 4 == 2   ? fetch + "multiply " + tile
                      : p % 4 == 1   ? "barrier 1 (" + tile + ")"
                                     : "barrier 2 (" + tile + ")");
  }
  return c;
}

// The blocks of a grid of rows x cols tiles, as "row,col".
course::fig::Control block_control(int rows, int cols, const std::string& initial) {
  course::fig::Control c{"block", "block (by, bx)", {}, {}, initial, false};
  for (int r = 0; r < rows; ++r)
    for (int q = 0; q < cols; ++q) c.values.push_back(std::to_string(r) + "," + std::to_string(q));
  return c;
}

std::pair<int, int> pair_of(const std::string& v) {
  const auto comma = v.find(',');
  return {std::stoi(v.substr(0, comma)), std::stoi(v.substr(comma + 1))};
}

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  std::vector<course::fig::Figure> out;
  // 4 x 4 by 4 x 4 in 2 x 2 tiles: four blocks, two tiles along K each.
  const Control thread{"thread", "thread (ty, tx)", {"0,0", "0,1", "1,0", "1,1"}, {}, "0,1"};
  out.push_back(course::fig::make(
      "05-tile-phases", "One block's walk along K, phase by phase",
      "A 4 x 4 by 4 x 4 product in 2 x 2 tiles. Step through the phases of block (by, bx) = "
      "(1, 0): each thread stores the element of A and of B it fetched into shared memory (As, "
      "Bs), the first barrier waits for all of them, each thread starts fetching the next tiles "
      "(dashed) and multiplies its row of As by its column of Bs into its partial sum, and the "
      "second barrier keeps the next store from overwriting tiles still being read. The "
      "highlighted thread's reads are outlined; the sums of C grow tile by tile.",
      {thread, phase_control(2)}, [](const std::vector<std::string>& v) {
        // A block off the diagonal, so its tile of A (rows 2 and 3) and of B (columns 0 and 1)
        // are not the same places of the two matrices.
        const auto [ty, tx] = pair_of(v[0]);
        return tile_walk_scene(walk_block(4, 4, 4, 2, 1, 0), std::stoi(v[1]), ty, tx);
      }));
  // 3 x 3 x 3 in 2 x 2 tiles: every edge ragged. It opens on block (0, 0) at the multiply of
  // its second tile, where thread (1, 1)'s sum takes the K padding's zeros.
  const Control ragged_thread{"thread", "thread (ty, tx)", {"0,0", "0,1", "1,0", "1,1"}, {}, "1,1"};
  out.push_back(course::fig::make(
      "05-ragged-tile", "A ragged edge: tiles padded with zeros",
      "A 3 x 3 by 3 x 3 product in 2 x 2 tiles: the grid covers 4 x 4, so the second tile along K "
      "and the blocks at the right and bottom hang over the edges. Hatched places of As and Bs are "
      "the zeros load_or_zero returns there, which add nothing to a sum: block (0, 0) multiplies "
      "them in its second tile. Hatched threads of C lie outside it: pick block (1, 1), whose "
      "threads there still store their share of every tile, reach every barrier, and only skip "
      "the write.",
      {block_control(2, 2, "0,0"), ragged_thread, phase_control(2, "6")},
      [](const std::vector<std::string>& v) {
        const auto [br, bc] = pair_of(v[0]);
        const auto [ty, tx] = pair_of(v[1]);
        return tile_walk_scene(walk_block(3, 3, 3, 2, br, bc), std::stoi(v[2]), ty, tx);
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson05
