/// \file catch_compat.hpp
/// \brief The one include for Catch2 in every test: works with Catch2 2.13 (Debian 12) and 3.x
/// (Ubuntu 24.04). Tests use only what both have: TEST_CASE, SECTION, REQUIRE, CHECK, INFO,
/// CAPTURE, WARN, FAIL, SUCCEED, tags. Tag every test [cpu] or [gpu]: the build registers the two
/// halves as separate CTest tests, and [gpu] ones are skipped (with the reason) without a GPU.
#pragma once

#if defined(COURSE_CATCH2_V3)
#include <catch2/catch_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif

#include <algorithm>
#include <cmath>

namespace course_test {
/// Equal but for rounding (Catch2 2 and 3 spell Approx differently: Approx, Catch::Approx).
inline bool near(double a, double b, double relative = 1e-9) {
  return std::fabs(a - b) <= relative * std::max(1.0, std::fabs(b));
}
}  // namespace course_test
