/// \file scenes.cpp
/// \brief Lesson 04's pictures (given code, compiled with each library): drawn from
/// first_warp_addresses() and counted by warp_access(), yours in the exercise's library.
#include "lessons/04-coalescing/figures.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lesson04 {

namespace {

const char* mapping_name(Mapping m) {
  return m == Mapping::kNaive       ? "naive (lesson 03)"
         : m == Mapping::kCoalesced ? "coalesced"
                                    : "transposed B";
}

}  // namespace

course::svg::Scene warp_step_scene(Mapping mapping, Operand operand, int element_bytes) {
  namespace svg = course::svg;
  constexpr int kSize = 4096;
  const WarpAddresses all = first_warp_addresses(mapping, kSize, kSize, kSize, 0, element_bytes);
  const std::vector<long long>& addr = operand == Operand::kA   ? all.a
                                       : operand == Operand::kB ? all.b
                                                                : all.c;
  const WarpAccess cost = warp_access(addr);  // yours, in `make lesson-4`'s pictures
  const char* name = operand == Operand::kA   ? "A"
                     : operand == Operand::kB ? (mapping == Mapping::kTransposedB ? "Bt" : "B")
                                              : "C";
  const int lanes = static_cast<int>(addr.size());
  // The bytes the warp needs: lanes that share an element (a broadcast) need it once.
  const int asked =
      static_cast<int>(std::set<long long>(addr.begin(), addr.end()).size()) * element_bytes;

  svg::Scene s("One warp's access to " + std::string(name) + ", " + mapping_name(mapping),
               "The 32 lanes of a warp on top, and below them every 128-byte cache line their " +
                   std::to_string(element_bytes) +
                   "-byte elements fall in, split into four 32-byte "
                   "sectors. warp_access counts " +
                   std::to_string(cost.sectors) + " sectors and " + std::to_string(cost.lines) +
                   " lines.");
  // The lanes: 32 cells of 24 px.
  constexpr double kCell = 22, kX = 62, kLanesY = 78;
  s.text(12, 24,
         std::string(mapping_name(mapping)) + " mapping: the first warp reads " + name +
             (operand == Operand::kC ? " (the store)" : " at k = 0") + ", " +
             std::to_string(element_bytes) + "-byte elements",
         {15, svg::Anchor::kStart, true});
  const double bytes_moved = 32.0 * cost.sectors;
  s.text(12, 46,
         std::to_string(asked) + " distinct bytes asked for: warp_access counts " +
             std::to_string(cost.sectors) + (cost.sectors == 1 ? " sector" : " sectors") + " (" +
             std::to_string(static_cast<int>(bytes_moved)) + " bytes moved, " +
             std::to_string(static_cast<int>(100.0 * asked / bytes_moved + 0.5)) + "% used) in " +
             std::to_string(cost.lines) + (cost.lines == 1 ? " line" : " lines"),
         {13, svg::Anchor::kStart});
  s.text(kX - 8, kLanesY + 16, "lane", {12, svg::Anchor::kEnd, false, svg::kFaint});
  for (int l = 0; l < 32; ++l) {
    const bool active = l < lanes;
    s.cell(kX + l * kCell, kLanesY, kCell, kCell, active ? svg::wheel(l, 32) : svg::kHatch,
           std::to_string(l), active ? "lane" : "idle", "", 11);
  }

  // Every touched line, in address order: a row of 32 words of 4 bytes, sectors of 8 words.
  std::map<long long, std::vector<int>> lines;  // line number -> lanes in it
  for (int l = 0; l < lanes; ++l) lines[addr[l] / kLineBytes].push_back(l);
  const double y0 = kLanesY + kCell + 46;
  s.text(kX - 8, y0 - 22, "the 128-byte lines the warp touches, each of four 32-byte sectors:",
         {12, svg::Anchor::kStart, false, svg::kFaint});
  constexpr double kRow = 20;
  int row = 0;
  for (const auto& [line, in_line] : lines) {
    const double y = y0 + row * (kRow + 4);
    // Words of the line: coloured by the lane that reads them.
    std::vector<int> owner(32, -1), readers(32, 0);
    for (int l : in_line) {
      const long long first = addr[l] % kLineBytes / 4;
      for (long long w = first; w < first + element_bytes / 4 && w < 32; ++w) {
        if (owner[w] < 0) owner[w] = l;
        ++readers[w];
      }
    }
    for (int w = 0; w < 32; ++w) {
      s.rect(kX + w * kCell, y, kCell, kRow, owner[w] >= 0 ? svg::wheel(owner[w], 32) : "#f4f4f4",
             "#ffffff", 1);
      // A word several lanes read is fetched once for all of them (a broadcast): say how many.
      if (readers[w] > 1)
        s.text(kX + w * kCell + kCell / 2, y + 15, std::to_string(readers[w]), {11});
    }
    // Sectors: outlined thick where a lane reads them (they move), thin where none does.
    for (int sec = 0; sec < 4; ++sec) {
      const bool touched = std::any_of(owner.begin() + sec * 8, owner.begin() + sec * 8 + 8,
                                       [](int o) { return o >= 0; });
      s.rect(kX + sec * 8 * kCell, y, 8 * kCell, kRow, "none", touched ? svg::kInk : svg::kGrey,
             touched ? 2.5 : 1, touched ? "sector" : "");
    }
    s.rect(kX, y, 32 * kCell, kRow, "none", "none", 0, "line");
    s.text(kX - 8, y + 15, "+" + std::to_string(line * kLineBytes),
           {11, svg::Anchor::kEnd, false, svg::kFaint});
    // Which lanes, when there are few in the line.
    if (in_line.size() == static_cast<std::size_t>(lanes) && lanes > 1 &&
        std::count(readers.begin(), readers.end(), lanes) > 0) {
      s.text(kX + 32 * kCell + 8, y + 15, "all lanes", {11, svg::Anchor::kStart});
    } else if (in_line.size() == 1) {
      s.text(kX + 32 * kCell + 8, y + 15, "lane " + std::to_string(in_line[0]),
             {11, svg::Anchor::kStart});
    }
    ++row;
  }
  const double y_end = y0 + row * (kRow + 4) + 18;
  const double y_note = s.legend(
      kX, y_end,
      {{"line:" + std::string(svg::kInk), "a sector that moves (32 bytes): a lane reads it"},
       {"#f4f4f4", "bytes of a moved sector that no lane asked for"},
       {"", "a number in a word: that many lanes read it (a broadcast)"}});
  // The picture counts for itself: where warp_access disagrees with it, say so where it shows.
  const int drawn_sectors = s.count("sector"), drawn_lines = s.count("line");
  if (drawn_sectors != cost.sectors || drawn_lines != cost.lines) {
    auto n = [](int count, const char* what) {
      return std::to_string(count) + " " + what + (count == 1 ? "" : "s");
    };
    s.text(12, y_note + 4,
           "warp_access says " + n(cost.sectors, "sector") + " in " + n(cost.lines, "line") +
               "; the addresses above touch " + n(drawn_sectors, "sector") + " in " +
               n(drawn_lines, "line") + ".",
           {13, svg::Anchor::kStart, true, svg::kVermillion});
  }
  return s;
}

}  // namespace lesson04
