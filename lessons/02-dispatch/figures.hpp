/// \file figures.hpp
/// \brief Lesson 02's figures: a 1D launch and a 2D launch, drawn from the emulated launches
/// (emulate.hpp), which call your index functions.
#pragma once

#include "lessons/02-dispatch/grid_svg.hpp"

#include "common/svg.hpp"

namespace lesson02 {

/// A 1D launch of `n` elements in blocks of `block_size`: the blocks your blocks_for asks for,
/// each thread with its threadIdx.x and the global index your global_index_1d gives it, an arrow
/// from every thread your in_bounds_1d lets through to the element it writes, the threads it
/// stops hatched, and the array under them (each element coloured by the block that wrote it).
/// Tagged for tests: "block" (a block launched), "thread" (a thread launched), "idle" (a thread
/// the guard stopped), "arrow" (a write inside the array), "written" / "missing" / "twice" (an
/// element written once, never, more than once), "past-end" (a write past the array's end).
course::svg::Scene launch_1d_scene(int n, int block_size);

/// A 2D launch over a `width x height` array in blocks of `block_x x block_y`, emulated with your
/// functions (emulate_2d) and drawn by grid_scene.
course::svg::Scene launch_2d_scene(int width, int height, int block_x, int block_y);

}  // namespace lesson02
