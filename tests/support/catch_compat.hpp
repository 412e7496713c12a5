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
