/// \file bits.hpp
/// \brief Floats and bf16 as bit patterns: the marks the checks plant (NaN payloads) must survive
/// every copy, so conversions between the two are bit for bit, never arithmetic.
#pragma once

#include "common/gemm.hpp"

#include <cuda_bf16.h>

#include <cstdint>
#include <cstring>

namespace course {

/// The bits of a float.
inline std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
/// The bits of a bf16.
inline std::uint16_t bits_of(bf16 h) {
  std::uint16_t u;
  std::memcpy(&u, &h, sizeof u);
  return u;
}
/// The float with these bits.
inline float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
/// The bf16 with these bits.
inline bf16 bf16_of(std::uint16_t u) {
  bf16 h;
  std::memcpy(static_cast<void*>(&h), &u, sizeof h);
  return h;
}
/// bf16 widened to float: bf16 is the top half of a float, so this is a shift, exact, and keeps
/// NaN payloads.
inline float widen(bf16 h) {
  return float_of(static_cast<std::uint32_t>(bits_of(h)) << 16);
}
/// The top half of a float, as a bf16: exact for a value widen() made, NaN payloads kept. (Not a
/// rounding: __float2bfloat16 rounds.)
inline bf16 narrow(float f) {
  return bf16_of(static_cast<std::uint16_t>(bits_of(f) >> 16));
}

}  // namespace course
