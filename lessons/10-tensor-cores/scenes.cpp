/// \file scenes.cpp
/// \brief Lesson 10's pictures (given code, in both libraries): ldmatrix.x4 from the kernel's
/// addresses, beside the fragment mappings (yours in the exercise's library).
#include "lessons/10-tensor-cores/figures.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace lesson10 {

course::svg::Scene ldmatrix_scene(bool b_operand, int reg) {
  namespace svg = course::svg;
  constexpr int kN = 16;  // the tile: 16 rows of 16 bf16 (two 16-byte halves)
  const char letter = b_operand ? 'b' : 'a';
  // The address each lane gives, as (tile row, first k): the kernel's own offsets.
  std::vector<FragmentCoord> addr(32);
  for (int lane = 0; lane < 32; ++lane) {
    const FragmentCoord p = b_operand ? b_ldmatrix_row_on_host(lane) : a_ldmatrix_row_on_host(lane);
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
    if (!b_operand) return a_fragment_coord_on_host(lane, 2 * q + h);
    const FragmentCoord p = b_fragment_coord_on_host(lane, 2 * (q % 2) + h);  // (k, n)
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
