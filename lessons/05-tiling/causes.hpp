/// \file causes.hpp
/// \brief Lesson 05's part of the diagnosis (common/diagnosis.hpp): the code paths of its kernels,
/// each of which the probes must take. Declared by including this header.
#pragma once

#include "common/diagnosis.hpp"

namespace lesson05 {

/// The tiled kernels (TILE 16 and 32): edge tiles beside whole ones, and a partial last k-tile.
inline const bool kPaths =
    course::declare_path({"05", "edge tiles of 32 beside whole ones", false,
                          [](const course::GemmShape& s) {
                            return s.M > 32 && s.M % 32 != 0 && s.N > 32 && s.N % 32 != 0;
                          }}) &&
    course::declare_path({"05", "a partial last k-tile (K not a multiple of 16)", false,
                          [](const course::GemmShape& s) { return s.K % 16 != 0; }});

}  // namespace lesson05
