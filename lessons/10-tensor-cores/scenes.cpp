/// \file scenes.cpp
/// \brief Lesson 10's pictures (given code, compiled with each library): the fragments of mma.sync,
/// and ldmatrix.x4 from the kernel's addresses beside them, both from the fragment mappings (yours
/// in the exercise's library).
#include "lessons/10-tensor-cores/figures.hpp"
#include "calls-yours/lane_offsets.hpp"  // a_ldmatrix_row, b_ldmatrix_row
#include "mma_sync_parts.cuh"            // your fragment mappings, or the reference's

#include <algorithm>
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

course::svg::Scene fragment_scene() {
  namespace svg = course::svg;
  using svg_detail::Claims;
  const Claims a = svg_detail::claims_of(16, 16, kAFragment, a_fragment_coord);
  const Claims b = svg_detail::claims_of(16, 8, kBFragment, b_fragment_coord);
  const Claims c = svg_detail::claims_of(16, 8, kCFragment, c_fragment_coord);
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

std::string fragment_svg() {
  return fragment_scene().str();
}

course::svg::Scene ldmatrix_scene(bool b_operand, int reg) {
  namespace svg = course::svg;
  constexpr int kN = 16;  // the tile: 16 rows of 16 bf16 (two 16-byte halves)
  const char letter = b_operand ? 'b' : 'a';
  // The address each lane gives, as (tile row, first k): the kernel's own offsets.
  std::vector<FragmentCoord> addr(32);
  for (int lane = 0; lane < 32; ++lane) {
    const FragmentCoord p = b_operand ? b_ldmatrix_row(lane) : a_ldmatrix_row(lane);
    addr[lane] = b_operand ? FragmentCoord{p.col, p.row} : p;  // B: row n, k along it
  }
  // What ldmatrix.x4 delivers: register q of lane L holds row L / 4 of matrix q (the row lane
  // 8q + L / 4 points at), values 2 (L % 4) and 2 (L % 4) + 1 of it.
  struct Got {
    int lane, q, h;
  };
  std::vector<std::vector<Got>> got(kN * kN);
  int outside = 0;
  for (int lane = 0; lane < 32; ++lane) {
    for (int q = 0; q < 4; ++q) {
      for (int h = 0; h < 2; ++h) {
        const FragmentCoord row = addr[8 * q + lane / 4];
        const int r = row.row, k = row.col + 2 * (lane % 4) + h;
        if (r < 0 || r >= kN || k < 0 || k >= kN) {
          ++outside;
          continue;
        }
        got[r * kN + k].push_back({lane, q, h});
      }
    }
  }
  // Where your mapping puts element (q, h) of a lane, in the same coordinates.
  auto mapped = [&](int lane, int q, int h) {
    if (!b_operand) return a_fragment_coord(lane, 2 * q + h);
    const FragmentCoord p = b_fragment_coord(lane, 2 * (q % 2) + h);  // (k, n)
    return FragmentCoord{p.col + 8 * (q / 2), p.row};
  };
  auto element = [&](int q, int h) {
    return std::string(1, letter) + std::to_string(b_operand ? 2 * (q % 2) + h : 2 * q + h);
  };

  const std::string what = b_operand ? "B, two n8 tiles" : "an A fragment";
  svg::Scene s(
      "ldmatrix.x4 loads " + what + ": register " + std::to_string(reg),
      "Left, the 16 x 16 tile in shared memory with the lane that gives the address of each "
      "16-byte half-row beside it; each element labelled with the lane and the fragment element "
      "ldmatrix delivers it to. The 8 x 8 piece that becomes register " +
          std::to_string(reg) + " is coloured by lane, its row addresses given by lanes " +
          std::to_string(8 * reg) + " to " + std::to_string(8 * reg + 7) + ". Right, register " +
          std::to_string(reg) + " of the 32 lanes.");
  s.text(12, 22,
         "ldmatrix.x4, " + what + ": lanes " + std::to_string(8 * reg) + "-" +
             std::to_string(8 * reg + 7) + " give the rows of register " + std::to_string(reg),
         {15, svg::Anchor::kStart, true});
  s.text(12, 44,
         "every lane then holds 2 values of it: row L / 4, k = 2 (L % 4) and one more (" +
             element(reg, 0) + ", " + element(reg, 1) +
             (b_operand ? std::string(" of n8 tile ") + (reg < 2 ? "1" : "2") : std::string()) +
             ")",
         {13, svg::Anchor::kStart});

  constexpr double kW = 28, kH = 30, kTop = 118, kLaneCol = 34, kHalfGap = 12;
  const double x0 = 40;
  auto cell_x = [&](int k) { return x0 + kLaneCol + k * kW + (k >= 8 ? kHalfGap + kLaneCol : 0); };
  const std::string rows_are = b_operand ? "n" : "row";
  s.text(x0, kTop - 50,
         b_operand ? "B's tile in shared memory: a row per n, k along it"
                   : "A's tile in shared memory: a row per row of A, k along it",
         {13, svg::Anchor::kStart, true});
  for (int half = 0; half < 2; ++half) {
    s.text(cell_x(8 * half) + 4 * kW, kTop - 28,
           "k " + std::to_string(8 * half) + "-" + std::to_string(8 * half + 7) + " (16 bytes)",
           {11, svg::Anchor::kMiddle, false, svg::kFaint});
    s.text(cell_x(8 * half) - 4, kTop - 8, "lane", {11, svg::Anchor::kEnd, false, svg::kFaint});
  }
  s.text(x0 - 4, kTop - 8, rows_are, {11, svg::Anchor::kEnd, false, svg::kFaint});
  for (int r = 0; r < kN; ++r) {
    s.text(x0 - 4, kTop + r * kH + kH / 2 + 4, std::to_string(r),
           {11, svg::Anchor::kEnd, false, svg::kFaint});
    for (int k = 0; k < kN; ++k) {
      const auto& who = got[r * kN + k];
      const double x = cell_x(k), y = kTop + r * kH;
      if (who.size() != 1) {
        s.cell(x, y, kW, kH, svg::tint(svg::kVermillion, 0.3),
               who.empty() ? "?" : "x" + std::to_string(who.size()), who.empty() ? "hole" : "clash",
               "", 11);
        continue;
      }
      const Got g = who[0];
      const bool picked = g.q == reg;
      s.cell(x, y, kW, kH, picked ? svg::wheel(g.lane, 32) : "#eeeeee",
             "T" + std::to_string(g.lane) + "\n" + element(g.q, g.h),
             "got " + std::to_string(r) + " " + std::to_string(k) + " " + std::to_string(g.lane) +
                 " " + std::to_string(g.q) + " " + std::to_string(g.h),
             "register " + std::to_string(g.q) + " of lane " + std::to_string(g.lane), 11);
      const FragmentCoord m = mapped(g.lane, g.q, g.h);
      if (m.row != r || m.col != k) {
        s.rect(x + 2, y + 2, kW - 4, kH - 4, "none", svg::kVermillion, 3, "mismatch",
               "your mapping puts " + element(g.q, g.h) + " of lane " + std::to_string(g.lane) +
                   " at (" + std::to_string(m.row) + ", " + std::to_string(m.col) + ")");
      }
    }
  }
  // The four 8 x 8 pieces, the picked one thickest.
  for (int q = 0; q < 4; ++q) {
    int r0 = kN, k0 = kN;
    for (int lane = 8 * q; lane < 8 * q + 8; ++lane) {
      r0 = std::min(r0, addr[lane].row), k0 = std::min(k0, addr[lane].col);
    }
    if (r0 < 0 || r0 > kN - 8 || k0 < 0 || k0 > kN - 8) continue;
    s.rect(cell_x(k0), kTop + r0 * kH, 8 * kW, 8 * kH, "none", svg::kInk, q == reg ? 4 : 1.5);
  }
  // The addresses: lane L beside the half-row it points at.
  for (int lane = 0; lane < 32; ++lane) {
    const FragmentCoord p = addr[lane];
    if (p.row < 0 || p.row >= kN || p.col < 0 || p.col >= kN) continue;
    const bool picked = lane / 8 == reg;
    const double x = cell_x(p.col), y = kTop + p.row * kH + kH / 2;
    s.text(x - 12, y + 4, std::to_string(lane),
           {11, svg::Anchor::kEnd, picked, picked ? svg::kInk : svg::kFaint});
    s.arrow(
        x - 11, y, x - 1, y, picked ? svg::kInk : svg::kGrey, picked ? 1.5 : 1,
        "addr " + std::to_string(lane) + " " + std::to_string(p.row) + " " + std::to_string(p.col));
  }

  // Register `reg` of every lane: quad groups down, positions across.
  const double rx = cell_x(15) + kW + 40, rw = 52;
  s.text(rx, kTop - 50, "register " + std::to_string(reg) + " of lane L",
         {13, svg::Anchor::kStart, true});
  s.text(rx, kTop - 28, "(" + rows_are + ", k) of its two values",
         {11, svg::Anchor::kStart, false, svg::kFaint});
  for (int lane = 0; lane < 32; ++lane) {
    const FragmentCoord m = mapped(lane, reg, 0);
    s.cell(rx + (lane % 4) * rw, kTop + (lane / 4) * kH * 2, rw, 2 * kH, svg::wheel(lane, 32),
           "T" + std::to_string(lane) + "\n" + std::to_string(m.row) + ", " +
               std::to_string(m.col) + "-" + std::to_string(m.col + 1),
           "register", "", 11);
  }
  double y = kTop + kN * kH + 28;
  s.text(12, y,
         "Grey: the other three pieces, carried by the other registers in the same instruction.",
         {12, svg::Anchor::kStart});
  if (outside > 0 || s.count("mismatch") > 0 || s.count("hole") > 0) {
    s.text(12, y + 22,
           "Outlined: an element your fragment mapping places elsewhere than ldmatrix delivers it.",
           {13, svg::Anchor::kStart, true, svg::kVermillion});
  }
  return s;
}

}  // namespace lesson10
