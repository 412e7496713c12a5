/// \file grid_svg.hpp
/// \brief A picture of a 2D launch as a standalone SVG: one cell per thread of the grid, coloured
/// by block, warps outlined and shaded, idle (over-launched) threads hatched, and a legend.
///
/// The picture shows every thread the launch starts, also those past the array's edge: the grid
/// is rounded up to whole blocks, so along the right and bottom edges some threads find no
/// element and the guard stops them. Elements are drawn from the records the threads wrote (on
/// the GPU or in the emulation), so a wrong index shows up as a wrong label or colour. Small
/// grids get each thread's coordinates written in its cell. Row y = 0 is at the top.
#pragma once

#include "dispatch.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace lesson02 {
namespace svg_detail {

/// "#rrggbb" for a hue in degrees, saturation and lightness in [0, 1].
inline std::string hsl(double h, double s, double l) {
  const double c = (1.0 - std::fabs(2.0 * l - 1.0)) * s;
  const double hp = std::fmod(h, 360.0) / 60.0;
  const double x = c * (1.0 - std::fabs(std::fmod(hp, 2.0) - 1.0));
  double r = 0, g = 0, b = 0;
  if (hp < 1) {
    r = c, g = x;
  } else if (hp < 2) {
    r = x, g = c;
  } else if (hp < 3) {
    g = c, b = x;
  } else if (hp < 4) {
    g = x, b = c;
  } else if (hp < 5) {
    r = x, b = c;
  } else {
    r = c, b = x;
  }
  const double m = l - c / 2.0;
  char buf[8];
  auto u8 = [&](double v) {
    return static_cast<int>(std::lround(std::clamp(v + m, 0.0, 1.0) * 255));
  };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", u8(r), u8(g), u8(b));
  return buf;
}

/// The fill of a block's cells: one hue per block, lighter and darker for even and odd warps.
inline std::string block_fill(int block_x, int block_y, int blocks_across, int warp) {
  const double hue = std::fmod((block_y * blocks_across + block_x) * 137.508 + 200.0, 360.0);
  return hsl(hue, 0.60, (warp >= 0 && warp % 2 == 1) ? 0.68 : 0.82);
}

inline std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace svg_detail

/// The picture of a launch over a `width x height` array in blocks of `block_x x block_y`, from
/// the `width * height` records (row-major) its threads wrote. Returns a complete SVG document.
/// `note`, when given, is one more line under the title (e.g. "emulated on the CPU").
inline std::string grid_svg(const std::vector<ThreadRecord>& records, int width, int height,
                            int block_x, int block_y, const std::string& note = "") {
  using svg_detail::esc;
  const int gx = (width + block_x - 1) / block_x;   // blocks across
  const int gy = (height + block_y - 1) / block_y;  // blocks down
  const int cols = gx * block_x;                    // threads across (the launch, rounded up)
  const int rows = gy * block_y;                    // threads down
  const long launched = static_cast<long>(cols) * rows;
  const long idle = launched - static_cast<long>(width) * height;
  const int threads_per_block = block_x * block_y;
  const int warps_per_block = (threads_per_block + kWarpSize - 1) / kWarpSize;

  const bool labels = cols <= 12 && rows <= 16;  // room for text in every cell
  const int cw = labels ? 92 : std::clamp(900 / std::max(cols, 1), 8, 36);
  const int ch = labels ? 58 : cw;
  const int left = 56, top = 108, right = 24;
  const int grid_w = cols * cw, grid_h = rows * ch;
  const int svg_w = std::max(left + grid_w + right, 600);

  std::ostringstream body;
  auto at = [&](int x, int y) -> const ThreadRecord& {
    return records[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x];
  };
  // The warp of the thread at launch position (px, py): from its record when it wrote one,
  // else from the launch's geometry (idle threads belong to warps too).
  auto warp_at = [&](int px, int py) {
    if (px < width && py < height && at(px, py).warp >= 0) return at(px, py).warp;
    return ((py % block_y) * block_x + px % block_x) / kWarpSize;
  };

  // Cells: one per launched thread.
  for (int py = 0; py < rows; ++py) {
    for (int px = 0; px < cols; ++px) {
      const int x0 = left + px * cw, y0 = top + py * ch;
      const bool inside = px < width && py < height;
      const ThreadRecord none = unwritten_record();
      const ThreadRecord& r = inside ? at(px, py) : none;
      const bool written = inside && !same_record(r, none);
      std::string fill = "url(#idle)";
      std::string cls = "idle";
      if (written) {
        fill = svg_detail::block_fill(r.block_x, r.block_y, gx, r.warp);
        cls = "cell";
      } else if (inside) {
        fill = "#ffffff";
        cls = "cell unwritten";
      }
      body << "<rect class=\"" << cls << "\" x=\"" << x0 << "\" y=\"" << y0 << "\" width=\"" << cw
           << "\" height=\"" << ch << "\" fill=\"" << fill
           << "\" stroke=\"#ffffff\" stroke-width=\"1\"/>\n";
      if (!labels) continue;
      const int cx = x0 + cw / 2, cy = y0 + ch / 2;
      if (written) {
        body << "<text x=\"" << cx << "\" y=\"" << cy - 8 << "\" class=\"big\">(" << r.y << ","
             << r.x << ")</text>\n";
        body << "<text x=\"" << cx << "\" y=\"" << cy + 8 << "\" class=\"small\">t(" << r.thread_x
             << "," << r.thread_y << ")</text>\n";
        if (r.warp >= 0) {
          body << "<text x=\"" << cx << "\" y=\"" << cy + 22 << "\" class=\"small\">w" << r.warp
               << " l" << r.lane << "</text>\n";
        }
      } else if (inside) {
        body << "<text x=\"" << cx << "\" y=\"" << cy + 4
             << "\" class=\"small bad\">not written</text>\n";
      } else {
        body << "<text x=\"" << cx << "\" y=\"" << cy + 4 << "\" class=\"small dim\">idle</text>\n";
      }
    }
  }

  // Warp edges inside blocks, then block edges, as line segments between neighbouring cells.
  std::ostringstream warp_lines, block_lines;
  auto seg = [&](std::ostringstream& out, int x1, int y1, int x2, int y2) {
    out << "M" << x1 << " " << y1 << "L" << x2 << " " << y2;
  };
  for (int py = 0; py < rows; ++py) {
    for (int px = 0; px < cols; ++px) {
      const int x0 = left + px * cw, y0 = top + py * ch;
      if (px + 1 < cols) {  // the edge to the right neighbour
        const bool new_block = (px + 1) % block_x == 0;
        if (new_block) {
          seg(block_lines, x0 + cw, y0, x0 + cw, y0 + ch);
        } else if (warp_at(px, py) != warp_at(px + 1, py)) {
          seg(warp_lines, x0 + cw, y0, x0 + cw, y0 + ch);
        }
      }
      if (py + 1 < rows) {  // the edge to the neighbour below
        const bool new_block = (py + 1) % block_y == 0;
        if (new_block) {
          seg(block_lines, x0, y0 + ch, x0 + cw, y0 + ch);
        } else if (warp_at(px, py) != warp_at(px, py + 1)) {
          seg(warp_lines, x0, y0 + ch, x0 + cw, y0 + ch);
        }
      }
    }
  }
  if (!warp_lines.str().empty()) {
    body << "<path d=\"" << warp_lines.str()
         << "\" stroke=\"#333333\" stroke-width=\"1.6\" fill=\"none\"/>\n";
  }
  if (!block_lines.str().empty()) {
    body << "<path d=\"" << block_lines.str()
         << "\" stroke=\"#111111\" stroke-width=\"3.5\" fill=\"none\"/>\n";
  }
  body << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << grid_w << "\" height=\""
       << grid_h << "\" fill=\"none\" stroke=\"#111111\" stroke-width=\"3.5\"/>\n";
  if (idle > 0) {  // the array's right and bottom edges: past them, the guard stops the threads
    const int ex = left + width * cw, ey = top + height * ch;
    body << "<path d=\"";
    if (width < cols) body << "M" << ex << " " << top << "L" << ex << " " << ey;
    if (height < rows) body << "M" << left << " " << ey << "L" << ex << " " << ey;
    body << "\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2.5\" stroke-dasharray=\"9 5\"/>\n";
  }

  // Axes: column numbers on top, row numbers on the left.
  const int step_x = std::max(1, (28 + cw - 1) / cw), step_y = std::max(1, (16 + ch - 1) / ch);
  for (int px = 0; px < cols; px += step_x) {
    body << "<text x=\"" << left + px * cw + cw / 2 << "\" y=\"" << top - 8 << "\" class=\"axis\">"
         << px << "</text>\n";
  }
  for (int py = 0; py < rows; py += step_y) {
    body << "<text x=\"" << left - 8 << "\" y=\"" << top + py * ch + ch / 2 + 4
         << "\" class=\"axis\" text-anchor=\"end\">" << py << "</text>\n";
  }
  body << "<text x=\"" << left << "\" y=\"" << top - 28
       << "\" class=\"note\">x = column \xe2\x86\x92</text>\n";
  body << "<text x=\"" << 18 << "\" y=\"" << top + grid_h / 2
       << "\" class=\"note\" transform=\"rotate(-90 18 " << top + grid_h / 2
       << ")\" text-anchor=\"middle\">y = row \xe2\x86\x93</text>\n";

  // Legend, under the grid.
  std::ostringstream legend;
  int ly = top + grid_h + 34;
  const int max_swatches = 8;
  for (int k = 0; k < gx * gy && k < max_swatches; ++k) {
    const int bx = k % gx, by = k / gx;
    const int lx = 16 + (k % 4) * 140;
    if (k > 0 && k % 4 == 0) ly += 22;
    legend << "<rect x=\"" << lx << "\" y=\"" << ly - 12 << "\" width=\"16\" height=\"16\" fill=\""
           << svg_detail::block_fill(bx, by, gx, 0) << "\" stroke=\"#111111\"/>\n";
    legend << "<text x=\"" << lx + 22 << "\" y=\"" << ly << "\" class=\"legend\">block (" << bx
           << "," << by << ")</text>\n";
  }
  if (gx * gy > max_swatches) {
    ly += 22;
    legend << "<text x=\"16\" y=\"" << ly << "\" class=\"legend\">... one colour per block ("
           << gx * gy << " blocks)</text>\n";
  }
  // One legend line: a sample ("block", "warp", "idle", "edge" or none) and its text.
  auto line_item = [&](const std::string& sample, const std::string& text) {
    ly += 24;
    auto stroke = [&](const char* colour, double w, const char* dash) {
      legend << "<line x1=\"16\" y1=\"" << ly - 4 << "\" x2=\"44\" y2=\"" << ly - 4
             << "\" stroke=\"" << colour << "\" stroke-width=\"" << w << "\"" << dash << "/>\n";
    };
    if (sample == "block") stroke("#111111", 3.5, "");
    if (sample == "warp") stroke("#333333", 1.6, "");
    if (sample == "edge") stroke("#d62728", 2.5, " stroke-dasharray=\"9 5\"");
    if (sample == "idle") {
      legend << "<rect x=\"16\" y=\"" << ly - 13 << "\" width=\"28\" height=\"16\" "
             << "fill=\"url(#idle)\" stroke=\"#999999\"/>\n";
    }
    legend << "<text x=\"52\" y=\"" << ly << "\" class=\"legend\">" << esc(text) << "</text>\n";
  };
  ly += 2;
  line_item("block", "block edge");
  line_item("warp", "warp edge: a warp is 32 threads of one block, numbered row by row,");
  line_item("", "x fastest (linear id = thread_y * block_x + thread_x); shades alternate");
  if (idle > 0) {
    line_item("idle", "idle thread: past the array's edge, the guard stops it");
    line_item("edge", "the array's edge");
  }
  if (labels) line_item("", "in a cell: (y,x) = (row, column); t(x,y) = threadIdx; w warp, l lane");
  const int svg_h = ly + 18;

  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << svg_w << "\" height=\"" << svg_h
      << "\" viewBox=\"0 0 " << svg_w << " " << svg_h << "\">\n"
      << "<title>"
      << esc("record_thread_coords: " + std::to_string(width) + " x " + std::to_string(height) +
             " array, blocks of " + std::to_string(block_x) + " x " + std::to_string(block_y))
      << "</title>\n"
      << "<defs>\n<pattern id=\"idle\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" "
         "patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#eeeeee\"/>"
         "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#bbbbbb\" stroke-width=\"3\"/>"
         "</pattern>\n"
      << "<style>text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#222222}"
         ".big{font-size:14px;font-weight:bold;text-anchor:middle}"
         ".small{font-size:11px;text-anchor:middle}.dim{fill:#777777}.bad{fill:#d62728}"
         ".axis{font-size:11px;text-anchor:middle;fill:#555555}.note{font-size:12px;fill:#555555}"
         ".title{font-size:15px;font-weight:bold}.legend{font-size:12px}</style>\n"
      << "</defs>\n"
      << "<rect width=\"" << svg_w << "\" height=\"" << svg_h << "\" fill=\"#ffffff\"/>\n";
  svg << "<text x=\"16\" y=\"24\" class=\"title\">"
      << esc("record_thread_coords: " + std::to_string(width) + " wide x " +
             std::to_string(height) + " high, block (" + std::to_string(block_x) + "," +
             std::to_string(block_y) + "), grid (" + std::to_string(gx) + "," + std::to_string(gy) +
             ")")
      << "</text>\n";
  svg << "<text x=\"16\" y=\"44\" class=\"legend\">"
      << esc(std::to_string(launched) + " threads launched, " + std::to_string(idle) +
             " idle; each block: " + std::to_string(threads_per_block) + " threads in " +
             std::to_string(warps_per_block) + (warps_per_block == 1 ? " warp" : " warps") + " (" +
             std::to_string(threads_per_block) + " of " +
             std::to_string(warps_per_block * kWarpSize) + " lanes busy)")
      << "</text>\n";
  if (!note.empty()) svg << "<text x=\"16\" y=\"62\" class=\"note\">" << esc(note) << "</text>\n";
  svg << body.str() << legend.str() << "</svg>\n";
  return svg.str();
}

}  // namespace lesson02
