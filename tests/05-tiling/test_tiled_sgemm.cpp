// The grader of lesson 05 (tiling). Linked against the learner's exercise (grade05) and against
// the reference solution (test05).
//
// [cpu] tests call load_or_zero on the host (it is __host__ __device__): inside, on and past every
//       edge of a small matrix. They never touch the CUDA runtime.
// [gpu] tests run tiled_sgemm<16> and tiled_sgemm<32> on the design's shape grid (1x1x1, primes,
//       non-square, ragged in every dimension, beta == 0 with C poisoned by NaN, and two shapes
//       of 1024 and more), checked against Eigen with canaries around C; then problems that are
//       ragged along one dimension only, so a failure points at the one bound that is missing.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "tiled_sgemm.hpp"

#include "common/gemm_check.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace {

// A 3 x 5 matrix whose element (r, c) is 10 * r + c + 1 (never 0), followed by 40 sentinel
// NaNs: a load_or_zero that reads past the end returns NaN rather than a plausible number.
std::vector<float> small_matrix() {
  std::vector<float> x;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) x.push_back(10.0f * r + c + 1);
  for (int i = 0; i < 40; ++i) x.push_back(std::nanf(""));
  return x;
}

// A problem that is ragged along at most one dimension, and what its failure would mean.
using course_test::EdgeCase;

std::vector<EdgeCase> edge_cases(int tile) {
  const int t = tile;
  return {
      {{t, t, t, 1.0f, 0.0f},
       "exactly one tile, nothing ragged: if this fails, the tile loop itself is wrong (the "
       "indices of the loads, the dot product over the tile, or a missing __syncthreads())"},
      {{2 * t, 3 * t, 4 * t, 0.5f, 0.0f},
       "whole tiles only, several along every dimension: check how the block's tiles move "
       "along K (A moves right by TILE columns, B down by TILE rows, each step)"},
      {{2 * t, 2 * t, t + 7, 1.0f, 0.0f},
       "only K is ragged (the last tile along K is partial): the elements past K must be "
       "loaded as 0 in BOTH tiles, As (columns of A past K) and Bs (rows of B past K)"},
      {{2 * t, 2 * t, 5, 1.0f, 0.0f},
       "K is smaller than one tile: a single partial tile along K, the rest of it zeros"},
      {{t + 5, 2 * t, 2 * t, 1.0f, 0.5f},
       "only M is ragged (the bottom tiles are partial): rows of A past M must load as 0, "
       "and only threads with row < M may write C"},
      {{2 * t, t + 3, 2 * t, 1.0f, 0.5f},
       "only N is ragged (the right-hand tiles are partial): columns of B past N must load as "
       "0, and only threads with col < N may write C"},
      {{2 * t, 2 * t, 2 * t, 2.0f, -1.5f},
       "whole tiles with beta != 0: C must be read and scaled, alpha * acc + beta * C"},
  };
}

// What a wrong load_or_zero(X, 3, 5, r, c) of small_matrix() means: the rule is X[r * cols + c]
// inside the matrix, and 0 (no read) outside it.
std::string load_words(int r, int c, float got) {
  std::ostringstream o;
  o << "load_or_zero(X, 3, 5, " << r << ", " << c << ") returned " << got << ": ";
  const bool inside = r < 3 && c < 5;
  const auto at = [](int i) { return i < 15 ? 10.0f * (i / 5) + i % 5 + 1 : std::nanf(""); };
  if (!inside && (r == 3 || c == 5) && got != 0.0f) {
    o << (r == 3 ? "r == rows" : "c == cols")
      << " is one past the edge, yet it read X: the guard is r < rows && c < cols, not <=";
  } else if (std::isnan(got)) {
    o << "a read past the end of X (a NaN sentinel): the guard must return 0 before reading";
  } else if (inside && got == 0.0f) {
    o << "0 inside the matrix: the guard is too strict (r < rows and c < cols, not rows - 1)";
  } else if (inside && got == at(c * 3 + r)) {
    o << "X[c * rows + r] is column-major; the matrix is row-major, X[r * cols + c]";
  } else if (inside) {
    o << "another element: the matrix is row-major, X[r * cols + c]";
  } else if (r >= 3 && c < 5 && got == at(r * 5 + c)) {
    o << "past the last row it read X anyway: the guard must check r < rows (not r <= rows)";
  } else if (c >= 5 && got == at(r * 5 + c)) {
    o << "past the last column it read the next row's element: the guard must check c < cols";
  } else {
    o << "outside the matrix the answer is 0.0f, with no read";
  }
  return o.str();
}

using course_test::said;

void check_edges(const course::GemmFn<course::Fp32>& fn, const std::string& label, int tile) {
  course_test::check_on_cases(fn, label, edge_cases(tile));
}

}  // namespace

TEST_CASE("load_or_zero: the element inside the matrix, 0 outside", "[cpu][task_1]") {
  const std::vector<float> x = small_matrix();
  const float* X = x.data();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 5; ++c) {
      INFO("inside: load_or_zero(X, 3, 5, " << r << ", " << c << ") must be X[" << r << " * 5 + "
                                            << c << "] = " << 10 * r + c + 1
                                            << " (row-major: row r starts at r * cols)");
      INFO(said([&] { return load_words(r, c, lesson05::load_or_zero(X, 3, 5, r, c)); }));
      CHECK(lesson05::load_or_zero(X, 3, 5, r, c) == 10.0f * r + c + 1);
    }
  }
  struct Outside {
    int r, c;
    const char* what;
  };
  const std::vector<Outside> outside = {
      {3, 0, "row 3 of a 3-row matrix (r == rows: past the last row)"},
      {3, 4, "row 3, column 4 (past the last row)"},
      {0, 5,
       "column 5 of a 5-column matrix (c == cols: past the last column; X[5] exists, but "
       "it is element (1, 0), not (0, 5))"},
      {2, 5, "row 2, column 5 (past the last column)"},
      {4, 7, "row 4, column 7 (past both edges)"},
      {3, 5, "row 3, column 5 (the corner just outside)"},
  };
  for (const Outside& o : outside) {
    INFO("outside: load_or_zero(X, 3, 5, " << o.r << ", " << o.c << "): " << o.what
                                           << " must be 0.0f");
    INFO(said([&] { return load_words(o.r, o.c, lesson05::load_or_zero(X, 3, 5, o.r, o.c)); }));
    CHECK(lesson05::load_or_zero(X, 3, 5, o.r, o.c) == 0.0f);
  }
  INFO("a 1 x 1 matrix: (0, 0) is its element, (0, 1) and (1, 0) are outside");
  const float one = 7.5f;
  CHECK(lesson05::load_or_zero(&one, 1, 1, 0, 0) == 7.5f);
  CHECK(lesson05::load_or_zero(&one, 1, 1, 0, 1) == 0.0f);
  CHECK(lesson05::load_or_zero(&one, 1, 1, 1, 0) == 0.0f);
}

TEST_CASE("tiled_sgemm<16> is right on the shape grid", "[gpu][task_2]") {
  course_test::check_on_shapes(&lesson05::tiled_sgemm<16>, "tiled_sgemm<16>",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("tiled_sgemm<32> is right on the shape grid", "[gpu][task_2]") {
  course_test::check_on_shapes(&lesson05::tiled_sgemm<32>, "tiled_sgemm<32>",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("ragged along one dimension at a time: which bound is missing", "[gpu][task_3]") {
  SECTION("TILE 16") {
    check_edges(&lesson05::tiled_sgemm<16>, "tiled_sgemm<16>", 16);
  }
  SECTION("TILE 32") {
    check_edges(&lesson05::tiled_sgemm<32>, "tiled_sgemm<32>", 32);
  }
}

TEST_CASE("tiled_sgemm rejects sizes below 1 before launching", "[gpu][task_3]") {
  // A correct run first: a stub fails here with NOT IMPLEMENTED, not on the checks below (which
  // pass before any exercise is done, since the size check is given).
  REQUIRE(course::check_gemm(&lesson05::tiled_sgemm<16>, {3, 5, 7, 1.0f, 0.0f}).passed);
  float* none = nullptr;
  CHECK_THROWS(lesson05::tiled_sgemm<16>(0, 4, 4, 1.0f, none, none, 0.0f, none));
  CHECK_THROWS(lesson05::tiled_sgemm<32>(4, 0, 4, 1.0f, none, none, 0.0f, none));
  CHECK_THROWS(lesson05::tiled_sgemm<32>(4, 4, -1, 1.0f, none, none, 0.0f, none));
}
