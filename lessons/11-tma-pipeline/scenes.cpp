/// \file scenes.cpp
/// \brief Lesson 11's pictures (given code, compiled with each library): tile orders from
/// tile_at(), the persistent grid's blocks from WholeTiles::unit(), the ring from the CPU model
/// (ring_model.hpp) driven by the ring protocol of the library (yours in the exercise's), the
/// swizzle from staging_offset().
#include "lessons/11-tma-pipeline/figures.hpp"

#include "lessons/11-tma-pipeline/staging_layout.hpp"
#include "lessons/11-tma-pipeline/tma_pipeline.hpp"
#include "lessons/11-tma-pipeline/your_ring.hpp"  // ring_protocol: yours, or the reference's

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace lesson11 {

namespace {

namespace svg = course::svg;
using std::to_string;

std::string order_name(FigureOrder o) {
  if (o.order == TileOrder::kHilbert) return "a Hilbert curve";
  return o.group == 1 ? "row order" : "bands of " + to_string(o.group) + " tile rows";
}

std::string mib(long long bytes) {
  return to_string(bytes >> 20) + " MiB";
}

// Splits `s` into lines of at most `width` characters, at spaces.
std::string wrap(const std::string& s, std::size_t width) {
  std::string out, line, word;
  std::size_t i = 0;
  while (i <= s.size()) {
    if (i == s.size() || s[i] == ' ') {
      if (!line.empty() && line.size() + 1 + word.size() > width) {
        out += line + "\n";
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
      word.clear();
    } else {
      word += s[i];
    }
    ++i;
  }
  return out + line;
}

const std::string kLater = "#f4f4f4";

}  // namespace

// ---- The tile orders ----------------------------------------------------------------------------

course::svg::Scene tile_order_scene(int size, FigureOrder order, int wave) {
  const int tm = (size + kFigureBlockM - 1) / kFigureBlockM;
  const int tn = (size + kFigureBlockN - 1) / kFigureBlockN;
  const int tiles = tm * tn, waves = (tiles + kFigureSms - 1) / kFigureSms;
  const int first = std::min(tiles, (wave - 1) * kFigureSms);
  const int last = std::min(tiles, wave * kFigureSms);
  std::vector<TileCoord> at(tiles);
  for (int t = 0; t < tiles; ++t) at[t] = tile_at(t, tm, tn, order.order, order.group);
  std::set<int> rows, cols;  // of A and B, read by the wave's tiles
  for (int t = first; t < last; ++t) rows.insert(at[t].m), cols.insert(at[t].n);

  const long long a_row = 1LL * kFigureBlockM * size * 2, b_col = 1LL * kFigureBlockN * size * 2;
  svg::Scene s("The tiles of a " + to_string(size) + "^3 GEMM in " + order_name(order) + ", wave " +
                   to_string(wave),
               "A grid of " + to_string(tm) + " by " + to_string(tn) +
                   " output tiles of 128 by 256, walked in " + order_name(order) +
                   " by tile_at. The " + to_string(last - first) + " tiles of wave " +
                   to_string(wave) + " are highlighted and joined in order; they read " +
                   to_string(rows.size()) + " tile rows of A and " + to_string(cols.size()) +
                   " tile columns of B.");
  s.text(12, 24,
         to_string(size) + "^3 in 128 x 256 tiles, " + order_name(order) + ": wave " +
             to_string(wave) + " of " + to_string(waves),
         {15, svg::Anchor::kStart, true});
  s.text(12, 46,
         "tiles " + to_string(first) + " to " + to_string(last - 1) + ", one on each of " +
             to_string(last - first) + " SMs, read " + to_string(rows.size()) + " of " +
             to_string(tm) + " tile rows of A (" + mib(rows.size() * a_row) + ")",
         {13, svg::Anchor::kStart});
  s.text(12, 66,
         "and " + to_string(cols.size()) + " of " + to_string(tn) + " tile columns of B (" +
             mib(cols.size() * b_col) + "): " + mib(rows.size() * a_row + cols.size() * b_col) +
             " of A and B for L2 to hold at once",
         {13, svg::Anchor::kStart});

  svg::Grid g;
  g.x = 76, g.y = 112, g.rows = tm, g.cols = tn;
  g.w = 544.0 / tn, g.h = 544.0 / tm;
  // A's tile rows on the left, B's tile columns on top: blue where the wave reads them.
  for (int r = 0; r < tm; ++r) {
    const bool read = rows.count(r) > 0;
    s.rect(g.x - 26, g.top(r), 18, g.h, read ? svg::tint(svg::kBlue, 0.4) : kLater, "#ffffff", 1,
           read ? "a-row" : "");
  }
  for (int c = 0; c < tn; ++c) {
    const bool read = cols.count(c) > 0;
    s.rect(g.left(c), g.y - 26, g.w, 18, read ? svg::tint(svg::kBlue, 0.4) : kLater, "#ffffff", 1,
           read ? "b-col" : "");
  }
  s.text(g.x - 17, g.bottom() + 18, "A", {13, svg::Anchor::kMiddle, true});
  s.text(g.right() + 8, g.y - 12, "B", {13, svg::Anchor::kStart, true});
  for (int t = 0; t < tiles; ++t) {
    const std::string fill = t < first  ? svg::tint(svg::kGrey, 0.6)
                             : t < last ? svg::tint(svg::kOrange, 0.35)
                                        : kLater;
    s.rect(g.left(at[t].n) + 0.5, g.top(at[t].m) + 0.5, g.w - 1, g.h - 1, fill, "none", 0, "tile",
           "t=" + to_string(t) + " m=" + to_string(at[t].m) + " n=" + to_string(at[t].n));
  }
  // The order within the wave: a line from each tile to the next.
  for (int t = first; t + 1 < last; ++t) {
    s.line(g.cx(at[t].n), g.cy(at[t].m), g.cx(at[t + 1].n), g.cy(at[t + 1].m), svg::kInk, 1.5);
  }
  if (first < last) {
    s.rect(g.cx(at[first].n) - 4, g.cy(at[first].m) - 4, 8, 8, svg::kVermillion);
  }
  g.edges(s, 0, 0, svg::kInk, 1);
  s.legend(
      g.x, g.bottom() + 44,
      {{svg::tint(svg::kOrange, 0.35),
        "wave " + to_string(wave) +
            ": the tiles in flight, one per SM (the line: their order, "
            "from the red square)"},
       {svg::tint(svg::kGrey, 0.6), "tiles of earlier waves"},
       {svg::tint(svg::kBlue, 0.4), "the tile rows of A (left) and columns of B (top) they read"}});
  return s;
}

// ---- The persistent grid ------------------------------------------------------------------------

course::svg::Scene persistent_scene(FigureOrder order, int wave) {
  constexpr int kSize = 4096;
  const int tm = kSize / kFigureBlockM, tn = kSize / kFigureBlockN, tiles = tm * tn;
  const WholeTiles::Params plan = WholeTiles::plan(tm, tn, kSize / 64, kFigureSms, 16);
  // Who takes which tile: every block's work units, as the kernel walks them.
  std::vector<int> owner(tiles, -1), unit(tiles, -1);
  std::vector<int> now(plan.grid, -1);  // each block's tile in the wave shown
  int waves = 0;
  for (int b = 0; b < plan.grid; ++b) {
    for (int u = 0;; ++u) {
      const WorkUnit w = WholeTiles::unit(plan, b, u);
      if (w.tile < 0) break;
      owner[w.tile] = b, unit[w.tile] = u;
      if (u == wave - 1) now[b] = w.tile;
      waves = std::max(waves, u + 1);
    }
  }
  const int busy =
      static_cast<int>(std::count_if(now.begin(), now.end(), [](int t) { return t >= 0; }));

  svg::Scene s("The persistent grid at 4096^3, " + order_name(order) + ", wave " + to_string(wave),
               "The 32 by 16 tiles of a 4096^3 GEMM, each labelled with the block (one per SM) "
               "that computes it: block b takes tiles b, b + 132, b + 264 and so on of the order, "
               "placed by tile_at. In wave " +
                   to_string(wave) + ", " + to_string(busy) + " of " + to_string(plan.grid) +
                   " blocks have a tile. Below, each block and the tile it computes in this wave.");
  s.text(12, 24,
         "A persistent grid of " + to_string(plan.grid) + " blocks at 4096^3, " +
             order_name(order) + ": wave " + to_string(wave) + " of " + to_string(waves),
         {15, svg::Anchor::kStart, true});
  s.text(12, 46,
         "each tile labelled with the block that computes it (WholeTiles::unit, then tile_at);",
         {13, svg::Anchor::kStart});
  s.text(12, 64,
         to_string(busy) + " blocks work in this wave" +
             (busy < plan.grid ? ", " + to_string(plan.grid - busy) + " wait for them" : ""),
         {13, svg::Anchor::kStart});

  svg::Grid g;
  g.x = 40, g.y = 96, g.rows = tm, g.cols = tn, g.w = 32, g.h = 17;
  for (int t = 0; t < tiles; ++t) {
    const TileCoord c = tile_at(t, tm, tn, order.order, order.group);
    const int u = unit[t] + 1;
    const std::string fill = u < wave    ? svg::tint(svg::kGrey, 0.6)
                             : u == wave ? svg::tint(svg::kOrange, 0.35)
                                         : kLater;
    s.cell(g.left(c.n), g.top(c.m), g.w, g.h, fill, to_string(owner[t]), "tile",
           "t=" + to_string(t) + " m=" + to_string(c.m) + " n=" + to_string(c.n) +
               " block=" + to_string(owner[t]) + " unit=" + to_string(unit[t]),
           11);
  }
  // Block 0's walk: its tiles, outlined and joined in the order it computes them.
  TileCoord prev{-1, -1};
  for (int u = 0;; ++u) {
    const WorkUnit w = WholeTiles::unit(plan, 0, u);
    if (w.tile < 0) break;
    const TileCoord c = tile_at(w.tile, tm, tn, order.order, order.group);
    s.rect(g.left(c.n) + 1, g.top(c.m) + 1, g.w - 2, g.h - 2, "none", svg::kVermillion, 2.5);
    if (prev.m >= 0) {
      s.arrow(g.cx(prev.n), g.top(prev.m) + g.h, g.cx(c.n), g.top(c.m), svg::kVermillion, 1.5);
    }
    prev = c;
  }
  g.edges(s, 0, 0, svg::kInk, 1);

  // The blocks, 12 a row: the tile each computes in this wave, or idle.
  // Four columns of 33 blocks beside the grid, as tall as it.
  const int per_col = (plan.grid + 3) / 4;
  const double x0 = g.right() + 24, y0 = g.y, w = 66, hh = g.rows * g.h / per_col;
  s.text(x0, y0 - 8, "block: its tile (row, column)",
         {12, svg::Anchor::kStart, false, svg::kFaint});
  for (int b = 0; b < plan.grid; ++b) {
    const double x = x0 + (b / per_col) * w, y = y0 + (b % per_col) * hh;
    if (now[b] >= 0) {
      const TileCoord c = tile_at(now[b], tm, tn, order.order, order.group);
      s.cell(x, y, w, hh, svg::tint(svg::kOrange, 0.35),
             to_string(b) + ": " + to_string(c.m) + "," + to_string(c.n), "sm",
             "block " + to_string(b) + " computes tile " + to_string(now[b]), 11);
    } else {
      s.rect(x, y, w, hh, svg::kHatch, "#ffffff", 1, "sm-idle", "block " + to_string(b) + ": idle");
      s.text(x + w / 2, y + hh / 2 + 4, to_string(b) + ": -", {11});
    }
  }
  s.legend(
      g.x, g.bottom() + 28,
      {{svg::tint(svg::kOrange, 0.35), "this wave's tiles, and each block's tile"},
       {svg::tint(svg::kGrey, 0.6), "tiles of earlier waves"},
       {"line:" + std::string(svg::kVermillion), "block 0's tiles, in the order it takes them"},
       {svg::kHatch, "a block with no tile left: it waits for the others"}});
  return s;
}

// ---- The ring -----------------------------------------------------------------------------------

RingTrace ring_trace(const RingProtocol& ring, int stages) {
  RingTrace trace;
  // The producer tries first at every step: it runs ahead as far as the empty barriers let it.
  trace.error = play_ring(
      ring, stages, kRingFigureWarps, kRingFigureBlocks, [] { return true; },
      [&](const RingMove& m) { trace.moves.push_back(m); });
  return trace;
}

namespace {

// The ring before any move: fresh barriers, empty stages.
RingMove fresh_ring(int stages, std::uint32_t arrivals) {
  RingMove m;
  m.full.assign(stages, ModelBarrier{});
  m.empty.assign(stages, ModelBarrier{});
  for (ModelBarrier& b : m.empty) b.expected = arrivals;
  m.holds.assign(stages, -1);
  m.released.assign(stages, true);
  return m;
}

std::string slot_text(const char* fn, int it, int stages, RingSlot slot) {
  return std::string(fn) + "(" + to_string(it) + ", " + to_string(stages) + ") = stage " +
         to_string(slot.stage) + ", parity " + to_string(slot.parity);
}

std::string phase_text(const ModelBarrier& b) {
  return "phase " + to_string(b.phase) + " (parity " + to_string(b.phase & 1u) + ")";
}

}  // namespace

course::svg::Scene ring_scene(int stages, int step) {
  const RingProtocol ring = ring_protocol();
  const RingTrace trace = ring_trace(ring, stages);
  const std::uint32_t arrivals = ring.empty_barrier_arrivals(kRingFigureWarps);
  const int done = std::min<int>(step, static_cast<int>(trace.moves.size()));
  const RingMove state = done > 0 ? trace.moves[done - 1] : fresh_ring(stages, arrivals);
  const bool moved = done > 0 && done == step;
  const RingMove* move = moved ? &trace.moves[done - 1] : nullptr;

  std::string what, why;
  if (step == 0) {
    what = "Step 0: a fresh ring of " + to_string(stages) + " stages";
    why = "every barrier is in phase 0, so each reports parity 1 (the phase before) as complete";
  } else if (!move) {
    what = "Step " + to_string(step) + ": the model stopped after " + to_string(done) + " moves";
    why = "the ring model found a mistake in the protocol: it says which, below in red";
  } else if (move->producer) {
    what = "Step " + to_string(step) + ": the producer loads k-block " + to_string(move->it) +
           " into stage " + to_string(move->slot.stage);
    why = slot_text("producer_slot", move->it, stages, move->slot) + ": it waited on empty[" +
          to_string(move->slot.stage) + "] for parity " + to_string(move->slot.parity) +
          (move->it < stages
               ? ", which a fresh barrier reports complete"
               : ", completed when k-block " + to_string(move->it - stages) + " was released");
  } else {
    what = "Step " + to_string(step) + ": the consumers read k-block " + to_string(move->it) +
           " in stage " + to_string(move->slot.stage) + " and release it";
    why = slot_text("consumer_slot", move->it, stages, move->slot) + ": they waited on full[" +
          to_string(move->slot.stage) + "] for parity " + to_string(move->slot.parity) + "; then " +
          to_string(kRingFigureWarps) + " warps arrive on empty[" + to_string(move->slot.stage) +
          "]";
  }
  svg::Scene s("The ring of " + to_string(stages) + " stages, step " + to_string(step),
               what + ". " + why +
                   ". Each stage's k-block and the phases of its full and empty barriers are "
                   "shown, and below, every k-block's stage and parities as the ring protocol "
                   "gives them.");
  s.text(12, 24, what, {15, svg::Anchor::kStart, true});
  s.text(12, 46, wrap(why, 96), {13, svg::Anchor::kStart});

  // One row a stage: who goes there next, its k-block, its two barriers.
  const double y0 = 116, row = 34;
  const int p_next = state.produced, c_next = state.consumed;
  s.text(140, y0 - 10, "holds", {12, svg::Anchor::kStart, false, svg::kFaint});
  s.text(340, y0 - 10, "full[s]: TMA's bytes landed",
         {12, svg::Anchor::kStart, false, svg::kFaint});
  s.text(560, y0 - 10, "empty[s]: consumer warps released",
         {12, svg::Anchor::kStart, false, svg::kFaint});
  for (int st = 0; st < stages; ++st) {
    const double y = y0 + st * row;
    std::string who;
    if (p_next < kRingFigureBlocks && ring.producer_slot(p_next, stages).stage == st) who = "P";
    if (c_next < kRingFigureBlocks && ring.consumer_slot(c_next, stages).stage == st) {
      who += who.empty() ? "C" : " C";
    }
    if (!who.empty()) s.cell(16, y + 2, 44, row - 6, svg::tint(svg::kYellow, 0.3), who, "", "", 12);
    s.text(70, y + row / 2 + 3, "stage " + to_string(st), {13, svg::Anchor::kStart, true});
    const int kb = state.holds[st];
    const std::string held = kb < 0               ? "empty"
                             : state.released[st] ? "k-block " + to_string(kb) + ": read, free"
                                                  : "k-block " + to_string(kb) + ": landed";
    s.cell(140, y, 190, row - 4,
           kb < 0               ? kLater
           : state.released[st] ? svg::tint(svg::kGrey, 0.6)
                                : svg::tint(svg::kSky, 0.4),
           held, "", "", 12);
    s.cell(340, y, 210, row - 4, svg::tint(svg::kGreen, 0.75), phase_text(state.full[st]),
           "barriers stage=" + to_string(st) + " full=" + to_string(state.full[st].phase) +
               " empty=" + to_string(state.empty[st].phase),
           "", 12);
    s.cell(560, y, 250, row - 4, svg::tint(svg::kPurple, 0.75),
           phase_text(state.empty[st]) + ", " + to_string(state.empty[st].arrived) + "/" +
               to_string(state.empty[st].expected) + " in",
           "", "", 12);
    if (move && move->slot.stage == st) {
      s.rect(138, y - 2, 674, row, "none", svg::kVermillion, 3,
             std::string("move ") + (move->producer ? "producer" : "consumers") +
                 " it=" + to_string(move->it) + " stage=" + to_string(move->slot.stage) +
                 " parity=" + to_string(move->slot.parity));
    }
  }
  double y = y0 + stages * row + 16;
  // What each side waits for next, and whether the model lets it through.
  auto next_line = [&](bool producer) {
    const int it = producer ? p_next : c_next;
    std::string line = producer ? "P, the producer: " : "C, the consumers: ";
    if (it >= kRingFigureBlocks) {
      line += "done";
    } else {
      const RingSlot sl =
          producer ? ring.producer_slot(it, stages) : ring.consumer_slot(it, stages);
      const ModelBarrier& b = producer ? state.empty[sl.stage] : state.full[sl.stage];
      line += "k-block " + to_string(it) + " next, waits on " + (producer ? "empty[" : "full[") +
              to_string(sl.stage) + "] for parity " + to_string(sl.parity) + ": " +
              (b.passed(sl.parity) ? "passes"
                                   : "blocked, the barrier is in phase " + to_string(b.phase));
    }
    s.text(16, y, line, {13, svg::Anchor::kStart});
    y += 20;
  };
  next_line(true);
  next_line(false);
  if (!trace.error.empty() && step > done) {
    s.text(16, y + 4, wrap("The model stops: " + trace.error, 100),
           {13, svg::Anchor::kStart, true, svg::kVermillion});
    y += 24 + 16 * static_cast<double>(trace.error.size() / 100 + 1);
  }

  // The protocol's table: every k-block's stage and parities, shaded by how far it has gone.
  y += 18;
  const double x0 = 220, w = 48, h = 24;
  const char* heads[] = {"k-block it", "stage", "consumers: full parity", "producer: empty parity"};
  for (int r = 0; r < 4; ++r) {
    s.text(x0 - 8, y + r * h + 16, heads[r], {12, svg::Anchor::kEnd});
  }
  for (int it = 0; it < kRingFigureBlocks; ++it) {
    const RingSlot c = ring.consumer_slot(it, stages), p = ring.producer_slot(it, stages);
    const std::string fill = it < state.consumed   ? svg::tint(svg::kGrey, 0.6)
                             : it < state.produced ? svg::tint(svg::kSky, 0.4)
                                                   : kLater;
    const double x = x0 + it * w;
    s.cell(x, y, w, h, fill, to_string(it), "", "", 12);
    s.cell(x, y + h, w, h, fill, to_string(c.stage),
           "slot it=" + to_string(it) + " stage=" + to_string(c.stage) +
               " full=" + to_string(c.parity) + " empty=" + to_string(p.parity),
           "", 12);
    s.cell(x, y + 2 * h, w, h, fill, to_string(c.parity), "", "", 12);
    s.cell(x, y + 3 * h, w, h, fill, to_string(p.parity), "", "", 12);
    if (move && move->it == it) s.rect(x, y, w, 4 * h, "none", svg::kVermillion, 3);
  }
  s.legend(
      16, y + 4 * h + 30,
      {{svg::tint(svg::kSky, 0.4), "loaded by TMA, not yet released"},
       {svg::tint(svg::kGrey, 0.6), "read by the consumers and released"},
       {"line:" + std::string(svg::kVermillion), "this step's move"},
       {svg::tint(svg::kYellow, 0.3), "P, C: the stage the producer, the consumers go to next"}});
  return s;
}

course::svg::Scene ring_timeline_scene(int stages) {
  const RingProtocol ring = ring_protocol();
  const RingTrace trace = ring_trace(ring, stages);
  const int moves = static_cast<int>(trace.moves.size());
  svg::Scene s("The ring of " + to_string(stages) + " stages over time",
               "One column per move of the ring model: the producer's loads, which k-block each "
               "of the " +
                   to_string(stages) +
                   " stages holds from its load to its release, and the consumers' releases, with "
                   "the parity each side waited for, as the ring protocol gives it.");
  s.text(12, 24,
         "The ring over time: " + to_string(stages) + " stages, " + to_string(kRingFigureWarps) +
             " consumer warps, the producer as far ahead as it may go",
         {15, svg::Anchor::kStart, true});
  const double x0 = 200, w = 26, h = 24;
  double y = 64;
  s.text(x0 - 8, y - 8, "move", {11, svg::Anchor::kEnd, false, svg::kFaint});
  for (int i = 0; i < moves; i += 2) {
    s.text(x0 + i * w + w / 2, y - 8, to_string(i + 1),
           {11, svg::Anchor::kMiddle, false, svg::kFaint});
  }
  auto label = [&](double yy, const std::string& text) {
    s.text(x0 - 8, yy + 16, text, {12, svg::Anchor::kEnd});
  };
  auto stage_fill = [](int st) { return svg::tint(svg::category(st), 0.55); };
  label(y, "producer loads k-block");
  label(y + h, "after empty[s], parity");
  for (int i = 0; i < moves; ++i) {
    const RingMove& m = trace.moves[i];
    if (!m.producer) continue;
    s.cell(x0 + i * w, y, w, h, stage_fill(m.slot.stage), to_string(m.it),
           "load it=" + to_string(m.it) + " stage=" + to_string(m.slot.stage) +
               " parity=" + to_string(m.slot.parity),
           "", 11);
    s.cell(x0 + i * w, y + h, w, h, "#ffffff", to_string(m.slot.parity), "", "", 11);
  }
  y += 2 * h + 12;
  // Each stage: the k-block it holds, from the move that loads it to the one that releases it.
  for (int st = 0; st < stages; ++st) {
    label(y, "stage " + to_string(st));
    s.rect(x0, y, moves * w, h, kLater);
    for (int i = 0; i < moves; ++i) {
      const RingMove& m = trace.moves[i];
      if (!m.producer || m.slot.stage != st) continue;
      int end = moves - 1;
      for (int j = i + 1; j < moves; ++j) {
        if (!trace.moves[j].producer && trace.moves[j].it == m.it) {
          end = j;
          break;
        }
      }
      s.cell(x0 + i * w, y, (end - i + 1) * w, h, stage_fill(st),
             (end - i + 1) * w >= 50 ? "kb " + to_string(m.it) : to_string(m.it), "", "", 11);
    }
    y += h + 4;
  }
  y += 8;
  label(y, "consumers release k-block");
  label(y + h, "after full[s], parity");
  for (int i = 0; i < moves; ++i) {
    const RingMove& m = trace.moves[i];
    if (m.producer) continue;
    s.cell(x0 + i * w, y, w, h, stage_fill(m.slot.stage), to_string(m.it),
           "release it=" + to_string(m.it) + " stage=" + to_string(m.slot.stage) +
               " parity=" + to_string(m.slot.parity),
           "", 11);
    s.cell(x0 + i * w, y + h, w, h, "#ffffff", to_string(m.slot.parity), "", "", 11);
  }
  y += 2 * h + 30;
  if (!trace.error.empty()) {
    s.text(16, y, wrap("The model stops: " + trace.error, 100),
           {13, svg::Anchor::kStart, true, svg::kVermillion});
    y += 24 + 16 * static_cast<double>(trace.error.size() / 100 + 1);
  }
  std::vector<std::pair<std::string, std::string>> items;
  for (int st = 0; st < stages; ++st) {
    items.push_back({stage_fill(st), "stage " + to_string(st) + " (k-blocks " + to_string(st) +
                                         ", " + to_string(st + stages) + ", " +
                                         to_string(st + 2 * stages) + ", ...)"});
  }
  s.legend(16, y, items);
  return s;
}

// ---- The 128-byte swizzle -----------------------------------------------------------------------

course::svg::Scene swizzle_scene(int kstep) {
  constexpr int kRows = 8, kChunks = 8;  // one 1024-byte atom: 8 rows of 8 chunks of 16 bytes
  auto place = [](int r, int c) {        // where staging_offset() puts chunk c of row r
    const int off = staging_offset(r, 8 * c);
    return TileCoord{off / 128, off % 128 / 16};
  };
  std::set<int> at_first, at_second;  // positions of the k-step's two chunks, rows 0 to 7
  for (int r = 0; r < kRows; ++r) {
    at_first.insert(place(r, 2 * kstep).n);
    at_second.insert(place(r, 2 * kstep + 1).n);
  }
  svg::Scene s("The 128-byte swizzle, k-step " + to_string(kstep),
               "Left, 8 rows of a K-major bf16 tile, each of 8 chunks of 16 bytes (8 values of "
               "k). Right, where staging_offset puts each chunk in shared memory: chunk c of row r "
               "at position c XOR (r mod 8). Outlined, chunks " +
                   to_string(2 * kstep) + " and " + to_string(2 * kstep + 1) +
                   ", which wgmma k-step " + to_string(kstep) +
                   " reads: " + to_string(at_first.size()) + " different positions in 8 rows.");
  s.text(12, 24, "TMA's 128-byte swizzle: chunk c of row r is stored at chunk c XOR (r mod 8)",
         {15, svg::Anchor::kStart, true});
  s.text(12, 46,
         "staging_offset(r, col) = r x 128 + ((col / 8) XOR (r mod 8)) x 16 + (col mod 8) x 2",
         {13, svg::Anchor::kStart});

  const double w = 44, h = 30;
  svg::Grid tile, mem;
  tile.x = 46, tile.y = 124, tile.rows = kRows, tile.cols = kChunks, tile.w = w, tile.h = h;
  mem = tile;
  mem.x = tile.right() + 90;
  s.text(tile.x, 78, "the tile: chunk c = values 8c to 8c + 7 of k",
         {12, svg::Anchor::kStart, true});
  s.text(mem.x, 78, "shared memory: 16-byte positions", {12, svg::Anchor::kStart, true});
  for (int c = 0; c < kChunks; ++c) {
    s.text(tile.cx(c), tile.y - 22, "c" + to_string(c),
           {11, svg::Anchor::kMiddle, false, svg::kFaint});
    s.text(tile.cx(c), tile.y - 8, "k" + to_string(8 * c) + "-" + to_string(8 * c + 7),
           {11, svg::Anchor::kMiddle, false, svg::kFaint});
    s.text(mem.cx(c), mem.y - 8, to_string(c), {11, svg::Anchor::kMiddle, false, svg::kFaint});
    s.text(mem.cx(c), mem.bottom() + 16, to_string(4 * c) + "-" + to_string(4 * c + 3),
           {11, svg::Anchor::kMiddle, false, svg::kFaint});
  }
  s.text(mem.x - 8, mem.bottom() + 16, "banks", {11, svg::Anchor::kEnd, false, svg::kFaint});
  for (int r = 0; r < kRows; ++r) {
    s.text(tile.x - 6, tile.cy(r) + 4, "r" + to_string(r),
           {11, svg::Anchor::kEnd, false, svg::kFaint});
    s.text(mem.x - 6, mem.cy(r) + 4, "r" + to_string(r),
           {11, svg::Anchor::kEnd, false, svg::kFaint});
    for (int c = 0; c < kChunks; ++c) {
      const bool read = c / 2 == kstep;
      s.cell(tile.left(c), tile.top(r), w, h, svg::wheel(c, kChunks), "c" + to_string(c), "", "",
             12);
      const TileCoord p = place(r, c);
      s.cell(mem.left(p.n), mem.top(p.m), w, h, svg::wheel(c, kChunks), "c" + to_string(c), "mem",
             "r=" + to_string(r) + " c=" + to_string(c), 12);
      if (read) {
        s.rect(tile.left(c) + 1.5, tile.top(r) + 1.5, w - 3, h - 3, "none", svg::kInk, 3);
        s.rect(mem.left(p.n) + 1.5, mem.top(p.m) + 1.5, w - 3, h - 3, "none", svg::kInk, 3, "read");
      }
    }
  }
  s.arrow(tile.right() + 14, tile.cy(3) + h / 2, mem.x - 30, tile.cy(3) + h / 2, svg::kBlue, 2);
  s.text((tile.right() + mem.x) / 2 - 8, tile.cy(3) + h / 2 - 8, "TMA",
         {12, svg::Anchor::kMiddle, false, svg::kBlue});
  const double y = mem.bottom() + 50;
  s.text(12, y,
         wrap("Outlined: chunks " + to_string(2 * kstep) + " and " + to_string(2 * kstep + 1) +
                  " of every row, values " + to_string(16 * kstep) + " to " +
                  to_string(16 * kstep + 15) + " of k, which wgmma's k-step " + to_string(kstep) +
                  " reads. In shared memory chunk " + to_string(2 * kstep) +
                  " of rows 0 to 7 lies at " + to_string(at_first.size()) +
                  " different positions, chunk " + to_string(2 * kstep + 1) + " at " +
                  to_string(at_second.size()) +
                  ": the 8 rows of a core matrix come from all 32 banks at once. The descriptor "
                  "names the unswizzled address, tile + " +
                  to_string(32 * kstep) + " bytes; the hardware applies the same XOR.",
              104),
         {13, svg::Anchor::kStart});
  return s;
}

}  // namespace lesson11
