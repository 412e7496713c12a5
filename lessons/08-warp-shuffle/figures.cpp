/// \file figures.cpp
/// \brief Lesson 08's figures: what the book shows and `make lesson-8` draws of your code.
#include "lessons/08-warp-shuffle/figures.hpp"

#include "common/figures.hpp"

#include <string>
#include <vector>

namespace lesson08 {

namespace {

std::vector<course::fig::Figure> figures() {
  using course::fig::Control;
  const std::vector<WarpTileShape> shapes = warptiled_shapes();
  Control config{"config", "configuration", {}, {}, "", false};
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const WarpTileShape& s = shapes[i];
    config.values.push_back(std::to_string(i));
    config.shown.push_back(std::to_string(s.bm) + "x" + std::to_string(s.bn) + ", warps " +
                           std::to_string(s.wm) + "x" + std::to_string(s.wn) + ", " +
                           std::to_string(s.wm_iter) + "x" + std::to_string(s.wn_iter) +
                           " steps of " + std::to_string(s.tm) + "x" + std::to_string(s.tn));
  }
  std::vector<course::fig::Figure> out;
  out.push_back(course::fig::make(
      "08-warp-tiles", "Block, warp and lane tiles",
      "The block tile of C split into warp tiles (left) and warp 0's tile split into its lanes' "
      "patches (right), every result placed by thread_place. Each lane's patch appears once in "
      "every sub-tile (thick lines): its results are spread over the warp tile, so at each step "
      "the warp's lanes read neighbouring float4s. Switch the configuration to see the lesson's "
      "other tilings.",
      {config}, [shapes](const std::vector<std::string>& v) {
        return warp_tiles_scene(shapes.at(std::stoul(v[0])));
      }));
  out.push_back(course::fig::make(
      "08-shuffle", "The butterfly all-reduce, stage by stage",
      "Five shuffles sum a warp: at each stage every lane reads the value of lane l XOR d "
      "(butterfly_partner) and adds it to its own. Step through the stages: the distance halves, "
      "the pairs get closer, and each lane's sum covers twice as many lanes, until all 32 hold "
      "496.",
      {Control{"stage",
               "stage",
               {"1", "2", "3", "4", "5"},
               {"d = 16", "d = 8", "d = 4", "d = 2", "d = 1"},
               "",
               true}},
      [](const std::vector<std::string>& v) { return butterfly_scene(std::stoi(v[0])); }));
  out.push_back(course::fig::make(
      "08-quad", "The quad's exchange",
      "One quad at step k: each lane loads one of the four operands, then reads its A operand "
      "from lane quad_a_source(q) and its B operand from lane quad_b_source(q) by shuffles of "
      "width 4. Four loads feed four FMAs, where lanes that do not share would load eight. A "
      "wrong source shows as a vermillion arrow, said in words below.",
      {}, [](const std::vector<std::string>&) { return quad_scene(); }));
  return out;
}

}  // namespace

COURSE_FIGURES(figures);

}  // namespace lesson08
