/// \file figures.hpp
/// \brief Lesson 08's figures: the block tile split into warp tiles and one warp's tile into its
/// lanes' patches, placed by your thread_place(); and the butterfly's shuffles, stage by stage,
/// from your butterfly_partner() through emulate_butterfly().
#pragma once

#include "lessons/08-warp-shuffle/warp_shuffle.hpp"
#include "lessons/08-warp-shuffle/warptiled_sgemm.hpp"

#include "common/svg.hpp"

namespace lesson08 {

/// The block tile of `shape` with every thread's results, placed by thread_place() and
/// result_row()/result_col(), coloured by warp; beside it warp 0's tile with each lane's patches
/// (tm x tn results per sub-tile step) labelled with the lane. Tagged for tests: the patch of
/// thread tid whose first result is at (row, col) of the block tile is class "t tid row col" and
/// "patch"; warp 0's patches on the right are "lane"; an element no thread computes is "hole", one
/// that several compute "clash".
course::svg::Scene warp_tiles_scene(const WarpTileShape& shape);

/// Stage `stage` (1 .. 5: distances 16, 8, 4, 2, 1) of the butterfly all-reduce, lane l starting
/// with the value l: the 32 lanes' values before the stage, an arrow from each lane's partner
/// (butterfly_partner) to the lane, and the values after it (emulate_butterfly). Tagged for tests:
/// the arrow into lane l from lane p is class "from p to l", the value v lane l holds after the
/// stage is class "after l v".
course::svg::Scene butterfly_scene(int stage);

/// The quad's exchange at one step k: the four lanes' loads on top, each lane's two shuffles below
/// (an arrow from the lane it reads A from, quad_a_source(q), and from the lane it reads B from,
/// quad_b_source(q)), and the element of C each lane owns. An operand taken from a lane that did
/// not load the one the owner needs is drawn in vermillion and said in words. Tagged for tests:
/// the A arrow into lane q from lane s is class "a s q", the B arrow "b s q"; a wrong one is also
/// class "wrong".
course::svg::Scene quad_scene();

}  // namespace lesson08
