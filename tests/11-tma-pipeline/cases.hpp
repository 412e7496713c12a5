// Lesson 11's problems for the GPU tests, shared by the grader (test_tma_pipeline.cpp) and the
// lab's (lab/test_lab.cpp), and how they are run: kernel by kernel, up to the first failure. The
// problems stream-K splits are the lab's own (lab/test_lab.cpp).
#pragma once

#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "tma_pipeline.hpp"

#include "common/fit.hpp"
#include "common/gemm_check.hpp"

#include <vector>

namespace {

// Every kernel that this GPU can run on every case, kernel by kernel, up to the first failure: that
// one is the diagnosis. A wrong solution fails every kernel the same way, and the checks of the
// large problems after it would only add seconds to the wait for the verdict.
void check_until_first_failure(const std::vector<lesson11::Rung>& kernels,
                               const std::vector<course_test::EdgeCase>& cases) {
  for (const lesson11::Rung& r : kernels) {
    if (!course::fits_current_device(r)) continue;  // a wgmma rung on a GPU without wgmma
    for (const course_test::EdgeCase& e : cases) {
      course::VerifyOptions options;
      options.label = r.name;
      const course::VerifyReport report = course::check_gemm(r.run, e.shape, options);
      INFO(report.describe());  // the likely cause first, then what this edge case is for
      INFO(r.name << " on " << e.shape.str() << ": " << e.what);
      CHECK(report.passed);
      if (!report.passed) return;
    }
  }
}

// The design's shape grid (K a multiple of 8).
std::vector<course_test::EdgeCase> grid_cases() {
  std::vector<course_test::EdgeCase> grid;
  for (const course::GemmShape& s : course::shape_grid<course::Bf16>()) {
    grid.push_back({s, "the shape grid"});
  }
  return grid;
}

// Problems ragged in one dimension at a time, both epilogues, K not a multiple of 64.
std::vector<course_test::EdgeCase> ragged_cases() {
  return {
      {{129, 256, 128, 1.0f, 0.0f}, "M one row past a 128-row tile: the zero-filled rows of A"},
      {{128, 257, 128, 1.0f, 0.0f}, "N one column past a tile, odd N: the register epilogue"},
      {{128, 264, 128, 1.0f, 0.0f}, "N past a tile, N % 8 == 0: the TMA store clips it"},
      {{128, 256, 72, 1.0f, 0.0f}, "K one 8-wide piece past a k-block: TMA zero-fills the rest"},
      {{256, 512, 8, 1.0f, 0.0f}, "K = 8: a single, mostly empty, k-block"},
      {{300, 520, 1000, 0.5f, 1.5f}, "beta != 0: C is read back in the epilogue"},
      {{1000, 1000, 1024, 1.0f, 0.0f}, "the sanitizer's ragged size"},
      {{2048, 2048, 4096, 1.0f, 0.0f}, "more tiles than SMs: several tiles per persistent block"},
  };
}

}  // namespace
