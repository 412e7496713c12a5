/// \file grid_svg.hpp
/// \brief A picture of a 2D launch, drawn with the course's scene (common/svg.hpp): one cell per
/// thread of the grid, coloured by block, warps outlined and shaded, idle (over-launched) threads
/// hatched, blockIdx and positions along the edges, and a legend.
///
/// The picture shows every thread the launch starts, also those past the array's edge: the grid
/// is rounded up to whole blocks, so along the right and bottom edges some threads find no
/// element and the guard stops them. Elements are drawn from the records the threads wrote (on
/// the GPU or in the emulation), so a wrong index shows up as a wrong label or colour, or as a
/// cell nobody wrote. Small grids get each thread's coordinates written in its cell. Row y = 0 is
/// at the top.
///
/// For tests, the scene tags what it draws: every element some thread wrote is class "cell",
/// every element nobody wrote "unwritten", every element written more than once (known only from
/// an emulation) "twice", every over-launched thread "idle", every block of the grid "block".
#pragma once

#include "dispatch.hpp"
#include "emulate.hpp"

#include "common/svg.hpp"

#include <string>
#include <vector>

namespace lesson02 {

/// The picture of a launch over a `width x height` array in blocks of `block_x x block_y`, from
/// the `width * height` records (row-major) its threads wrote; the grid is the one a right
/// launch uses (blocks_for rounded up on each axis, worked out here). `note`, when given, is one
/// more line under the title (e.g. "recorded on the GPU").
course::svg::Scene grid_scene(const std::vector<ThreadRecord>& records, int width, int height,
                              int block_x, int block_y, const std::string& note = "");

/// The picture of an emulated launch: its records, its grid (as your blocks_for made it) and how
/// many times each element was written. \throws std::runtime_error when the launch could not be
/// emulated at all (Emulation2D::problem).
course::svg::Scene grid_scene(const Emulation2D& e, const std::string& note = "");

/// grid_scene(...) as a complete SVG document.
inline std::string grid_svg(const std::vector<ThreadRecord>& records, int width, int height,
                            int block_x, int block_y, const std::string& note = "") {
  return grid_scene(records, width, height, block_x, block_y, note).str();
}

}  // namespace lesson02
