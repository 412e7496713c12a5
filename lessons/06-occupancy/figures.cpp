/// \file figures.cpp
/// \brief Lesson 06's figures: what the book shows and `make lesson-6` draws of your code.
#include "lessons/06-occupancy/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson06 {

namespace {

course::fig::Control control_of(const std::string& name, const std::string& label,
                                const std::vector<int>& values, const std::string& unit,
                                const std::string& initial) {
  course::fig::Control c{name, label, {}, {}, initial, false};
  for (int v : values) {
    c.values.push_back(std::to_string(v));
    c.shown.push_back(std::to_string(v) + unit);
  }
  return c;
}

std::vector<course::fig::Figure> figures() {
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "06-occupancy", "What limits the blocks per SM",
      "One block's threads, registers and shared memory on an H100 SM: each bar is how many blocks "
      "one resource alone allows, by occupancy(); the shortest is the limit, and the warp slots "
      "below show what is resident. Raise the registers to 64 at 256 threads and watch registers "
      "take over from threads; add 48 KiB of shared memory and watch it take over again.",
      {control_of("threads", "threads per block", figure_threads(), "", "256"),
       control_of("regs", "registers per thread", figure_registers(), "", "32"),
       control_of("smem", "shared memory per block", figure_smem_kib(), " KiB", "0")},
      [](const std::vector<std::string>& v) {
        KernelUsage k;
        k.threads_per_block = std::stoi(v[0]);
        k.regs_per_thread = std::stoi(v[1]);
        k.static_smem_bytes = static_cast<std::size_t>(std::stoi(v[2])) * 1024;
        return occupancy_scene(h100_limits(), k);
      }));
  course::fig::Control grid{"grid", "blocks in the grid", {}, {}, "9", true};
  for (int g = 1; g <= 20; ++g) grid.values.push_back(std::to_string(g));
  out.push_back(course::fig::make(
      "06-waves", "The waves of a grid on a small GPU",
      "A GPU of 4 SMs runs a grid in waves of 4 x (blocks per SM) blocks, by waves(). Slide the "
      "grid one block past a full wave and a whole new wave appears, almost empty: the tail costs "
      "as long as a full wave.",
      {control_of("per_sm", "blocks per SM", {1, 2, 3}, "", "2"), grid},
      [](const std::vector<std::string>& v) {
        return waves_scene(4, std::stoi(v[0]), std::stoll(v[1]));
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson06
