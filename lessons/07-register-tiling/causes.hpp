/// \file causes.hpp
/// \brief Lesson 07's part of the diagnosis (common/diagnosis.hpp): the code paths of its kernels,
/// each of which the probes must take. Declared by including this header.
#pragma once

#include "common/diagnosis.hpp"

namespace lesson07 {

/// The float4 kernel's two paths (N and K multiples of 4, or not), a partial k-tile of BK = 8,
/// and edge block tiles of 128.
inline const bool kPaths =
    course::declare_path(
        {"07", "float4 loads and stores: N and K multiples of 4", false,
         [](const course::GemmShape& s) { return s.N % 4 == 0 && s.K % 4 == 0; }}) &&
    course::declare_path({"07", "scalar loads and stores: N not a multiple of 4", false,
                          [](const course::GemmShape& s) { return s.N % 4 != 0; }}) &&
    course::declare_path({"07", "a partial k-tile of BK = 8", false,
                          [](const course::GemmShape& s) { return s.K % 8 != 0; }}) &&
    course::declare_path(
        {"07", "edge block tiles of 128 beside whole ones", false, [](const course::GemmShape& s) {
           return s.M > 128 && s.M % 128 != 0 && s.N > 128 && s.N % 128 != 0;
         }});

}  // namespace lesson07
