/// \file figures.cpp
/// \brief Lesson 09's figures: what the book shows and `make lesson-9` draws of your code.
#include "lessons/09-swizzling/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson09 {

namespace {

ALayout layout_of(const std::string& v) {
  return v == "plain" ? ALayout::kPlain : v == "padded" ? ALayout::kPadded : ALayout::kSwizzled;
}

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "09-banks", "One warp's access on the 32 banks",
      "One warp walks down a column of the final kernel's A tile (eight rows k, lane t on row t "
      "mod "
      "8): each phase of the access is a block, each wavefront a row, each word in its bank's "
      "column, labelled with the lane that asks for it; the count is bank_conflicts'. With 4-byte "
      "accesses this is the kernel's cp.async copy of A: plain, its 32 words pile into 4 banks, 8 "
      "wavefronts. Switch to padded or swizzled and watch them spread over all 32 banks in one. "
      "16-byte accesses go in four phases of eight lanes.",
      {Control{"layout", "A tile", {"plain", "padded", "swizzled"}, {}, ""},
       Control{"bytes",
               "access",
               {"4", "8", "16"},
               {"4 B (float)", "8 B (float2)", "16 B (float4)"},
               ""}},
      [](const std::vector<std::string>& v) {
        return banks_scene(layout_of(v[0]), std::stoi(v[1]));
      }));
  std::vector<std::string> chunks;
  for (int c = 0; c < 8; ++c) chunks.push_back(std::to_string(c));
  out.push_back(course::fig::make(
      "09-xor-swizzle", "The XOR swizzle",
      "Swizzle<B, 4, 3> on eight rows: each 16-byte chunk of a row as written (left) and where the "
      "swizzle stores it (right). Rows never move; within a row the chunks are permuted, "
      "differently "
      "for each row, so one chunk of every row (outlined) lands on different banks: a column of "
      "float4s is read in one wavefront. In the 128-byte mode each chunk number appears once in "
      "every row and every column of the stored grid.",
      {Control{"mode", "mode", {"128", "64", "32"}, {"128-byte", "64-byte", "32-byte"}, ""},
       Control{"chunk", "follow chunk", chunks, {}, "", true}},
      [](const std::vector<std::string>& v) {
        return xor_swizzle_scene(std::stoi(v[0]), std::stoi(v[1]));
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson09
