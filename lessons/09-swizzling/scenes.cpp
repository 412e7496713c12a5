/// \file scenes.cpp
/// \brief Lesson 09's pictures (given code, compiled with each library): the banks of one warp's
/// access, counted by bank_conflicts(), and the XOR swizzle, drawn from Swizzle<B, M, S> (yours in
/// the exercise's library).
#include "lessons/09-swizzling/figures.hpp"
#include "swizzle_parts.cuh"  // padded_index, swizzled_a_index: yours, or the reference's

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson09 {

WarpAddresses column_access(ALayout layout, int access_bytes) {
  const int floats = access_bytes / kBankBytes;
  WarpAddresses addr{};
  for (int lane = 0; lane < 32; ++lane) {
    const int k = lane % 8, m = floats * (lane / 8);
    const int index = layout == ALayout::kPlain    ? k * kFigureBm + m
                      : layout == ALayout::kPadded ? padded_index(k, m, kFigureBm, kFigurePad)
                                                   : swizzled_a_index(k, m, kFigureBk);
    addr[lane] = static_cast<std::uint32_t>(kBankBytes * index);
  }
  return addr;
}

course::svg::Scene banks_scene(ALayout layout, int access_bytes) {
  namespace svg = course::svg;
  const WarpAddresses addr = column_access(layout, access_bytes);
  const int conflicts = bank_conflicts(addr, access_bytes);  // yours, in `make lesson-9`'s pictures
  const int wavefronts = shared_wavefronts(addr, access_bytes);
  const int words = access_bytes / kBankBytes, per_phase = 32 / words;
  const std::string name = layout_name(layout);
  const std::string width = access_bytes == 4 ? "float" : access_bytes == 8 ? "float2" : "float4";

  svg::Scene s("One warp down a column of the " + name + " A tile, " +
                   std::to_string(access_bytes) + "-byte accesses",
               "The 32 banks of shared memory as columns. Each of the " + std::to_string(words) +
                   " phases of the warp's access is a block of rows, one row per wavefront; each "
                   "4-byte word a lane asks for sits in its bank's column, labelled with the lane. "
                   "bank_conflicts counts " +
                   std::to_string(conflicts) + " extra wavefronts, " + std::to_string(wavefronts) +
                   " in all.");
  constexpr double kX = 92, kCell = 23, kRow = 20;
  s.text(12, 22,
         name + " A tile: lane t reads a " + width + " of A(k = t mod 8, m = " +
             (words == 1 ? "" : std::to_string(words) + " ") + "floor(t / 8))",
         {15, svg::Anchor::kStart, true});
  s.text(12, 44,
         "bank_conflicts: " + std::to_string(conflicts) + " extra wavefront" +
             (conflicts == 1 ? "" : "s") + "; shared_wavefronts: " + std::to_string(wavefronts) +
             " (" + std::to_string(words) + " without conflicts)",
         {13, svg::Anchor::kStart});
  double y = 74;
  s.text(kX - 8, y, "bank", {11, svg::Anchor::kEnd, false, svg::kFaint});
  for (int b = 0; b < kBanks; ++b) {
    s.text(kX + b * kCell + kCell / 2, y, std::to_string(b),
           {11, svg::Anchor::kMiddle, false, svg::kFaint});
  }
  y += 10;
  int drawn = 0;
  for (int p = 0; p < words; ++p) {
    const int first = p * per_phase;
    // Each bank's different words in this phase, in the order lanes ask for them: the n-th word
    // of a bank can only be served by the n-th wavefront (a bank moves one word a pass).
    std::map<int, std::vector<std::uint32_t>> in_bank;
    std::map<std::uint32_t, std::vector<int>> lanes_of;
    for (int t = first; t < first + per_phase; ++t) {
      for (int w = 0; w < words; ++w) {
        const std::uint32_t word = addr[t] / kBankBytes + w;
        auto& list = in_bank[static_cast<int>(word % kBanks)];
        if (std::find(list.begin(), list.end(), word) == list.end()) list.push_back(word);
        lanes_of[word].push_back(t);
      }
    }
    std::size_t rows = 1;
    for (const auto& [bank, list] : in_bank) rows = std::max(rows, list.size());
    y += 16;
    s.text(kX, y,
           words == 1
               ? "the whole warp in one phase (lanes 0-31)"
               : "phase " + std::to_string(p + 1) + " of " + std::to_string(words) + ": lanes " +
                     std::to_string(first) + "-" + std::to_string(first + per_phase - 1),
           {12, svg::Anchor::kStart, true});
    y += 6;
    for (std::size_t r = 0; r < rows; ++r, ++drawn) {
      const double top = y + r * kRow;
      const bool extra = r > 0;
      s.text(kX - 8, top + 14, "wavefront " + std::to_string(r + 1),
             {11, svg::Anchor::kEnd, extra, extra ? svg::kVermillion : svg::kFaint});
      for (int b = 0; b < kBanks; ++b) {
        const auto it = in_bank.find(b);
        if (it == in_bank.end() || it->second.size() <= r) {
          s.rect(kX + b * kCell, top, kCell, kRow, "#f4f4f4", "#ffffff", 1);
          continue;
        }
        const std::uint32_t word = it->second[r];
        const std::vector<int>& who = lanes_of[word];
        const int lane = who.front();
        s.cell(kX + b * kCell, top, kCell, kRow, svg::wheel(lane, 32), std::to_string(lane), "word",
               "lane " + std::to_string(lane) +
                   (who.size() > 1 ? " and " + std::to_string(who.size() - 1) + " more" : "") +
                   ": byte " + std::to_string(word * kBankBytes) + ", bank " + std::to_string(b),
               11);
      }
      s.rect(kX, top, kBanks * kCell, kRow, "none", extra ? svg::kVermillion : svg::kInk,
             extra ? 2 : 1, "wavefront");
      if (extra) s.rect(kX - 3, top, 3, kRow, svg::kVermillion, "none", 0, "extra");
    }
    y += rows * kRow;
  }
  y += 26;
  if (drawn != wavefronts) {
    s.text(12, y,
           "The banks drawn need " + std::to_string(drawn) +
               " wavefronts, but shared_wavefronts says " + std::to_string(wavefronts) +
               ": check bank_conflicts.",
           {13, svg::Anchor::kStart, true, svg::kVermillion});
    y += 24;
  }
  s.legend(kX, y,
           {{"line:" + std::string(svg::kVermillion),
             "a conflict: a bank holds a second different word, so one more pass"},
            {"#f4f4f4", "a bank with nothing to move in that pass"}});
  return s;
}

std::uint32_t swizzle_of_mode(int mode_bytes, std::uint32_t offset) {
  switch (mode_bytes) {
    case 128:
      return Swizzle128B{}(offset);
    case 64:
      return Swizzle64B{}(offset);
    case 32:
      return Swizzle32B{}(offset);
  }
  throw std::invalid_argument("swizzle_of_mode: 128, 64 or 32 bytes, not " +
                              std::to_string(mode_bytes));
}

course::svg::Scene xor_swizzle_scene(int mode_bytes, int follow) {
  namespace svg = course::svg;
  // Eight rows of the mode's length (128, 64 or 32 bytes): one period of the swizzle, whose
  // steering bits 7 and up count 128-byte lines, so 1, 2 or 4 rows share a line.
  constexpr int kRows = 8, kChunkBytes = 16, kLineBytes = 128;
  const int chunks = mode_bytes / kChunkBytes;
  const int bits = mode_bytes == 128 ? 3 : mode_bytes == 64 ? 2 : 1;
  const int rows_per_line = kLineBytes / mode_bytes;
  const std::string type = "Swizzle<" + std::to_string(bits) + ", 4, 3>";
  const std::string rule = rows_per_line == 1   ? "c XOR (r mod 8)"
                           : rows_per_line == 2 ? "c XOR (floor(r / 2) mod 4)"
                                                : "c XOR floor(r / 4)";
  // Where the swizzle puts chunk c of row r: the row and chunk of the offset it returns.
  std::vector<std::vector<std::pair<int, int>>> stored_at(kRows,
                                                          std::vector<std::pair<int, int>>(chunks));
  // Who is stored at each place: (row, chunk) as written.
  std::vector<std::vector<std::vector<std::pair<int, int>>>> claims(
      kRows, std::vector<std::vector<std::pair<int, int>>>(chunks));
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < chunks; ++c) {
      const std::uint32_t out =
          swizzle_of_mode(mode_bytes, static_cast<std::uint32_t>(r * mode_bytes + c * kChunkBytes));
      const int r2 = static_cast<int>(out / mode_bytes);
      const int s2 = static_cast<int>(out % mode_bytes / kChunkBytes);
      stored_at[r][c] = {r2, s2};
      if (r2 >= 0 && r2 < kRows) claims[r2][s2].push_back({r, c});
    }
  }
  // The followed chunk of each row: the first of the four banks it is stored in.
  const int followed = follow % chunks;
  auto first_bank = [&](int r, int s2) {
    return (r * mode_bytes + s2 * kChunkBytes) % kLineBytes / 4;
  };
  std::vector<int> banks;
  for (int r = 0; r < kRows; ++r) banks.push_back(first_bank(r, stored_at[r][followed].second));
  std::vector<int> distinct = banks;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const int unswizzled = std::min(kRows, kLineBytes / mode_bytes);  // bank groups of a plain column

  svg::Scene s(type + ", the " + std::to_string(mode_bytes) + "-byte mode",
               "Eight rows of " + std::to_string(mode_bytes) + " bytes, " + std::to_string(chunks) +
                   " chunks of 16 bytes each, as written on the left and as " + type +
                   " stores them on the right, each chunk labelled with its number in the row. "
                   "Chunk " +
                   std::to_string(followed) + " of the eight rows is outlined: it lands in " +
                   std::to_string(distinct.size()) + " different groups of four banks.");
  s.text(12, 22,
         std::to_string(mode_bytes) + "-byte mode, " + type + ": bits 4-" +
             std::to_string(3 + bits) + " of the offset XOR bits 7-" + std::to_string(6 + bits),
         {15, svg::Anchor::kStart, true});
  s.text(12, 44, "chunk c of row r is stored at chunk " + rule + "; rows never move",
         {13, svg::Anchor::kStart});
  constexpr double kCell = 38, kTop = 112;
  const svg::Grid left{70, kTop, kCell, kCell, kRows, chunks};
  const svg::Grid right{left.right() + 110, kTop, kCell, kCell, kRows, chunks};
  for (const svg::Grid* g : {&left, &right}) {
    s.text(g->x, kTop - 48, g == &left ? "as written" : "as stored",
           {13, svg::Anchor::kStart, true});
    s.text(g->x, kTop - 30, "16-byte chunk", {11, svg::Anchor::kStart, false, svg::kFaint});
    g->numbers(s, 1, 11);
  }
  s.text(left.x - 22, kTop - 8, "row", {11, svg::Anchor::kEnd, false, svg::kFaint});
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < chunks; ++c) {
      s.cell(left.left(c), left.top(r), kCell, kCell, svg::wheel(c, 8), std::to_string(c), "",
             "row " + std::to_string(r) + ", chunk " + std::to_string(c) + ": byte " +
                 std::to_string(r * mode_bytes + c * kChunkBytes),
             13);
    }
  }
  for (int r = 0; r < kRows; ++r) {
    for (int s2 = 0; s2 < chunks; ++s2) {
      const auto& who = claims[r][s2];
      const double x = right.left(s2), y = right.top(r);
      if (who.size() == 1) {
        const auto [from, c] = who[0];
        // A chunk from another row (a wrong swizzle) is labelled with its row as well.
        s.cell(x, y, kCell, kCell, svg::wheel(c, 8),
               from == r ? std::to_string(c) : std::to_string(from) + ":" + std::to_string(c),
               "swz " + std::to_string(from) + " " + std::to_string(c) + " " + std::to_string(r) +
                   " " + std::to_string(s2),
               "chunk " + std::to_string(c) + " of row " + std::to_string(from) +
                   " is stored in row " + std::to_string(r) + " at chunk " + std::to_string(s2) +
                   ", banks " + std::to_string(first_bank(r, s2)) + "-" +
                   std::to_string(first_bank(r, s2) + 3),
               13);
      } else {
        s.cell(x, y, kCell, kCell, svg::tint(svg::kVermillion, 0.3),
               who.empty() ? "?" : "x" + std::to_string(who.size()), who.empty() ? "hole" : "clash",
               who.empty() ? "no chunk is stored here" : "several chunks are stored here", 13);
      }
    }
  }
  // A chunk the swizzle moves to another row (a wrong swizzle): its cell on the left is marked.
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < chunks; ++c) {
      if (stored_at[r][c].first != r) {
        s.rect(left.left(c) + 3, left.top(r) + 3, kCell - 6, kCell - 6, "none", svg::kVermillion, 3,
               "moved-row");
      }
    }
  }
  left.edges(s, 0, 0, svg::kInk, 1.5);
  right.edges(s, 0, 0, svg::kInk, 1.5);
  // The followed chunk: its column on the left, its places on the right and their banks.
  s.rect(left.left(followed), left.top(0), kCell, kRows * kCell, "none", svg::kInk, 3.5);
  s.text(right.right() + 12, kTop - 8, "banks", {11, svg::Anchor::kStart, false, svg::kFaint});
  for (int r = 0; r < kRows; ++r) {
    const auto [r2, s2] = stored_at[r][followed];
    if (r2 != r) continue;
    s.rect(right.left(s2) + 1.5, right.top(r) + 1.5, kCell - 3, kCell - 3, "none", svg::kInk, 3.5,
           "followed");
    s.text(right.right() + 12, right.cy(r) + 4,
           std::to_string(banks[r]) + "-" + std::to_string(banks[r] + 3),
           {12, svg::Anchor::kStart});
  }
  s.arrow(left.right() + 16, left.cy(3) + kCell / 2, right.x - 16, right.cy(3) + kCell / 2,
          svg::kInk, 2);
  s.text((left.right() + right.x) / 2, left.cy(3) + kCell / 2 - 10, "XOR",
         {13, svg::Anchor::kMiddle, true});
  double y = left.bottom() + 30;
  if (followed != follow) {
    s.text(12, y,
           "(chunk " + std::to_string(follow) + " asked for: a " + std::to_string(mode_bytes) +
               "-byte row has " + std::to_string(chunks) + " chunks, so chunk " +
               std::to_string(followed) + " is shown)",
           {13, svg::Anchor::kStart, false, svg::kFaint});
    y += 22;
  }
  const int waves = kRows / static_cast<int>(distinct.size());
  s.text(12, y,
         "Chunk " + std::to_string(followed) + " of rows 0-7 (outlined) lies in " +
             std::to_string(distinct.size()) + " different groups of four banks:",
         {13, svg::Anchor::kStart});
  s.text(12, y + 20,
         "a quarter-warp reading that float4 column takes " + std::to_string(waves) +
             (waves == 1 ? " wavefront" : " wavefronts") + " (" +
             std::to_string(kRows / unswizzled) + " unswizzled).",
         {13, svg::Anchor::kStart});
  return s;
}

}  // namespace lesson09
