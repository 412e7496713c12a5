// The grader of lesson 08, part 2: the warp-tiled SGEMM. Linked against the learner's exercise
// (grade08) and against the reference solution (test08); its tests of thread_place are in
// calls-yours/test_thread_place.cpp.
//
// [gpu] tests run every configuration, and the headline tuned_warptiled_sgemm, on the design's
//       shape grid; then problems ragged along one dimension at a time, on the float4 path and on
//       the scalar one, so a failure names what is missing.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "causes.hpp"  // the lesson's rules in the table of causes
#include "warptiled_sgemm.hpp"

#include "common/gemm_check.hpp"

#include <string>
#include <vector>

namespace {

using lesson08::WarpTileShape;

// A problem that is ragged along at most one dimension, and what its failure would mean.
using course_test::EdgeCase;

std::vector<EdgeCase> edge_cases(const WarpTileShape& s) {
  const int bm = s.bm, bn = s.bn, bk = s.bk;
  return {
      {{bm, bn, bk, 1.0f, 0.0f},
       "exactly one block tile and one step along K, float4 path: if this fails, the multiply "
       "itself is wrong (the rows a0 + i * kSubM + t of As, the columns b0 + j * kSubN + t of Bs, "
       "or the outer product)"},
      {{2 * bm, 2 * bn, 4 * bk, 0.5f, 0.0f},
       "whole tiles only, several along every dimension: check that every k of the tile is used "
       "and that the buffer read is `cur`"},
      {{2 * bm, 2 * bn, 2 * bk + 4, 1.0f, 0.0f},
       "only K is ragged, by a whole float4 (float4 path): the last step along K is partial"},
      {{bm, bn, 4, 1.0f, 0.0f}, "K = 4, less than one step along K (float4 path)"},
      {{bm + 5, 2 * bn, 2 * bk, 1.0f, 0.5f},
       "only M is ragged (float4 path): rows past M load as 0 and are not written"},
      {{2 * bm, bn + 4, 2 * bk, 1.0f, 0.5f},
       "only N is ragged, by a whole float4 (float4 path): columns past N are not written"},
      {{2 * bm, 2 * bn, 2 * bk + 3, 1.0f, 0.0f},
       "K is not a multiple of 4, so the launch must take the scalar path (VEC = false): a float4 "
       "load of A would straddle two rows and be misaligned"},
      {{2 * bm, bn + 2, 2 * bk, 1.0f, 0.5f},
       "N is not a multiple of 4, so the launch must take the scalar path (VEC = false): rows of B "
       "and C do not start on 16-byte boundaries"},
      {{3, 5, 3, 1.0f, 0.0f}, "tiny and ragged everywhere (scalar path)"},
      {{2 * bm, 2 * bn, 2 * bk, 2.0f, -1.5f},
       "whole tiles with beta != 0 (float4 path): C must be read and scaled, alpha * acc + beta * "
       "C"},
  };
}

}  // namespace

TEST_CASE("every warp-tiled configuration is right on the shape grid", "[gpu][task_5]") {
  for (const lesson08::WarpTiledConfig& c : lesson08::warptiled_configs()) {
    course_test::check_on_shapes(c.run, c.name, course::shape_grid<course::Fp32>(true));
  }
}

TEST_CASE("tuned_warptiled_sgemm is right on the shape grid", "[gpu][task_5]") {
  course_test::check_on_shapes(&lesson08::tuned_warptiled_sgemm, "tuned_warptiled_sgemm",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("ragged along one dimension at a time, on both paths", "[gpu][task_6]") {
  for (const lesson08::WarpTiledConfig& c : lesson08::warptiled_configs()) {
    course_test::check_on_cases(c.run, c.name, edge_cases(c.shape));
  }
}

TEST_CASE("warptiled_sgemm rejects sizes below 1 before launching", "[gpu][task_6]") {
  // A correct run first: a stub fails here with NOT IMPLEMENTED, not on the checks below.
  REQUIRE(course::check_gemm(&lesson08::tuned_warptiled_sgemm, {3, 5, 7, 1.0f, 0.0f}).passed);
  float* none = nullptr;
  const auto& configs = lesson08::warptiled_configs();
  CHECK_THROWS(configs[0].run(0, 4, 4, 1.0f, none, none, 0.0f, none));
  CHECK_THROWS(configs[0].run(4, -1, 4, 1.0f, none, none, 0.0f, none));
  CHECK_THROWS(configs[1].run(4, 4, 0, 1.0f, none, none, 0.0f, none));
  CHECK_THROWS(lesson08::tuned_warptiled_sgemm(4, 4, 0, 1.0f, none, none, 0.0f, none));
}
