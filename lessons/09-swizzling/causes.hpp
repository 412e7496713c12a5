/// \file causes.hpp
/// \brief Lesson 09's part of the diagnosis (common/diagnosis.hpp): the code paths of its kernels,
/// each of which the probes must take. Declared by including this header.
#pragma once

#include "common/diagnosis.hpp"

namespace lesson09 {

/// The swizzled kernel's float4 copies of B and writes of C (N a multiple of 4), and its scalar
/// ones.
inline const bool kPaths =
    course::declare_path({"09", "float4 copies of B and writes of C: N a multiple of 4", false,
                          [](const course::GemmShape& s) { return s.N % 4 == 0; }}) &&
    course::declare_path({"09", "scalar copies and writes: N not a multiple of 4", false,
                          [](const course::GemmShape& s) { return s.N % 4 != 0; }});

}  // namespace lesson09
