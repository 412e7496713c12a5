/// \file scenes.cpp
/// \brief Lesson 06's pictures (given code, compiled with each library): the limits on blocks per
/// SM from occupancy() and the waves of a grid from waves(), yours in the exercise's library.
#include "lessons/06-occupancy/figures.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace lesson06 {

const std::vector<int>& figure_threads() {
  static const std::vector<int> v{64, 128, 256, 512, 1024};
  return v;
}
const std::vector<int>& figure_registers() {
  static const std::vector<int> v{32, 40, 64, 128};
  return v;
}
const std::vector<int>& figure_smem_kib() {
  static const std::vector<int> v{0, 8, 48, 100};
  return v;
}

namespace {

namespace svg = course::svg;

// 65536 -> "65,536".
std::string grouped(long long v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(i, ",");
  return s;
}

std::string percent(double f) {
  return std::to_string(static_cast<int>(f * 100 + 0.5)) + "%";
}

}  // namespace

course::svg::Scene occupancy_scene(const SmLimits& sm, const KernelUsage& k) {
  const Occupancy o = occupancy(sm, k);  // yours, in `make lesson-6`'s pictures
  const std::string config = std::to_string(k.threads_per_block) + " threads × " +
                             std::to_string(k.regs_per_thread) + " registers, " +
                             std::to_string(k.smem_per_block_bytes() / 1024) + " KiB shared";
  const std::string answer = o.blocks_per_sm == 0
                                 ? "it cannot launch (" + limit_name(o.limit) + ")"
                                 : std::to_string(o.blocks_per_sm) +
                                       (o.blocks_per_sm == 1 ? " block" : " blocks") +
                                       " per SM, limited by " + limit_name(o.limit);
  svg::Scene s("What limits a block of " + config + " on " + sm.name,
               "Four bars, the blocks per SM that each resource allows by occupancy(): threads " +
                   std::to_string(o.by_threads) + ", registers " + std::to_string(o.by_registers) +
                   ", shared memory " + std::to_string(o.by_shared_memory) + ", blocks " +
                   std::to_string(o.by_blocks) + ". The smallest, " + limit_name(o.limit) +
                   ", is marked: " + answer + ". Below, the SM's warp slots, " +
                   std::to_string(o.active_warps) + " of " + std::to_string(sm.max_warps_per_sm) +
                   " filled.");
  s.text(12, 22, config + " per block, " + sm.name, {14, svg::Anchor::kStart, true});
  s.text(12, 42,
         "occupancy(): " + answer + "; " + std::to_string(o.active_warps) + " of " +
             std::to_string(sm.max_warps_per_sm) + " warps resident (" + percent(o.occupancy) + ")",
         {13, svg::Anchor::kStart});
  s.text(12, 60, "Each bar is what one resource alone allows; the shortest decides.",
         {12, svg::Anchor::kStart, false, svg::kFaint});

  // The bars: blocks per SM on a common scale, up to a little past the block slots.
  constexpr double kLabelW = 236, kBarW = 440, kRowH = 46, kBarH = 24, kTop = 96;
  const int axis = sm.max_blocks_per_sm + 4;
  const double x0 = 12 + kLabelW, per_block = kBarW / axis;
  const auto x_of = [&](int blocks) { return x0 + std::min(blocks, axis) * per_block; };
  struct Row {
    Limit limit;
    int blocks;
    std::string what, has;
  };
  const std::size_t smem_kib = (k.smem_per_block_bytes() + 1023) / 1024;
  const std::vector<Row> rows{
      {Limit::kThreads, o.by_threads, "threads (warp slots)",
       "SM " + std::to_string(sm.max_warps_per_sm) + " warp slots; block " +
           std::to_string(o.warps_per_block) + " warps"},
      {Limit::kRegisters, o.by_registers, "registers",
       "SM " + grouped(sm.regs_per_sm) + " regs; block " +
           grouped(static_cast<long long>(k.threads_per_block) * k.regs_per_thread)},
      {Limit::kSharedMemory, o.by_shared_memory, "shared memory",
       "SM " + std::to_string(sm.smem_per_sm_bytes / 1024) + " KiB; block " +
           std::to_string(smem_kib) + " + " +
           std::to_string(sm.smem_reserved_per_block_bytes / 1024) + " KiB"},
      {Limit::kBlocks, o.by_blocks, "blocks (hardware slots)",
       "SM " + std::to_string(sm.max_blocks_per_sm) + " block slots"}};
  // The scale: a tick every 4 blocks.
  const double y_axis = kTop + 4 * kRowH + 4;
  s.line(x0, kTop - 8, x0, y_axis, svg::kInk, 1);
  s.line(x0, y_axis, x0 + kBarW, y_axis, svg::kInk, 1);
  for (int b = 0; b <= axis; b += 4) {
    s.line(x_of(b), y_axis, x_of(b), y_axis + 5, svg::kInk, 1);
    s.text(x_of(b), y_axis + 18, std::to_string(b), {11, svg::Anchor::kMiddle, false, svg::kFaint});
  }
  s.text(x0 + kBarW, y_axis + 34, "blocks per SM", {12, svg::Anchor::kEnd, false, svg::kFaint});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const double y = kTop + i * kRowH;
    const bool binding = r.limit == o.limit;
    const bool ties = !binding && o.binds(r.limit);
    s.text(12, y + 10, r.what, {13, svg::Anchor::kStart, binding});
    s.text(12, y + 27, r.has, {11, svg::Anchor::kStart, false, svg::kFaint});
    const std::string fill = binding ? std::string(svg::kVermillion)
                             : ties  ? svg::tint(svg::kVermillion, 0.5)
                                     : svg::tint(svg::kBlue, 0.6);
    const double w = x_of(r.blocks) - x0;
    s.rect(x0, y, std::max(w, 2.0), kBarH, fill, svg::kInk, binding ? 2 : 1,
           binding ? "bar limit " + limit_name(r.limit) + " " + std::to_string(r.blocks) : "bar");
    std::string value = r.blocks == kNoLimit ? "no limit"
                        : r.blocks == 0      ? "0: cannot launch"
                                             : std::to_string(r.blocks);
    if (r.blocks > axis) {
      // Past the scale: the bar ends in a break, its value beside it.
      s.line(x0 + w - 10, y - 3, x0 + w - 4, y + kBarH + 3, "#ffffff", 4);
    }
    if (binding) value += "  ← the limit";
    if (ties) value += "  (ties)";
    s.text(x0 + std::max(w, 2.0) + 8, y + 17, value, {13, svg::Anchor::kStart, binding});
  }
  // What fits: a line at blocks_per_sm through every bar.
  if (o.blocks_per_sm > 0) {
    s.line(x_of(o.blocks_per_sm), kTop - 12, x_of(o.blocks_per_sm), y_axis, svg::kInk, 1.5, true);
  }

  // The SM's warp slots, filled by the resident blocks (each block's warps in its colour).
  const double yw = y_axis + 62;
  s.text(12, yw - 10,
         "the SM's " + std::to_string(sm.max_warps_per_sm) + " warp slots: " +
             std::to_string(o.blocks_per_sm) + " blocks × " + std::to_string(o.warps_per_block) +
             " warps = " + std::to_string(o.active_warps) + " resident",
         {12, svg::Anchor::kStart, true});
  constexpr double kSlot = 22;
  const int per_row = 32;
  for (int w = 0; w < sm.max_warps_per_sm; ++w) {
    const int block = o.warps_per_block > 0 ? w / o.warps_per_block : 0;
    const bool used = w < o.active_warps;
    const double x = 12 + (w % per_row) * kSlot, y = yw + (w / per_row) * kSlot;
    s.cell(x, y, kSlot, kSlot, used ? svg::wheel(block, std::max(o.blocks_per_sm, 1)) : "#eeeeee",
           used ? std::to_string(block) : "", used ? "warp" : "", "", 11);
  }
  const double y_end = yw + ((sm.max_warps_per_sm + per_row - 1) / per_row) * kSlot + 24;
  s.legend(12, y_end,
           {{svg::kVermillion, "the limit: the fewest blocks, what occupancy() returns"},
            {svg::tint(svg::kVermillion, 0.5), "a limit that ties with it (the same number)"},
            {"#eeeeee", "an idle warp slot (a number: the block a warp belongs to)"}});
  return s;
}

course::svg::Scene waves_scene(int sm_count, int blocks_per_sm, long long grid_blocks) {
  const Waves wv = waves(sm_count, blocks_per_sm, grid_blocks);  // yours in `make lesson-6`
  // Drawn in launch order: block j of a wave on SM j % S, slot j / S (the hardware may place
  // them otherwise; what counts is how many run at once).
  const int shown_waves = static_cast<int>(std::min<long long>(wv.waves, 12));
  const std::string head =
      std::to_string(grid_blocks) + " blocks on " + std::to_string(sm_count) + " SMs × " +
      std::to_string(blocks_per_sm) + (blocks_per_sm == 1 ? " block" : " blocks") + " per SM (" +
      std::to_string(wv.blocks_per_wave) + " per wave): " + std::to_string(wv.waves) +
      (wv.waves == 1 ? " wave" : " waves");
  const std::string tail = wv.tail_blocks == wv.blocks_per_wave
                               ? "every wave full"
                               : "the last holds " + std::to_string(wv.tail_blocks) + " of " +
                                     std::to_string(wv.blocks_per_wave) + " (" +
                                     percent(wv.last_wave_fill) + ")";
  svg::Scene s("Waves: " + head, "Each row is a wave: " + std::to_string(sm_count) + " SMs with " +
                                     std::to_string(blocks_per_sm) +
                                     " slots each, filled by the grid's blocks in launch order. " +
                                     head + ", " + tail + "; efficiency " + percent(wv.efficiency) +
                                     ".");
  s.text(12, 22, head + ", " + tail, {14, svg::Anchor::kStart, true});
  s.text(12, 42,
         "waves(): " + std::to_string(wv.full_waves) + " full, efficiency " +
             std::to_string(grid_blocks) + " / " + std::to_string(wv.waves * wv.blocks_per_wave) +
             " slots = " + percent(wv.efficiency) + ". A partial wave takes as long as a full one.",
         {12, svg::Anchor::kStart});
  constexpr double kSlot = 34, kGapSm = 14, kRowGap = 12, kX = 96, kTop = 88;
  const double sm_w = blocks_per_sm * kSlot;
  for (int m = 0; m < sm_count; ++m) {
    s.text(kX + m * (sm_w + kGapSm) + sm_w / 2, kTop - 10, "SM " + std::to_string(m),
           {12, svg::Anchor::kMiddle, true});
  }
  long long block = 0;
  const double right = kX + sm_count * (sm_w + kGapSm) - kGapSm;
  for (int w = 0; w < shown_waves; ++w) {
    const double y = kTop + w * (kSlot + kRowGap);
    const bool last = w == wv.waves - 1;
    const long long in_wave = last ? wv.tail_blocks : wv.blocks_per_wave;
    s.rect(kX - 4, y - 4, right - kX + 8, kSlot + 8, "none", "none", 0, "wave");
    s.text(kX - 12, y + kSlot / 2 + 5, "wave " + std::to_string(w + 1),
           {12, svg::Anchor::kEnd, last});
    for (int j = 0; j < wv.blocks_per_wave; ++j) {
      const int m = j % sm_count, slot = j / sm_count;
      const double x = kX + m * (sm_w + kGapSm) + slot * kSlot;
      if (j < in_wave) {
        s.cell(x, y, kSlot, kSlot,
               last && wv.tail_blocks < wv.blocks_per_wave ? svg::tint(svg::kOrange, 0.45)
                                                           : svg::tint(svg::kBlue, 0.6),
               std::to_string(block++), last ? "tail" : "block", "", 12);
      } else {
        s.cell(x, y, kSlot, kSlot, svg::kHatch, "", "idle", "an idle slot in the last wave");
      }
    }
    for (int m = 0; m < sm_count; ++m) {
      s.rect(kX + m * (sm_w + kGapSm), y, sm_w, kSlot, "none", svg::kInk, 1.5);
    }
    s.text(right + 12, y + kSlot / 2 + 5,
           std::to_string(in_wave) + " of " + std::to_string(wv.blocks_per_wave),
           {12, svg::Anchor::kStart, false, last ? svg::kInk : svg::kFaint});
  }
  const double y_end = kTop + shown_waves * (kSlot + kRowGap) + 8;
  s.arrow(30, kTop, 30, y_end - 14, svg::kFaint, 1.5);
  s.text(30, y_end + 4, "time", {12, svg::Anchor::kMiddle, false, svg::kFaint});
  s.legend(kX, y_end + 28,
           {{svg::tint(svg::kOrange, 0.45), "a block of the partial last wave"},
            {svg::kHatch, "a slot idle while the last wave runs"}});
  return s;
}

}  // namespace lesson06
