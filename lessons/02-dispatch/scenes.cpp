/// \file scenes.cpp
/// \brief Lesson 02's pictures (given code, compiled with each library): the 2D launch picture of
/// the lesson program and the book, and the 1D launch, drawn from the emulated launches, which call
/// your index functions in the exercise's library.
#include "lessons/02-dispatch/figures.hpp"

#include "lessons/02-dispatch/emulate.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson02 {

namespace {

namespace svg = course::svg;

std::string pair_str(int a, int b) {
  return "(" + std::to_string(a) + "," + std::to_string(b) + ")";
}

/// The fill of a block's threads: five of the palette's colours that stay apart when pale
/// (neither sky next to blue nor vermillion next to orange). Neighbouring blocks, diagonals too,
/// never share one: their indices bx + 2 by differ by 1 to 3 (mod 5). Odd warps darker.
std::string block_fill(int bx, int by, int warp) {
  static const svg::Colour kFive[] = {svg::kBlue, svg::kOrange, svg::kGreen, svg::kPurple,
                                      svg::kYellow};
  return svg::tint(kFive[(bx + 2 * by) % 5], warp % 2 == 1 ? 0.40 : 0.68);
}

/// Characters of a label, in pixels at `font` (the scene's own upper estimate, 0.6 em each).
double text_px(const std::string& s, double font) {
  return 0.6 * font * static_cast<double>(s.size());
}

/// What grid_scene draws, from the records and, for an emulation, the grid and the coverage.
/// `stopped`: how many threads the guard stopped, when an emulation counted them (else -1: the
/// threads past the array's edges).
svg::Scene draw_grid(const std::vector<ThreadRecord>& records, const std::vector<int>* coverage,
                     int width, int height, Int2 block, Int2 grid, long stopped,
                     const std::string& note) {
  const int cols = grid.x * block.x;  // threads across (the launch, rounded up)
  const int rows = grid.y * block.y;  // threads down
  const int draw_cols = std::max(cols, width), draw_rows = std::max(rows, height);
  const long launched = static_cast<long>(cols) * rows;
  const int threads_per_block = block.x * block.y;
  const int warps_per_block = (threads_per_block + kWarpSize - 1) / kWarpSize;
  auto at = [&](int x, int y) { return static_cast<std::size_t>(y) * width + x; };
  auto inside = [&](int x, int y) { return x < width && y < height; };
  auto launched_at = [&](int x, int y) { return x < cols && y < rows; };
  const ThreadRecord none = unwritten_record();
  auto written = [&](int x, int y) {
    return inside(x, y) && !same_record(records[at(x, y)], none);
  };
  long idle = 0;
  for (int y = 0; y < draw_rows; ++y)
    for (int x = 0; x < draw_cols; ++x) idle += launched_at(x, y) && !inside(x, y);
  if (stopped < 0) stopped = idle;

  const std::string title = "record_thread_coords: " + std::to_string(width) + " wide x " +
                            std::to_string(height) + " high, block " + pair_str(block.x, block.y) +
                            ", grid " + pair_str(grid.x, grid.y);
  const std::string summary =
      std::to_string(launched) + " threads launched, " + std::to_string(stopped) +
      " stopped by the guard; each block: " + std::to_string(threads_per_block) + " threads in " +
      std::to_string(warps_per_block) + (warps_per_block == 1 ? " warp" : " warps") + " (" +
      std::to_string(threads_per_block) + " of " + std::to_string(warps_per_block * kWarpSize) +
      " lanes busy)";
  svg::Scene s(title,
               "Every thread of a 2D launch as one cell, " + std::to_string(draw_cols) +
                   " across and " + std::to_string(draw_rows) +
                   " down, coloured by its block, with block edges thick and warp edges thin; " +
                   summary + ". Threads past the array's right or bottom edge are hatched: the " +
                   "guard stops them.");

  // How much room each cell has, and what fits in it: three lines (element, thread, warp and
  // lane), two (element, warp and lane), the lane alone or nothing.
  constexpr double kLeft = 124, kGridWidth = 700;
  const std::string widest = pair_str(height - 1, width - 1);
  // Whole pixels while they are 3 or more (crisp edges); a very wide launch gets fractional ones,
  // so that the picture stays within the book's width.
  const double fit = kGridWidth / draw_cols;
  const double cw = std::min(92.0, fit >= 3 ? std::floor(fit) : fit);
  const int lines = cw >= 80                                         ? 3
                    : cw >= text_px(widest, 11) + 4                  ? 2
                    : cw >= text_px("31", 11) + 4 && !widest.empty() ? 1
                                                                     : 0;
  const double ch = lines == 3 ? 58 : lines == 2 ? 40 : cw;
  const double top = note.empty() ? 112 : 130;
  const svg::Grid g{kLeft, top, cw, ch, draw_rows, draw_cols};

  s.text(12, 24, title, {15, svg::Anchor::kStart, true});
  s.text(12, 44, summary, {12, svg::Anchor::kStart});
  if (!note.empty()) s.text(12, 62, note, {12, svg::Anchor::kStart, false, svg::kFaint});

  // The warp of the thread at launch position (x, y): from its record when it wrote one, else
  // from the launch's geometry (idle threads belong to warps too).
  auto warp_at = [&](int x, int y) {
    if (written(x, y) && records[at(x, y)].warp >= 0) return records[at(x, y)].warp;
    return ((y % block.y) * block.x + x % block.x) / kWarpSize;
  };

  // Cells: one per launched thread, and one per element of the array. Tooltips and white gaps
  // only where cells are large enough to point at (a 256 x 256 picture stays a few MB).
  const bool tips = lines > 0;
  const std::string gap = cw >= 6 ? "#ffffff" : "none";
  for (int y = 0; y < draw_rows; ++y) {
    for (int x = 0; x < draw_cols; ++x) {
      const double x0 = g.left(x), y0 = g.top(y), cx = g.cx(x), cy = g.cy(y);
      if (written(x, y)) {
        const ThreadRecord& r = records[at(x, y)];
        const int times = coverage ? (*coverage)[at(x, y)] : 1;
        const std::string tip =
            "element (row " + std::to_string(y) + ", column " + std::to_string(x) +
            "), written by thread " + pair_str(r.thread_x, r.thread_y) + " of block " +
            pair_str(r.block_x, r.block_y) +
            (r.warp >= 0 ? ", warp " + std::to_string(r.warp) + " lane " + std::to_string(r.lane)
                         : std::string()) +
            (times > 1 ? ", " + std::to_string(times) + " times" : "");
        s.rect(x0, y0, cw, ch, block_fill(r.block_x, r.block_y, std::max(r.warp, 0)), gap, 1,
               "cell", tips ? tip : "");
        if (times > 1) {
          s.rect(x0 + 2, y0 + 2, cw - 4, ch - 4, "none", svg::kVermillion, 3, "twice");
        }
        const std::string wl =
            r.warp >= 0 ? "w" + std::to_string(r.warp) + " l" + std::to_string(r.lane) : "";
        if (lines == 3) {
          s.text(cx, cy - 8, pair_str(r.y, r.x), {14, svg::Anchor::kMiddle, true});
          s.text(cx, cy + 8, "t" + pair_str(r.thread_x, r.thread_y), {11});
          if (!wl.empty()) s.text(cx, cy + 22, wl, {11});
        } else if (lines == 2) {
          s.text(cx, cy - 3, pair_str(r.y, r.x), {11, svg::Anchor::kMiddle, true});
          if (!wl.empty()) s.text(cx, cy + 13, wl, {11});
        } else if (lines == 1 && r.lane >= 0) {
          s.text(cx, cy + 4, std::to_string(r.lane), {11});
        }
      } else if (inside(x, y)) {
        s.rect(x0, y0, cw, ch, "#ffffff", svg::kVermillion, 1, "unwritten",
               tips ? "element (row " + std::to_string(y) + ", column " + std::to_string(x) +
                          "): no thread wrote it"
                    : "");
        if (lines == 3) {
          s.text(cx, cy + 4, "not written", {11, svg::Anchor::kMiddle, false, svg::kVermillion});
        } else if (lines == 2) {
          s.text(cx, cy - 3, "not", {11, svg::Anchor::kMiddle, false, svg::kVermillion});
          s.text(cx, cy + 11, "written", {11, svg::Anchor::kMiddle, false, svg::kVermillion});
        }
      } else if (launched_at(x, y)) {
        s.rect(x0, y0, cw, ch, svg::kHatch, gap, 1, "idle",
               tips ? "thread " + pair_str(x % block.x, y % block.y) + " of block " +
                          pair_str(x / block.x, y / block.y) +
                          ": past the array's edge, stopped by the guard"
                    : "");
        if (lines > 1) s.text(cx, cy + 4, "idle", {11, svg::Anchor::kMiddle, false, svg::kFaint});
      }
    }
  }

  // Warp edges inside blocks: between neighbouring threads of one block in different warps (on
  // cells too small for lines, the shades alone tell the warps apart).
  for (int y = 0; y < (cw >= 6 ? rows : 0); ++y) {
    for (int x = 0; x < cols; ++x) {
      if (x + 1 < cols && (x + 1) % block.x != 0 && warp_at(x, y) != warp_at(x + 1, y)) {
        s.line(g.left(x + 1), g.top(y), g.left(x + 1), g.top(y) + ch, svg::kInk, 1.6);
      }
      if (y + 1 < rows && (y + 1) % block.y != 0 && warp_at(x, y) != warp_at(x, y + 1)) {
        s.line(g.left(x), g.top(y + 1), g.left(x) + cw, g.top(y + 1), svg::kInk, 1.6);
      }
    }
  }
  // Block edges: one frame per block of the grid.
  for (int by = 0; by < grid.y; ++by) {
    for (int bx = 0; bx < grid.x; ++bx) {
      s.rect(g.left(bx * block.x), g.top(by * block.y), block.x * cw, block.y * ch, "none",
             svg::kInk, 3.5, "block");
    }
  }
  // The array's right and bottom edges: past them, the guard stops the threads.
  if (cols > width) {
    s.line(g.left(width), g.y, g.left(width), g.top(height), svg::kVermillion, 2.5, true,
           "array-edge");
  }
  if (rows > height) {
    s.line(g.x, g.top(height), g.left(width), g.top(height), svg::kVermillion, 2.5, true,
           "array-edge");
  }

  // Along the edges: blockIdx.x and the column above, blockIdx.y and the row on the left.
  const svg::Font faint{11, svg::Anchor::kEnd, false, svg::kFaint};
  s.text(kLeft - 6, top - 26, "blockIdx.x", faint);
  s.text(kLeft - 6, top - 6, "column x", faint);
  s.text(20, top - 48, "blockIdx.y", {11, svg::Anchor::kStart, false, svg::kFaint});
  s.text(kLeft - 6, top - 48, "row y", faint);
  for (int bx = 0; bx < grid.x; ++bx) {
    s.text(g.left(bx * block.x) + block.x * cw / 2, top - 26, std::to_string(bx),
           {12, svg::Anchor::kMiddle, true});
  }
  for (int by = 0; by < grid.y; ++by) {
    s.text(48, g.top(by * block.y) + block.y * ch / 2 + 4, std::to_string(by),
           {12, svg::Anchor::kMiddle, true});
  }
  g.numbers(s);

  // The legend, under the grid.
  double ly = g.bottom() + 34;
  auto key_line = [&](const std::string& stroke, double w, bool dashed, const std::string& label) {
    s.line(16, ly - 4, 44, ly - 4, stroke, w, dashed);
    s.text(52, ly, label, {12, svg::Anchor::kStart});
    ly += 22;
  };
  auto key_box = [&](const std::string& fill, const std::string& stroke, const std::string& label) {
    s.rect(16, ly - 13, 28, 16, fill, stroke, 1.5);
    s.text(52, ly, label, {12, svg::Anchor::kStart});
    ly += 22;
  };
  key_line(svg::kInk, 3.5, false, "block edge: one colour per block (blockIdx above and left)");
  if (warps_per_block > 1) {
    if (cw >= 6) {
      key_line(svg::kInk, 1.6, false,
               "warp edge: a warp is 32 threads of one block, numbered row by row, x fastest");
    }
    key_box(block_fill(0, 0, 1), svg::kInk,
            "odd warps darker (linear id = thread_y * block_x + thread_x; warp = id / 32)");
  } else {
    s.text(16, ly,
           "each block is one warp: its threads numbered row by row, x fastest, are its lanes",
           {12, svg::Anchor::kStart});
    ly += 22;
  }
  if (idle > 0) {
    key_box(svg::kHatch, svg::kGrey, "idle thread: past the array's edge, the guard stops it");
    key_line(svg::kVermillion, 2.5, true, "the array's edge");
  }
  const long unwritten = s.count("unwritten"), twice = s.count("twice");
  if (unwritten > 0) {
    key_box("#ffffff", svg::kVermillion,
            std::to_string(unwritten) + " element(s) no thread wrote: the index math is wrong");
  }
  if (twice > 0) {
    key_box("none", svg::kVermillion,
            std::to_string(twice) + " element(s) written by more than one thread");
  }
  if (lines == 3) {
    s.text(16, ly,
           "in a cell: (y,x) = (row, column) it computed; t(x,y) = threadIdx; w warp, l lane",
           {12, svg::Anchor::kStart});
  } else if (lines == 2) {
    s.text(16, ly, "in a cell: (y,x) = (row, column) the thread computed; w warp, l lane",
           {12, svg::Anchor::kStart});
  } else if (lines == 1) {
    s.text(16, ly, "in a cell: the thread's lane in its warp", {12, svg::Anchor::kStart});
  }
  return s;
}

}  // namespace

svg::Scene grid_scene(const std::vector<ThreadRecord>& records, int width, int height, int block_x,
                      int block_y, const std::string& note) {
  const Int2 grid{(width + block_x - 1) / block_x, (height + block_y - 1) / block_y};
  return draw_grid(records, nullptr, width, height, Int2{block_x, block_y}, grid, -1, note);
}

svg::Scene grid_scene(const Emulation2D& e, const std::string& note) {
  if (!e.problem.empty()) throw std::runtime_error(e.problem);
  return draw_grid(e.records, &e.coverage, e.width, e.height, e.block, e.grid, e.threads_idle,
                   note);
}

svg::Scene launch_2d_scene(int width, int height, int block_x, int block_y) {
  return grid_scene(emulate_2d(width, height, block_x, block_y),
                    "emulated: every thread of the grid runs your global_index_2d, "
                    "in_bounds_2d, warp_of and lane_of");
}

svg::Scene launch_1d_scene(int n, int block_size) {
  const Emulation1D e = emulate_1d(n, block_size);  // your blocks_for, index and guard
  if (!e.problem.empty()) throw std::runtime_error(e.problem);
  const long launched = e.threads_launched;
  const std::string head = "n = " + std::to_string(n) +
                           ", blockDim.x = " + std::to_string(block_size) + ": " +
                           std::to_string(e.blocks) + (e.blocks == 1 ? " block, " : " blocks, ") +
                           std::to_string(launched) + " threads launched, " +
                           std::to_string(e.threads_idle) + " stopped by the guard";
  svg::Scene s("A 1D launch: " + head,
               "The threads of a 1D launch in a row, grouped into blocks of " +
                   std::to_string(block_size) +
                   ", each with its threadIdx.x and its global index i = blockIdx.x * blockDim.x + "
                   "threadIdx.x; an arrow goes from every thread the guard lets through to the "
                   "element c[i] it writes, in a row below. " +
                   head + ".");
  const int slots = static_cast<int>(std::max<long>(launched, n));
  constexpr double kLeft = 112, kRoom = 720;
  const double cw = std::min(40.0, static_cast<double>(static_cast<int>(kRoom / slots)));
  constexpr double kRow = 24;
  const double y_block = 96, y_thread = y_block + 8, y_index = y_thread + kRow + 6;
  const double y_elem = y_index + kRow + 56;
  auto x_of = [&](long slot) { return kLeft + static_cast<double>(slot) * cw; };

  s.text(12, 24, head, {15, svg::Anchor::kStart, true});
  s.text(12, 46,
         "i = blockIdx.x * blockDim.x + threadIdx.x (your global_index_1d); the guard "
         "(your in_bounds_1d) stops i >= n",
         {12, svg::Anchor::kStart});

  const svg::Font row_label{12, svg::Anchor::kEnd, false, svg::kFaint};
  s.text(kLeft - 8, y_block - 10, "blockIdx.x", row_label);
  s.text(kLeft - 8, y_thread + 16, "threadIdx.x", row_label);
  s.text(kLeft - 8, y_index + 16, "i", row_label);
  s.text(kLeft - 8, y_elem + 16, "c[i]", row_label);

  // Which block wrote each element (the last one, for an element written twice).
  std::vector<int> writer(static_cast<std::size_t>(n), -1);
  for (int b = 0; b < e.blocks; ++b) {
    const std::string fill = svg::tint(svg::category(b), 0.55);
    s.text(x_of(static_cast<long>(b) * block_size) + block_size * cw / 2, y_block - 10,
           std::to_string(b), {12, svg::Anchor::kMiddle, true});
    for (int t = 0; t < block_size; ++t) {
      const long slot = static_cast<long>(b) * block_size + t;
      const int i = global_index_1d(b, block_size, t);
      const bool passes = in_bounds_1d(i, n);
      const std::string who = "thread " + std::to_string(t) + " of block " + std::to_string(b) +
                              ": i = " + std::to_string(i);
      s.cell(x_of(slot), y_thread, cw, kRow, fill, std::to_string(t), "thread", who, 11);
      s.cell(x_of(slot), y_index, cw, kRow, passes ? fill : svg::kHatch, std::to_string(i),
             passes ? "" : "idle",
             who + (passes ? "" : ", not below n = " + std::to_string(n) + ": stopped"), 11);
      if (!passes) continue;
      const double x1 = x_of(slot) + cw / 2, y1 = y_index + kRow + 2;
      const double x2 = x_of(i) + cw / 2, y2 = y_elem - 3;
      if (i >= 0 && i < n) {
        s.arrow(x1, y1, x2, y2, svg::kInk, 1.2, "arrow");
        writer[static_cast<std::size_t>(i)] = b;
      } else if (i >= 0 && i < slots) {  // the write lands past the array's end
        s.arrow(x1, y1, x2, y2, svg::kVermillion, 1.5);
        s.cell(x_of(i), y_elem, cw, kRow, svg::kVermillion, "!", "past-end", who + ": past n");
      }
    }
    s.rect(x_of(static_cast<long>(b) * block_size), y_thread, block_size * cw,
           y_index + kRow - y_thread, "none", svg::kInk, 2.5, "block");
  }
  for (int i = 0; i < n; ++i) {
    const int times = e.coverage[static_cast<std::size_t>(i)];
    const std::string cls = times == 1 ? "written" : times == 0 ? "missing" : "twice";
    const std::string fill = times == 1   ? svg::tint(svg::category(writer[i]), 0.55)
                             : times == 0 ? "#ffffff"
                                          : svg::kVermillion;
    s.cell(x_of(i), y_elem, cw, kRow, fill, std::to_string(i), cls,
           "c[" + std::to_string(i) + "]: written " + std::to_string(times) +
               (times == 1 ? " time" : " times"),
           11);
    if (times != 1) s.rect(x_of(i), y_elem, cw, kRow, "none", svg::kVermillion, 2);
  }
  // The array's end: what lies right of it has no element.
  const double x_end = x_of(n);
  s.line(x_end, y_index - 4, x_end, y_elem + kRow + 6, svg::kVermillion, 2.5, true, "array-end");
  s.text(x_end - 4, y_elem + kRow + 18, "the array ends at n = " + std::to_string(n),
         {12, svg::Anchor::kEnd, false, svg::kVermillion});

  double ly = y_elem + kRow + 52;
  std::vector<std::pair<std::string, std::string>> keys{
      {svg::tint(svg::category(0), 0.55), "a block's threads, and the elements they write"},
  };
  if (e.threads_idle > 0) {
    keys.push_back({svg::kHatch, "i >= n: over-launched, the guard stops the thread"});
  }
  const int missing = s.count("missing"), twice = s.count("twice"), past = s.count("past-end");
  if (missing > 0) keys.push_back({"#ffffff", "an element no thread wrote"});
  if (twice > 0) keys.push_back({svg::kVermillion, "an element written more than once"});
  if (past > 0 || e.out_of_range_count > 0) {
    keys.push_back({svg::kVermillion, "a write past the end: the guard let it through"});
  }
  s.legend(16, ly, keys);
  return s;
}

}  // namespace lesson02
