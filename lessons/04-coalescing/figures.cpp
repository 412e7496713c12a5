/// \file figures.cpp
/// \brief Lesson 04's figures, and chapter 03's warp step (it needs warp_access): what the book
/// shows and `make lesson-4` draws of your code.
#include "lessons/04-coalescing/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson04 {

namespace {

Mapping mapping_of(const std::string& v) {
  return v == "naive"       ? Mapping::kNaive
         : v == "coalesced" ? Mapping::kCoalesced
                            : Mapping::kTransposedB;
}

Operand operand_of(const std::string& v) {
  return v == "A" ? Operand::kA : v == "B" ? Operand::kB : Operand::kC;
}

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  const Control mapping{"mapping",
                        "mapping",
                        {"naive", "coalesced", "transposed"},
                        {"naive (03)", "coalesced (04)", "transposed B"},
                        "coalesced"};
  const Control operand{"operand", "matrix", {"A", "B", "C"}, {"A", "B (or Bt)", "C (store)"}, "B"};
  const Control element{"element", "element", {"4", "8", "16"}, {"float", "float2", "float4"}, ""};
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "03-warp-step", "One warp of the naive kernel",
      "One warp of the naive kernel at k = 0: its 32 lanes walk down a column of C, so each reads "
      "A from a different row. Look at how many 128-byte lines one instruction touches, and how "
      "little of each sector is used.",
      {Control{"operand", "matrix", {"A", "B", "C"}, {"A", "B", "C (store)"}, "A"}},
      [](const std::vector<std::string>& v) {
        return warp_step_scene(Mapping::kNaive, operand_of(v[0]), 4);
      }));
  out.push_back(course::fig::make(
      "04-warp-step", "One warp's access, three mappings",
      "One warp's memory instruction under each mapping: lanes on top, the lines and sectors they "
      "touch below, counted by warp_access. Switch the mapping and watch B go from 32 lines to "
      "one; switch to float4 and watch one instruction fill four lines, every byte used.",
      {mapping, operand, element}, [](const std::vector<std::string>& v) {
        return warp_step_scene(mapping_of(v[0]), operand_of(v[1]), std::stoi(v[2]));
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson04
