/// \file fragment_svg.hpp
/// \brief Lesson 10, given code: a picture of the fragments of `mma.sync.m16n8k16`, drawn with the
/// course's scene library (common/svg.hpp) from the mapping functions of mma_fragment.hpp (yours,
/// in the exercise build).
///
/// Three grids, A (16 x 16), B (16 x 8, k down, n across) and C (16 x 8): each cell is one element,
/// labelled with the lane that holds it (`T5`: lane 5) and which of its elements it is (`a3`), and
/// coloured by lane, so that the four lanes of a quad get neighbouring hues. A cell no lane claims
/// is drawn vermillion with a `?`; a cell several elements claim, vermillion with the count. Row 0
/// is at the top. Header-only: the lesson program writes the picture (--svg), the grader checks
/// it, the book shows it as the figure "10-fragments".
#pragma once

#include "mma_fragment.hpp"

#include "common/svg.hpp"

#include <string>
#include <utility>
#include <vector>

namespace lesson10 {
namespace svg_detail {

/// Who claims each cell of a rows x cols matrix: the (lane, element) pairs, in claim order.
struct Claims {
  int rows = 0, cols = 0;
  std::vector<std::vector<std::pair<int, int>>> cell;
  int outside = 0;  ///< claims that fell outside the matrix
};

template <typename F>
Claims claims_of(int rows, int cols, int elements, F coord) {
  Claims c;
  c.rows = rows, c.cols = cols;
  c.cell.resize(static_cast<std::size_t>(rows) * cols);
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < elements; ++i) {
      const FragmentCoord p = coord(lane, i);
      if (p.row < 0 || p.row >= rows || p.col < 0 || p.col >= cols) {
        ++c.outside;
        continue;
      }
      c.cell[static_cast<std::size_t>(p.row) * cols + p.col].push_back({lane, i});
    }
  }
  return c;
}

/// One matrix as a grid of cells at (x0, y0), with its title and its row and column numbers.
/// Cells held by exactly one element are class "lane", the others "hole" or "clash".
inline void draw(course::svg::Scene& s, const Claims& c, char letter, const std::string& title,
                 const std::string& row_name, const std::string& col_name, double x0, double y0,
                 double w, double h) {
  namespace svg = course::svg;
  const svg::Grid g{x0, y0, w, h, c.rows, c.cols};
  s.text(x0, y0 - 44, title, {13, svg::Anchor::kStart, true});
  s.text(x0, y0 - 26, row_name + " down, " + col_name + " across",
         {11, svg::Anchor::kStart, false, svg::kFaint});
  g.numbers(s, 0, 11);
  for (int row = 0; row < c.rows; ++row) {
    for (int col = 0; col < c.cols; ++col) {
      const auto& who = c.cell[static_cast<std::size_t>(row) * c.cols + col];
      if (who.size() == 1) {
        const auto [lane, i] = who[0];
        s.cell(g.left(col), g.top(row), w, h, svg::wheel(lane, 32),
               "T" + std::to_string(lane) + "\n" + letter + std::to_string(i), "lane",
               "lane " + std::to_string(lane) + ", " + letter + std::to_string(i) + ": " +
                   row_name + " " + std::to_string(row) + ", " + col_name + " " +
                   std::to_string(col),
               11);
      } else {
        s.cell(g.left(col), g.top(row), w, h, svg::tint(svg::kVermillion, 0.3),
               who.empty() ? "?" : "×" + std::to_string(who.size()), who.empty() ? "hole" : "clash",
               who.empty() ? "no lane holds this element" : "several elements claim this place",
               11);
      }
    }
  }
  // The 8 x 8 quarters: ldmatrix moves one of them per register.
  g.edges(s, 8, 8, svg::kInk, 2);
}

}  // namespace svg_detail

/// The three fragments of mma.sync.m16n8k16 (bf16 inputs, fp32 accumulators) as a scene, drawn
/// from a_fragment_coord_on_host(), b_fragment_coord_on_host() and c_fragment_coord_on_host().
/// \throws course::NotImplemented when a mapping is still a stub
inline course::svg::Scene fragment_scene() {
  namespace svg = course::svg;
  using svg_detail::Claims;
  const Claims a = svg_detail::claims_of(16, 16, kAFragment, a_fragment_coord_on_host);
  const Claims b = svg_detail::claims_of(16, 8, kBFragment, b_fragment_coord_on_host);
  const Claims c = svg_detail::claims_of(16, 8, kCFragment, c_fragment_coord_on_host);
  svg::Scene s("The fragments of mma.sync.m16n8k16",
               "Three grids: A, 16 x 16 bf16; B, 16 x 8 bf16 (k down, n across); C and D, 16 x 8 "
               "fp32. Each cell is one element, labelled with the lane that holds it (T0 to T31) "
               "and which of the lane's elements it is (a0 to a7, b0 to b3, c0 to c3), coloured "
               "by lane. Thick lines mark the 8 x 8 quarters that one ldmatrix register carries.");
  // A and B side by side as the instruction multiplies them; C under A, whose left half it
  // mirrors, and the notes beside it.
  constexpr double kW = 30, kH = 28, kTop = 100, kLeft = 34, kGap = 40;
  const double xb = kLeft + 16 * kW + kGap, yc = kTop + 16 * kH + 76;
  s.text(12, 22, "mma.sync.aligned.m16n8k16, bf16 in, fp32 accumulators: which lane holds what",
         {15, svg::Anchor::kStart, true});
  svg_detail::draw(s, a, 'a', "A: 16 x 16 bf16, 4 registers a lane", "row", "k", kLeft, kTop, kW,
                   kH);
  svg_detail::draw(s, b, 'b', "B: 16 x 8 bf16, 2 registers", "k", "n", xb, kTop, kW, kH);
  svg_detail::draw(s, c, 'c', "C, D: 16 x 8 fp32, 4 registers", "row", "n", kLeft, yc, kW, kH);
  const double nx = kLeft + 8 * kW + 30;
  double y = yc + 12;
  for (const char* line :
       {"Lane L is in quad group L / 4: one row", "of A and C, one column of B, at position",
        "L % 4 in it.", "", "Two bf16 share a 32-bit register:",
        "elements 2j and 2j + 1 are register j.", "", "Thick lines: the 8 x 8 pieces that one",
        "ldmatrix register carries. A's registers", "0-3: top left, bottom left, top right,",
        "bottom right. C is laid out as A's left", "half; B, the same pattern transposed."}) {
    if (*line) s.text(nx, y, line, {13, svg::Anchor::kStart});
    y += 20;
  }
  const int bad = a.outside + b.outside + c.outside;
  if (bad > 0) {
    s.text(nx, y + 20, std::to_string(bad) + " element(s) mapped outside their matrix",
           {13, svg::Anchor::kStart, true, svg::kVermillion});
  }
  return s;
}

/// The picture as a standalone SVG document (what `make lesson-10` writes with --svg).
/// \throws course::NotImplemented when a mapping is still a stub
inline std::string fragment_svg() {
  return fragment_scene().str();
}

}  // namespace lesson10
