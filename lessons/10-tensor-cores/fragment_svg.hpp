/// \file fragment_svg.hpp
/// \brief Lesson 10, given code: a picture of the fragments of `mma.sync.m16n8k16`, drawn with the
/// course's scene library (common/svg.hpp) from the mapping functions of mma_fragment.hpp (yours,
/// in the exercise build).
///
/// Three grids, A (16 x 16), B (16 x 8, k down, n across) and C (16 x 8): each cell is one element,
/// labelled with the lane that holds it (`T5`: lane 5) and which of its elements it is (`a3`), and
/// coloured by lane, so that the four lanes of a quad get neighbouring hues. A cell no lane claims
/// is drawn vermillion with a `?`; a cell several elements claim, vermillion with the count. Row 0
/// is at the top. Drawn in scenes.cpp, with each library's mappings: the lesson program writes the
/// picture (--svg), the book shows it as the figure "10-fragments" (tests/figures/ holds it to the
/// mappings).
#pragma once

#include "common/svg.hpp"

#include <string>

namespace lesson10 {

/// The three fragments of mma.sync.m16n8k16 (bf16 inputs, fp32 accumulators) as a scene, drawn
/// from a_fragment_coord(), b_fragment_coord() and c_fragment_coord() (scenes.cpp: yours in the
/// exercise's library, the reference's in the solution's).
/// \throws course::NotImplemented when a mapping is still a stub
course::svg::Scene fragment_scene();

/// The picture as a standalone SVG document (what `make lesson-10` writes with --svg).
/// \throws course::NotImplemented when a mapping is still a stub
std::string fragment_svg();

}  // namespace lesson10
