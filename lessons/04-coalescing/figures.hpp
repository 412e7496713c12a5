/// \file figures.hpp
/// \brief Lesson 04's figures: one warp's memory instruction, lane by lane, down to the sectors
/// and lines it touches, drawn from first_warp_addresses() and counted by your warp_access().
#pragma once

#include "lessons/04-coalescing/warp_access.hpp"

#include "common/svg.hpp"

namespace lesson04 {

/// Which matrix the warp's instruction reads or writes.
enum class Operand { kA, kB, kC };

/// One warp's access to `operand` at step k = 0 of a 4096^3 problem under `mapping`, with elements
/// of `element_bytes` (4, 8 or 16). Lanes on top, each touched 128-byte line below as a row of
/// four 32-byte sectors; each lane's bytes in its colour. Tagged for tests: every touched sector
/// drawn is class "sector", every line "line"; the title's counts are warp_access()'s.
course::svg::Scene warp_step_scene(Mapping mapping, Operand operand, int element_bytes);

}  // namespace lesson04
