/// \file scenes.cpp
/// \brief Lesson 08's pictures (given code, compiled with each library): the warp tiling, placed by
/// thread_place(), and the butterfly, from butterfly_partner() (yours in the exercise's library).
#include "lessons/08-warp-shuffle/figures.hpp"
#include "warptiled_parts.cuh"  // thread_place: yours, or the reference's

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace lesson08 {

namespace {

std::string shape_name(const WarpTileShape& s) {
  return std::to_string(s.bm) + " x " + std::to_string(s.bn) + " block, " +
         std::to_string(s.warps()) + " warps of " + std::to_string(s.wm) + " x " +
         std::to_string(s.wn) + ", lanes " + std::to_string(s.tm) + " x " + std::to_string(s.tn) +
         " in " + std::to_string(s.wm_iter) + " x " + std::to_string(s.wn_iter) + " steps";
}

std::string number(float v) {
  return std::to_string(static_cast<long long>(std::lround(v)));
}

}  // namespace

course::svg::Scene warp_tiles_scene(const WarpTileShape& shape) {
  namespace svg = course::svg;
  const WarpTileShape& s = shape;
  svg::Scene sc("Warp tiling: " + shape_name(s),
                "On the left the " + std::to_string(s.bm) + " x " + std::to_string(s.bn) +
                    " block tile of C, each thread's results coloured by its warp, placed by "
                    "thread_place. On the right warp 0's " +
                    std::to_string(s.wm) + " x " + std::to_string(s.wn) +
                    " tile: " + std::to_string(s.wm_iter * s.wn_iter) + " sub-tiles of " +
                    std::to_string(s.sub_m()) + " x " + std::to_string(s.sub_n()) +
                    ", each covered by the 32 lanes' " + std::to_string(s.tm) + " x " +
                    std::to_string(s.tn) + " patches, labelled with the lane.");
  sc.text(12, 22, shape_name(s), {15, svg::Anchor::kStart, true});
  sc.text(12, 44,
          std::to_string(s.threads()) + " threads, each computing " + std::to_string(s.results()) +
              " results: " + std::to_string(s.wm_iter) + " x " + std::to_string(s.wn_iter) +
              " patches of " + std::to_string(s.tm) + " x " + std::to_string(s.tn) +
              ", one in every sub-tile of its warp",
          {13, svg::Anchor::kStart});

  // Who computes each element of the block tile, from thread_place (yours).
  std::vector<int> owner(static_cast<std::size_t>(s.bm) * s.bn, -1);
  int outside = 0;
  struct Patch {
    int tid, row, col;
  };
  std::vector<Patch> patches;
  for (int tid = 0; tid < s.threads(); ++tid) {
    const ThreadPlace p = thread_place(s, tid);
    for (int i = 0; i < s.wm_iter * s.tm; ++i) {
      for (int j = 0; j < s.wn_iter * s.tn; ++j) {
        const int r = result_row(s, p, i), c = result_col(s, p, j);
        if (r < 0 || r >= s.bm || c < 0 || c >= s.bn) {
          ++outside;
          continue;
        }
        int& o = owner[static_cast<std::size_t>(r) * s.bn + c];
        o = o == -1 ? tid : -2;
        if (i % s.tm == 0 && j % s.tn == 0) patches.push_back({tid, r, c});
      }
    }
  }

  // The block tile, scaled to fit 370 x 300 px.
  constexpr double kTop = 96;
  const double scale = std::min(370.0 / s.bn, 300.0 / s.bm);
  const double bx = 60;
  sc.text(bx, kTop - 30, "the block tile of C", {13, svg::Anchor::kStart, true});
  sc.text(bx, kTop - 12, "0", {11, svg::Anchor::kMiddle, false, svg::kFaint});
  sc.text(bx + s.bn * scale, kTop - 12, std::to_string(s.bn),
          {11, svg::Anchor::kMiddle, false, svg::kFaint});
  sc.text(bx - 6, kTop + 11, "0", {11, svg::Anchor::kEnd, false, svg::kFaint});
  sc.text(bx - 6, kTop + s.bm * scale, std::to_string(s.bm),
          {11, svg::Anchor::kEnd, false, svg::kFaint});
  for (const Patch& p : patches) {
    const int warp = p.tid / 32;
    sc.rect(
        bx + p.col * scale, kTop + p.row * scale, s.tn * scale, s.tm * scale,
        svg::wheel(warp, s.warps()), "none", 1,
        "t " + std::to_string(p.tid) + " " + std::to_string(p.row) + " " + std::to_string(p.col));
    sc.rect(bx + p.col * scale, kTop + p.row * scale, s.tn * scale, s.tm * scale, "none", "none", 0,
            "patch");
  }
  // Elements that no thread or several threads compute: a wrong placement shows here.
  for (int r = 0; r < s.bm; ++r) {
    for (int c = 0; c < s.bn; ++c) {
      const int o = owner[static_cast<std::size_t>(r) * s.bn + c];
      if (o >= 0) continue;
      sc.rect(bx + c * scale, kTop + r * scale, std::max(scale, 1.0), std::max(scale, 1.0),
              o == -1 ? "#ffffff" : svg::kVermillion, "none", 1, o == -1 ? "hole" : "clash");
    }
  }
  // The warp tiles: the extent of each warp's results, outlined and named.
  for (int w = 0; w < s.warps(); ++w) {
    int r0 = s.bm, r1 = -1, c0 = s.bn, c1 = -1;
    for (const Patch& p : patches) {
      if (p.tid / 32 != w) continue;
      r0 = std::min(r0, p.row), r1 = std::max(r1, p.row + s.tm);
      c0 = std::min(c0, p.col), c1 = std::max(c1, p.col + s.tn);
    }
    if (r1 < 0) continue;
    sc.rect(bx + c0 * scale, kTop + r0 * scale, (c1 - c0) * scale, (r1 - r0) * scale, "none",
            svg::kInk, w == 0 ? 3 : 1.5);
    sc.text(bx + (c0 + c1) / 2.0 * scale, kTop + (r0 + r1) / 2.0 * scale + 5,
            "warp " + std::to_string(w), {13, svg::Anchor::kMiddle, true});
  }

  // Warp 0's tile: every lane's patch, labelled with the lane.
  const double wx = bx + s.bn * scale + 60;
  const double unit = std::min(320.0 / s.wn, 320.0 / s.wm);
  sc.text(wx, kTop - 30, "warp 0's tile: lane l's patches", {13, svg::Anchor::kStart, true});
  for (const Patch& p : patches) {
    if (p.tid >= 32) continue;
    // Within warp 0's tile (it starts at the block's corner when thread_place is right).
    const ThreadPlace w0 = thread_place(s, 0);
    const int r = p.row - w0.warp_row * s.wm, c = p.col - w0.warp_col * s.wn;
    sc.cell(wx + c * unit, kTop + r * unit, s.tn * unit, s.tm * unit, svg::wheel(p.tid, 32),
            std::to_string(p.tid), "lane",
            "lane " + std::to_string(p.tid) + ": rows " + std::to_string(p.row) + "-" +
                std::to_string(p.row + s.tm - 1) + ", columns " + std::to_string(p.col) + "-" +
                std::to_string(p.col + s.tn - 1) + " of the block tile",
            11);
  }
  const svg::Grid subs{wx, kTop, s.sub_n() * unit, s.sub_m() * unit, s.wm_iter, s.wn_iter};
  subs.edges(sc, 1, 1, svg::kInk, 2.5);
  sc.text(wx, kTop - 12, "0", {11, svg::Anchor::kMiddle, false, svg::kFaint});
  sc.text(wx + s.wn * unit, kTop - 12, std::to_string(s.wn),
          {11, svg::Anchor::kMiddle, false, svg::kFaint});
  sc.text(wx - 6, kTop + s.wm * unit, std::to_string(s.wm),
          {11, svg::Anchor::kEnd, false, svg::kFaint});
  // From warp 0 on the left to its tile on the right.
  sc.line(bx + s.wn * scale, kTop, wx, kTop, svg::kGrey, 1, true);
  sc.line(bx + s.wn * scale, kTop + s.wm * scale, wx, kTop + s.wm * unit, svg::kGrey, 1, true);

  double y = kTop + std::max(s.bm * scale, s.wm * unit) + 30;
  sc.text(12, y,
          "Thick lines on the right: the " + std::to_string(s.wm_iter * s.wn_iter) +
              " sub-tiles of " + std::to_string(s.sub_m()) + " x " + std::to_string(s.sub_n()) +
              "; in each, the lanes sit " + std::to_string(s.lane_rows()) + " x " +
              std::to_string(s.lane_cols()) + ", row by row.",
          {13, svg::Anchor::kStart});
  y += 20;
  const int holes = sc.count("hole"), clashes = sc.count("clash");
  if (holes + clashes + outside > 0) {
    sc.text(12, y,
            "check thread_place: " + std::to_string(holes) +
                " elements computed by no thread "
                "(white),\n" +
                std::to_string(clashes) + " by several (vermillion), " + std::to_string(outside) +
                " results outside the tile",
            {13, svg::Anchor::kStart, true, svg::kVermillion});
  }
  return sc;
}

course::svg::Scene butterfly_scene(int stage) {
  namespace svg = course::svg;
  const int distance = kWarpSize >> stage;
  std::array<float, kWarpSize> start{};
  for (int l = 0; l < kWarpSize; ++l) start[l] = static_cast<float>(l);
  const auto stages = emulate_butterfly(start);  // calls your butterfly_partner
  const std::array<float, kWarpSize>& before = stage == 1 ? start : stages[stage - 2];
  const std::array<float, kWarpSize>& after = stages[stage - 1];

  svg::Scene s("The butterfly, stage " + std::to_string(stage) + " of 5: distance " +
                   std::to_string(distance),
               "The 32 lanes' values before the stage on top, after it below. An arrow runs from "
               "each lane's partner, lane XOR " +
                   std::to_string(distance) +
                   ", to the lane: every lane adds its partner's value to its own. After stage " +
                   std::to_string(stage) + " every lane holds a sum of " +
                   std::to_string(1 << stage) + " of the starting values.");
  s.text(12, 22,
         "stage " + std::to_string(stage) + ": every lane l adds the value of lane l XOR " +
             std::to_string(distance) + " (butterfly_partner)",
         {15, svg::Anchor::kStart, true});
  s.text(12, 44,
         "lane l starts with l; after this stage each lane holds a sum of " +
             std::to_string(1 << stage) + " values" + (stage == 5 ? ": 496, in every lane" : ""),
         {13, svg::Anchor::kStart});
  constexpr double kX = 70, kCell = 24, kTop = 92, kGap = 150;
  s.text(kX - 8, kTop - 8, "lane", {11, svg::Anchor::kEnd, false, svg::kFaint});
  s.text(kX - 8, kTop + 16, "before", {11, svg::Anchor::kEnd, false, svg::kFaint});
  s.text(kX - 8, kTop + kCell + kGap + 16, "after", {11, svg::Anchor::kEnd, false, svg::kFaint});
  for (int l = 0; l < kWarpSize; ++l) {
    const double x = kX + l * kCell;
    s.text(x + kCell / 2, kTop - 8, std::to_string(l),
           {11, svg::Anchor::kMiddle, false, svg::kFaint});
    s.cell(x, kTop, kCell, kCell, svg::wheel(l, kWarpSize), number(before[l]), "", "", 11);
    s.cell(x, kTop + kCell + kGap, kCell, kCell, svg::wheel(l, kWarpSize), number(after[l]),
           "after " + std::to_string(l) + " " + number(after[l]), "", 11);
    const int p = butterfly_partner(l, distance);  // yours
    if (p < 0 || p >= kWarpSize) continue;
    // The partner's value comes down a crossing line; the lane's own straight down.
    s.line(x + kCell / 2, kTop + kCell, x + kCell / 2, kTop + kCell + kGap, svg::kGrey, 1, true);
    s.arrow(kX + p * kCell + kCell / 2, kTop + kCell + 2, x + kCell / 2, kTop + kCell + kGap - 2,
            p < l ? svg::kBlue : svg::kOrange, 1.3,
            "from " + std::to_string(p) + " to " + std::to_string(l));
  }
  const double y = kTop + 2 * kCell + kGap + 36;
  s.legend(kX, y,
           {{"line:" + std::string(svg::kOrange), "the partner's value, from a higher lane"},
            {"line:" + std::string(svg::kBlue), "the partner's value, from a lower lane"},
            {"line:" + std::string(svg::kGrey), "the lane's own value, added to it"}});
  return s;
}

course::svg::Scene quad_scene() {
  namespace svg = course::svg;
  // What each quad lane loads, and what each needs: lane q owns C[r0 + q / 2][c0 + q % 2].
  const char* loads[4] = {"A[r0][k]", "A[r0+1][k]", "B[k][c0]", "B[k][c0+1]"};
  const char* owns[4] = {"C[r0][c0]", "C[r0][c0+1]", "C[r0+1][c0]", "C[r0+1][c0+1]"};
  int a_src[4], b_src[4];
  for (int q = 0; q < 4; ++q) a_src[q] = quad_a_source(q), b_src[q] = quad_b_source(q);  // yours
  svg::Scene s("The quad's exchange",
               "Four lanes of a quad each load one operand at step k, then each reads its A "
               "operand and its B operand from the lanes that loaded them (quad_a_source, "
               "quad_b_source), by two shuffles of width 4, and adds their product to its own "
               "element of C.");
  s.text(12, 24, "One quad at step k: four loads, two shuffles a lane, four FMAs",
         {15, svg::Anchor::kStart, true});
  constexpr double kW = 150, kGap = 40, kX = 40, kTop = 70, kBottom = 250, kH = 46;
  auto x_of = [&](int q) { return kX + q * (kW + kGap); };
  s.text(12, kTop - 12, "loads from global memory:", {12, svg::Anchor::kStart, false, svg::kFaint});
  for (int q = 0; q < 4; ++q) {
    const std::string fill = svg::tint(q < 2 ? svg::kOrange : svg::kSky, 0.55);
    s.cell(x_of(q), kTop, kW, kH, fill, "lane " + std::to_string(q) + "\nloads " + loads[q], "", "",
           12);
  }

  std::vector<std::string> wrong;
  for (int q = 0; q < 4; ++q) {
    const int need_a = q / 2, need_b = 2 + q % 2;  // the lanes that loaded what q needs
    s.cell(x_of(q), kBottom, kW, kH, svg::tint(svg::kGreen, 0.7),
           "lane " + std::to_string(q) + "\n" + owns[q] + " +=", "", "", 12);
    // The two arrows: into the left and right thirds of the lane's box.
    const struct {
      int src, need;
      const char* op;
      double dx;
      const char* colour;
    } arrows[2] = {{a_src[q], need_a, "a", kW / 3, svg::kOrange},
                   {b_src[q], need_b, "b", 2 * kW / 3, svg::kBlue}};
    for (const auto& ar : arrows) {
      const bool valid = ar.src >= 0 && ar.src < 4;
      const bool right = ar.src == ar.need;
      const std::string cls = std::string(ar.op) + " " + std::to_string(ar.src) + " " +
                              std::to_string(q) + (right ? "" : " wrong");
      if (valid) {
        s.arrow(x_of(ar.src) + kW / 2, kTop + kH + 2, x_of(q) + ar.dx, kBottom - 3,
                right ? ar.colour : svg::kVermillion, right ? 1.8 : 2.6, cls);
      }
      if (!right) {
        wrong.push_back(
            "lane " + std::to_string(q) + " reads its " + (ar.op[0] == 'a' ? "A" : "B") +
            " operand from lane " + std::to_string(ar.src) +
            (valid ? std::string(", which loaded ") + loads[ar.src] : ", not a quad lane") +
            "; it needs " + loads[ar.need] + ", lane " + std::to_string(ar.need) + "'s");
      }
    }
  }
  s.text(12, kBottom + kH + 20,
         "below: each lane reads its A and its B by a shuffle from the lanes above, and adds their "
         "product to its element of C",
         {12, svg::Anchor::kStart, false, svg::kFaint});
  double y = kBottom + kH + 50;
  y = s.legend(kX, y,
               {{"line:" + std::string(svg::kOrange), "the A operand: quad_a_source(q)"},
                {"line:" + std::string(svg::kBlue), "the B operand: quad_b_source(q)"}});
  for (const std::string& w : wrong) {
    s.text(12, y + 4, w, {12, svg::Anchor::kStart, true, svg::kVermillion});
    y += 18;
  }
  return s;
}

}  // namespace lesson08
