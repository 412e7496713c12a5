// The grader of lesson 03 (the naive SGEMM). Linked against the learner's exercise (grade03) and
// against the reference solution (test03).
//
// Every test runs naive_sgemm on the GPU on fresh random inputs, with C poisoned (NaN when
// beta == 0) and guarded by canary bands, and checks it against Eigen in double precision
// (course::check_gemm). A failure prints the diagnosis: the first wrong elements, a map of the
// wrong tiles and the likely cause.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "naive_sgemm.hpp"

#include "common/gemm_check.hpp"
#include "lessons/03-naive/causes.hpp"

#include <vector>

using course_test::check_on_shapes;
using course_test::throws_invalid_argument;

TEST_CASE("naive_sgemm matches Eigen on the course's shape grid", "[gpu][task_1]") {
  // 1x1x1, primes, non-square and non-multiple-of-32 shapes, beta == 0 and beta != 0, and two
  // large ones (1024^3 and 1031 x 1000 x 1537).
  check_on_shapes(lesson03::naive_sgemm, "naive_sgemm", course::shape_grid<course::Fp32>());
}

TEST_CASE("naive_sgemm: one block edge at a time, and the grid's two axes", "[gpu][task_1]") {
  // Tall and wide shapes catch a grid whose x and y are swapped (x must cover the M rows), and
  // the 31/32/33 sizes put the edge of C just before, on and just after a block edge.
  const std::vector<course::GemmShape> shapes = {
      {1000, 1, 7, 1.0f, 0.0f},   {1, 1000, 7, 1.0f, 0.0f},  {32, 32, 32, 1.0f, 0.0f},
      {31, 33, 1, 1.0f, 0.5f},    {33, 31, 2, -2.0f, 0.0f},  {96, 64, 3, 1.0f, -1.0f},
      {2050, 40, 9, 0.5f, 0.25f}, {40, 2050, 9, 1.0f, 0.0f}, {65, 97, 1, 1.0f, 0.0f},
  };
  check_on_shapes(lesson03::naive_sgemm, "naive_sgemm", shapes);
  // The preconditions are checked before anything is launched.
  float* none = nullptr;
  INFO("naive_sgemm must throw std::invalid_argument for a dimension below 1");
  CHECK(throws_invalid_argument([&] { lesson03::naive_sgemm(0, 4, 4, 1, none, none, 0, none); }));
  CHECK(throws_invalid_argument([&] { lesson03::naive_sgemm(4, 0, 4, 1, none, none, 0, none); }));
  CHECK(throws_invalid_argument([&] { lesson03::naive_sgemm(4, 4, 0, 1, none, none, 0, none); }));
  CHECK(throws_invalid_argument([&] { lesson03::naive_sgemm(4, -1, 4, 1, none, none, 0, none); }));
}
