/// \file figures.cpp
/// \brief Lesson 02's figures: a 1D and a 2D launch, emulated thread by thread with the index
/// functions (the book shows the reference's, `make lesson-2` draws yours).
#include "lessons/02-dispatch/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson02 {

namespace {

/// The array both figures launch over: small enough to label every thread.
constexpr int kN = 20;
constexpr int kWidth = 12, kHeight = 7;

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "02-launch-1d", "A 1D launch and its guard",
      "A 1D launch over n = 20 elements: each thread's global index is blockIdx.x * blockDim.x + "
      "threadIdx.x, and the grid is rounded up to whole blocks. Change the block size and watch "
      "the over-launched threads past n (hatched) appear: the guard stops them before they write.",
      {Control{"block", "blockDim.x", {"4", "6", "8", "16", "32"}, {}, "8"}},
      [](const std::vector<std::string>& v) { return launch_1d_scene(kN, std::stoi(v[0])); }));

  const std::vector<std::string> shapes{"4x2", "4x4", "8x4", "8x8", "16x2", "16x4", "32x1"};
  out.push_back(course::fig::make(
      "02-launch-2d", "A 2D launch over a 12 x 7 array",
      "A 2D launch over an array 12 wide and 7 high, one cell per thread, coloured by block. "
      "Change the block shape: the grid rounds each axis up, the threads past the right and "
      "bottom edges are hatched (the guard stops them), and the thin lines show how each block "
      "is cut into warps of 32, row by row.",
      {Control{"block", "block (x by y)", shapes, {}, "8x4"}},
      [](const std::vector<std::string>& v) {
        const std::size_t by = v[0].find('x');
        return launch_2d_scene(kWidth, kHeight, std::stoi(v[0].substr(0, by)),
                               std::stoi(v[0].substr(by + 1)));
      }));
  out.push_back(course::fig::make(
      "02-worked-example", "The 6 x 4 example",
      "The worked example: an array 4 wide and 6 high in blocks of 2 x 2 threads, a grid of 2 x 3 "
      "blocks. Each cell gives the (row, column) its thread computed, its threadIdx and its warp "
      "and lane: every block is one warp with 28 of its 32 lanes idle.",
      {}, [](const std::vector<std::string>&) { return launch_2d_scene(4, 6, 2, 2); }));
  out.push_back(course::fig::make(
      "02-launch-ragged", "A ragged launch: 40 x 20 in blocks of 16 x 8",
      "40 x 20 elements in blocks of 16 x 8 threads (four warps of two rows each, shaded "
      "alternately), a grid of 3 x 3 blocks: the hatched threads past the array's right and bottom "
      "edges are stopped by the guard. The GPU's records equal this emulated launch's.",
      {}, [](const std::vector<std::string>&) { return launch_2d_scene(40, 20, 16, 8); }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson02
