/// \file figures.cpp
/// \brief Lesson 07's figures: what the book shows and `make lesson-7` draws of your code.
#include "lessons/07-register-tiling/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson07 {

namespace {

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  std::vector<course::fig::Figure> out;

  std::vector<std::string> steps;
  for (int k = 0; k < 8; ++k) steps.push_back(std::to_string(k));
  out.push_back(course::fig::make(
      "07-outer-product", "A thread's outer product",
      "A 16 x 16 block tile with 4 x 4 results per thread, drawn from thread_tile_2d_multiply and "
      "thread_tile_2d_write. At each step k the thread reads 4 values of column k of As and 4 of "
      "row k of Bs (orange) and adds all 16 of their products to its accumulators, one for each "
      "cell of its tile of C. Move k and watch the same accumulators collect the next products; "
      "pick another thread and watch its slices of As and Bs move with its tile.",
      {Control{"thread", "thread", {"0", "1", "6", "15"}, {}, "6"},
       Control{"k", "step k", steps, {}, "", true}},
      [](const std::vector<std::string>& v) {
        return outer_product_scene(std::stoi(v[0]), std::stoi(v[1]));
      }));

  out.push_back(course::fig::make(
      "07-float4", "float4 loads and stores of a thread tile",
      "Step 3 on a 16 x 64 block tile, 8 x 8 results per thread in groups of 4 x 4, drawn from "
      "vectorized_2d_multiply and vectorized_2d_write. Each outlined group is four consecutive "
      "floats that one 128-bit instruction moves: two of row k of As (A transposed) and two of "
      "Bs per thread and step, and 16 stores into C. Pick the quarter-warp and see its 8 threads "
      "read 32 consecutive words of Bs, one per bank.",
      {Control{"who",
               "threads",
               {"0", "1", "8", "q0", "q1"},
               {"thread 0", "thread 1", "thread 8", "threads 0-7", "threads 8-15"},
               "0"}},
      [](const std::vector<std::string>& v) {
        const std::string& w = v[0];
        if (w == "q0") return float4_scene(0, 8);
        if (w == "q1") return float4_scene(8, 8);
        return float4_scene(std::stoi(w), 1);
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson07
