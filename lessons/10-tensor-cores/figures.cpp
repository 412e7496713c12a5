/// \file figures.cpp
/// \brief Lesson 10's figures: what the book shows and `make lesson-10` draws of your code.
#include "lessons/10-tensor-cores/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson10 {

namespace {

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "10-fragments", "The fragments of mma.sync.m16n8k16",
      "Which lane holds which element of A, B and C for one mma.sync.m16n8k16 (bf16 in, FP32 "
      "accumulators), drawn from the fragment mappings. Read a quad: lanes 0-3 hold row 0 of A "
      "and C, column 0 of B. Each thick 8 x 8 quarter is one register of every lane.",
      {}, [](const std::vector<std::string>&) { return fragment_scene(); }));
  out.push_back(course::fig::make(
      "10-ldmatrix", "ldmatrix.x4: four 8 x 8 pieces into four registers",
      "One ldmatrix.x4 of the kernel. Lanes 8q to 8q + 7 each give the address of one 16-byte row "
      "of piece q (the numbers beside the rows); afterwards register q of lane L holds two "
      "values of row L / 4 of that piece. Step through the registers: the piece moves, and the "
      "labels are the fragment map of mma.sync, so the loaded registers feed the instruction "
      "directly.",
      {Control{"operand", "operand", {"A", "B"}, {"A fragment", "B, two n8 tiles"}, ""},
       Control{"reg", "register", {"0", "1", "2", "3"}, {}, "", true}},
      [](const std::vector<std::string>& v) {
        return ldmatrix_scene(v[0] == "B", std::stoi(v[1]));
      }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson10
