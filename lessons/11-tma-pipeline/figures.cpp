/// \file figures.cpp
/// \brief Lesson 11's figures: what the book shows and `make lesson-11` draws of your code (the
/// ring figures play your ring protocol; the others draw the lesson's given tile orders, schedule
/// and swizzle).
#include "lessons/11-tma-pipeline/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson11 {

namespace {

FigureOrder order_of(const std::string& v) {
  if (v == "hilbert") return {TileOrder::kHilbert, 1};
  if (v == "rows") return {TileOrder::kGrouped, 1};
  return {TileOrder::kGrouped, std::stoi(v.substr(5))};  // "bandsN"
}

std::vector<std::string> numbers(int from, int to) {
  std::vector<std::string> v;
  for (int i = from; i <= to; ++i) v.push_back(std::to_string(i));
  return v;
}

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "11-tile-order", "Which tiles are in flight at once",
      "The 512 output tiles of 4096^3 in 128 x 256 tiles, in the order a persistent grid of 132 "
      "blocks walks them (tile_at). Step through the waves: the 132 tiles of a wave run at the "
      "same time, and the strips show which tile rows of A and columns of B they read. Row order "
      "sweeps all of B with every wave; bands and the Hilbert curve keep a wave on a compact "
      "patch.",
      {Control{"order",
               "order",
               {"rows", "bands16", "hilbert"},
               {"row order", "bands of 16", "Hilbert"},
               "bands16"},
       Control{"wave", "wave", numbers(1, 4), {}, "", true}},
      [](const std::vector<std::string>& v) {
        return tile_order_scene(4096, order_of(v[0]), std::stoi(v[1]));
      }));
  out.push_back(course::fig::make(
      "11-persistent", "The persistent grid: which block takes which tile",
      "One block per SM, 132 in all, each walking tiles b, b + 132, b + 264, ... of the "
      "headline's bands of 16 tile rows (WholeTiles::unit, then tile_at). Each tile is labelled "
      "with its "
      "block; the red outline follows block 0. In the fourth wave only 116 blocks have a tile: "
      "16 SMs wait, the cost stream-K addresses.",
      {Control{"wave", "wave", numbers(1, 4), {}, "", true}},
      [](const std::vector<std::string>& v) {
        return persistent_scene(FigureOrder{TileOrder::kGrouped, 16}, std::stoi(v[0]));
      }));
  out.push_back(course::fig::make(
      "11-ring", "The ring, step by step",
      "The CPU model of the ring played with the ring protocol: at each step the producer loads "
      "the next k-block if the stage's empty barrier lets it, else the consumers read and release "
      "one. Watch the parity each side waits for flip with every pass around the ring, and the "
      "producer's first pass go through fresh barriers without waiting.",
      {Control{"stages", "stages", numbers(2, 4), {}, "4"},
       Control{"step", "step", numbers(0, 2 * kRingFigureBlocks), {}, "", true}},
      [](const std::vector<std::string>& v) {
        return ring_scene(std::stoi(v[0]), std::stoi(v[1]));
      }));
  out.push_back(course::fig::make(
      "11-ring-timeline", "The ring over time",
      "Every move of the ring model in one picture: the producer fills the stages at once, then "
      "each load waits for the release of the k-block one pass earlier. Read the parities: the "
      "producer's are the opposite of the consumers' on the same pass.",
      {Control{"stages", "stages", numbers(2, 5), {}, "4"}},
      [](const std::vector<std::string>& v) { return ring_timeline_scene(std::stoi(v[0])); }));
  out.push_back(course::fig::make(
      "11-swizzle-128b", "The 128-byte swizzle",
      "One 1024-byte atom of a K-major bf16 tile, as the tile sees it and as staging_offset lays "
      "it out: chunk c of row r at position c XOR (r mod 8). Choose a k-step of wgmma and see its "
      "two chunks land at a different position in every row.",
      {Control{"kstep", "k-step", numbers(0, 3), {}, "1"}},
      [](const std::vector<std::string>& v) { return swizzle_scene(std::stoi(v[0])); }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson11
