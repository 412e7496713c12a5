/// \file fragment_svg.hpp
/// \brief Lesson 10, given code: a picture of the fragments of `mma.sync.m16n8k16` as a standalone
/// SVG, drawn from the mapping functions of mma_fragment.hpp (yours, in the exercise build).
///
/// Three grids, A (16 x 16), B (16 x 8, k down, n across) and C (16 x 8): each cell is one element,
/// labelled with the lane that holds it (`T5`: lane 5) and which of its elements it is (`a3`), and
/// coloured by lane, so that the four lanes of a quad get neighbouring hues. A cell no lane claims
/// is drawn red with a `?`; a cell two elements claim is drawn red with the count. Row 0 is at the
/// top. Header-only: the lesson program writes the picture, the grader checks it.
#pragma once

#include "mma_fragment.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace lesson10 {
namespace svg_detail {

/// "#rrggbb" for a hue in degrees at fixed saturation and lightness.
inline std::string lane_colour(int lane) {
  // HSL with saturation 0.7 and lightness 0.78: pastel, so that the black labels stay legible.
  const double h = std::fmod(lane * 360.0 / 32.0 + 200.0, 360.0) / 60.0;
  const double c = (1.0 - std::fabs(2 * 0.78 - 1.0)) * 0.7;
  const double x = c * (1.0 - std::fabs(std::fmod(h, 2.0) - 1.0)), m = 0.78 - c / 2;
  double r = 0, g = 0, b = 0;
  if (h < 1) {
    r = c, g = x;
  } else if (h < 2) {
    r = x, g = c;
  } else if (h < 3) {
    g = c, b = x;
  } else if (h < 4) {
    g = x, b = c;
  } else if (h < 5) {
    r = x, b = c;
  } else {
    r = c, b = x;
  }
  char buf[8];
  auto u8 = [&](double v) {
    return static_cast<int>(std::lround(std::fmin(std::fmax(v + m, 0.0), 1.0) * 255));
  };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", u8(r), u8(g), u8(b));
  return buf;
}

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
inline void draw(std::ostringstream& o, const Claims& c, char letter, const std::string& title,
                 const char* row_name, const char* col_name, int x0, int y0, int cell) {
  o << "<text x=\"" << x0 << "\" y=\"" << y0 - 30 << "\" class=\"title\">" << title << "</text>\n";
  o << "<text x=\"" << x0 + c.cols * cell / 2 << "\" y=\"" << y0 - 14
    << "\" class=\"axis\" text-anchor=\"middle\">" << col_name << " →</text>\n";
  for (int col = 0; col < c.cols; ++col) {
    o << "<text x=\"" << x0 + col * cell + cell / 2 << "\" y=\"" << y0 - 3
      << "\" class=\"num\" text-anchor=\"middle\">" << col << "</text>\n";
  }
  o << "<text x=\"" << x0 - 22 << "\" y=\"" << y0 - 3 << "\" class=\"axis\" text-anchor=\"end\">"
    << row_name << " ↓</text>\n";
  for (int row = 0; row < c.rows; ++row) {
    o << "<text x=\"" << x0 - 4 << "\" y=\"" << y0 + row * cell + cell / 2 + 4
      << "\" class=\"num\" text-anchor=\"end\">" << row << "</text>\n";
    for (int col = 0; col < c.cols; ++col) {
      const auto& who = c.cell[static_cast<std::size_t>(row) * c.cols + col];
      const int x = x0 + col * cell, y = y0 + row * cell;
      const bool ok = who.size() == 1;
      o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell << "\" height=\"" << cell
        << "\" fill=\"" << (ok ? lane_colour(who[0].first) : std::string("#ff6b6b"))
        << "\" class=\"cell\"/>\n";
      if (ok) {
        o << "<text x=\"" << x + cell / 2 << "\" y=\"" << y + cell / 2 - 2
          << "\" class=\"lane\" text-anchor=\"middle\">T" << who[0].first << "</text>\n";
        o << "<text x=\"" << x + cell / 2 << "\" y=\"" << y + cell / 2 + 10
          << "\" class=\"elem\" text-anchor=\"middle\">" << letter << who[0].second << "</text>\n";
      } else {
        o << "<text x=\"" << x + cell / 2 << "\" y=\"" << y + cell / 2 + 4
          << "\" class=\"lane\" text-anchor=\"middle\">"
          << (who.empty() ? std::string("?") : "×" + std::to_string(who.size())) << "</text>\n";
      }
    }
  }
  // The 8 x 8 quarters: ldmatrix moves one of them per register.
  for (int row = 0; row <= c.rows; row += 8) {
    o << "<line x1=\"" << x0 << "\" y1=\"" << y0 + row * cell << "\" x2=\"" << x0 + c.cols * cell
      << "\" y2=\"" << y0 + row * cell << "\" class=\"quarter\"/>\n";
  }
  for (int col = 0; col <= c.cols; col += 8) {
    o << "<line x1=\"" << x0 + col * cell << "\" y1=\"" << y0 << "\" x2=\"" << x0 + col * cell
      << "\" y2=\"" << y0 + c.rows * cell << "\" class=\"quarter\"/>\n";
  }
}

}  // namespace svg_detail

/// The three fragments of mma.sync.m16n8k16 (bf16 inputs, fp32 accumulators) as an SVG document,
/// drawn from a_fragment_coord_on_host(), b_fragment_coord_on_host() and
/// c_fragment_coord_on_host(). \throws course::NotImplemented when a mapping is still a stub
inline std::string fragment_svg() {
  using svg_detail::Claims;
  const Claims a = svg_detail::claims_of(16, 16, kAFragment, a_fragment_coord_on_host);
  const Claims b = svg_detail::claims_of(16, 8, kBFragment, b_fragment_coord_on_host);
  const Claims c = svg_detail::claims_of(16, 8, kCFragment, c_fragment_coord_on_host);
  constexpr int kCell = 34, kTop = 78, kLeft = 72, kGap = 80;
  const int xa = kLeft, xb = xa + 16 * kCell + kGap, xc = xb + 8 * kCell + kGap;
  const int width = xc + 8 * kCell + 20, height = kTop + 16 * kCell + 58;
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"sans-serif\">\n"
    << "<style>.title{font-size:15px;font-weight:bold}.axis{font-size:11px;fill:#555}"
       ".num{font-size:9px;fill:#777}.lane{font-size:10px;font-weight:bold}"
       ".elem{font-size:9px;fill:#333}.cell{stroke:#ffffff;stroke-width:1}"
       ".quarter{stroke:#222;stroke-width:2}</style>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    << "<text x=\"" << kLeft << "\" y=\"22\" style=\"font-size:16px\">mma.sync.aligned.m16n8k16"
    << ".row.col.f32.bf16.bf16.f32: which lane (T0 .. T31) holds which element (a0 .. a7, "
       "b0 .. b3, c0 .. c3)</text>\n";
  svg_detail::draw(o, a, 'a', "A: 16 x 16 bf16, 4 registers a lane", "row", "k", xa, kTop, kCell);
  svg_detail::draw(o, b, 'b', "B: 16 x 8 bf16, 2 registers", "k", "n", xb, kTop, kCell);
  svg_detail::draw(o, c, 'c', "C, D: 16 x 8 fp32, 4 registers", "row", "n", xc, kTop, kCell);
  o << "<text x=\"" << kLeft << "\" y=\"" << kTop + 16 * kCell + 28 << "\" class=\"axis\">"
    << "Lane L is in quad group L / 4 (one row of A and C, one column of B) at position L % 4. "
       "Two bf16 share a 32-bit register: elements 2j and 2j + 1 are register j. Thick lines: the "
       "8 x 8 pieces that one ldmatrix register carries.</text>\n";
  const int bad = a.outside + b.outside + c.outside;
  if (bad > 0) {
    o << "<text x=\"" << kLeft << "\" y=\"" << kTop + 16 * kCell + 46
      << "\" class=\"axis\" style=\"fill:#c00\">" << bad
      << " element(s) mapped outside their matrix</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace lesson10
