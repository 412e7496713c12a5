/// \file grid_text.hpp
/// \brief The records of a 2D launch printed as a text grid, one cell per element, blocks
/// separated by `|` and `-` lines.
///
/// Row-major like the array: row y = 0 at the top, column x = 0 on the left.
#pragma once

#include "dispatch.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace lesson02 {

/// What each cell of the text grid shows.
enum class CellLabel {
  kRowCol,       ///< "(y,x)": the global row and column the thread computed
  kWarpLane,     ///< "w:l": the warp in the block and the lane in the warp
  kBlockThread,  ///< "bx,by/tx,ty": blockIdx and threadIdx
};

/// One cell's text; "." for an element no thread wrote.
inline std::string cell_label(const ThreadRecord& r, CellLabel what) {
  if (same_record(r, unwritten_record())) return ".";
  auto s = [](int v) { return std::to_string(v); };
  switch (what) {
    case CellLabel::kRowCol:
      return "(" + s(r.y) + "," + s(r.x) + ")";
    case CellLabel::kWarpLane:
      return s(r.warp) + ":" + s(r.lane);
    case CellLabel::kBlockThread:
      return s(r.block_x) + "," + s(r.block_y) + "/" + s(r.thread_x) + "," + s(r.thread_y);
  }
  return "?";
}

/// The `width x height` records (row-major) as lines of text: a header of column numbers, one
/// line per row, `|` between block columns and a `-+-` line between block rows (blocks of
/// `block_x x block_y` threads). Every line ends in '\n'.
inline std::string grid_text(const std::vector<ThreadRecord>& records, int width, int height,
                             int block_x, int block_y, CellLabel what) {
  auto at = [&](int x, int y) {
    return records[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x];
  };
  std::size_t cw = ("x=" + std::to_string(width - 1)).size();
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) cw = std::max(cw, cell_label(at(x, y), what).size());
  }
  const std::size_t rw = ("y=" + std::to_string(height - 1)).size();
  auto right = [](const std::string& s, std::size_t w) {
    return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
  };
  auto left = [](const std::string& s, std::size_t w) {
    return s + std::string(w > s.size() ? w - s.size() : 0, ' ');
  };
  auto sep = [&](int x, const char* block_edge, const char* inside) {
    return x == 0 ? "" : (x % block_x == 0 ? block_edge : inside);
  };

  std::string out = std::string(rw + 2, ' ');
  for (int x = 0; x < width; ++x) out += sep(x, "   ", " ") + right("x=" + std::to_string(x), cw);
  out += '\n';
  for (int y = 0; y < height; ++y) {
    if (y > 0 && y % block_y == 0) {
      out += std::string(rw + 2, ' ');
      for (int x = 0; x < width; ++x) out += sep(x, "-+-", "-") + std::string(cw, '-');
      out += '\n';
    }
    out += left("y=" + std::to_string(y), rw) + "  ";
    for (int x = 0; x < width; ++x)
      out += sep(x, " | ", " ") + right(cell_label(at(x, y), what), cw);
    out += '\n';
  }
  return out;
}

}  // namespace lesson02
