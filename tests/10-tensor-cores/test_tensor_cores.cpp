// The grader of lesson 10 (tensor cores). Linked against the learner's exercise (grade10) and
// against the reference solution (test10).
//
// [cpu] tests: the kernel's shared-memory tiles (lesson 09's swizzle, and every cp.async and
//       ldmatrix of a stage conflict-free, counted over the kernel's own addresses). They never
//       touch the CUDA runtime. The tests of your fragment mappings are in
//       calls-yours/test_fragments.cpp.
// [gpu] tests (compute capability 8.0): mma_sync_gemm on the design's shape grid; the large tile
//       on problems ragged along one dimension at a time, K not a multiple of the stage, K smaller
//       than the pipeline, an odd N, beta != 0; every compiled configuration; the given
//       wmma_gemm; the precondition messages.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "causes.hpp"  // the lesson's rules in the table of causes
#include "mma_sync_gemm.hpp"
#include "smem_tile.hpp"
#include "wmma_gemm.hpp"

#include "tests/09-swizzling/bank_reference.hpp"  // lesson 09's grader's count of conflicts

#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm_check.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The message of the std::invalid_argument `f` throws; "" when it throws nothing or else.
template <typename F>
std::string invalid_argument_message(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  } catch (...) {
    return "(threw something other than std::invalid_argument)";
  }
  return "(threw nothing)";
}

course::GemmFn<course::Bf16> config_fn(int index) {
  return [index](int M, int N, int K, float alpha, const course::bf16* A, const course::bf16* B,
                 float beta,
                 course::bf16* C) { lesson10::config_gemm(index, M, N, K, alpha, A, B, beta, C); };
}

}  // namespace

// ---- The tiles in shared memory (CPU)
// ------------------------------------------------------------

TEST_CASE("the kernel's tiles: lesson 09's swizzle, and no bank conflicts", "[cpu][task_1]") {
  // The kernel's own addresses for one stage of its large tile (your A and B mappings give the
  // ldmatrix rows), plain and swizzled.
  const auto swizzled = lesson10::config_shared_accesses(lesson10::headline_config_index(true));
  const auto plain = lesson10::config_shared_accesses(lesson10::headline_config_index(false));
  for (const lesson09::SharedAccess& a : swizzled) {
    for (std::size_t w = 0; w < a.warps.size(); ++w) {
      INFO("swizzled tiles, " << a.what << ", warp instruction " << w << ": " << show(a.warps[w]));
      REQUIRE(reference_conflicts(a.warps[w], a.access_bytes) == 0);
    }
  }
  // Without the swizzle, each phase of an ldmatrix reads the same chunk of 8 consecutive rows:
  // with rows of 128 bytes all 8 chunks sit in the same 4 banks (8 wavefronts instead of 1, 7
  // extra a phase, 28 an instruction); with rows of 64 bytes in two sets of 4 banks (3 extra a
  // phase, 12 an instruction).
  long plain_ldmatrix = 0, instructions = 0;
  for (const lesson09::SharedAccess& a : plain) {
    if (a.what.find("ldmatrix") == std::string::npos) continue;
    for (const lesson09::WarpAddresses& w : a.warps) {
      plain_ldmatrix += reference_conflicts(w, a.access_bytes);
      ++instructions;
    }
  }
  const int row_bytes = 2 * lesson10::mma_configs()[lesson10::headline_config_index(false)].bk;
  CHECK(plain_ldmatrix == (row_bytes == 128 ? 28 : 12) * instructions);

  // tile_offset is lesson 09's Swizzle<3, 4, 3> (rows of 128 bytes) and Swizzle<2, 4, 3> (64):
  // the B bits from M up are XORed with the B bits from M + S up.
  const auto swizzle = [](int bits, std::uint32_t off) {
    const std::uint32_t steer = ((1u << bits) - 1u) << (4 + 3);
    return off ^ ((off & steer) >> 3);
  };
  for (int row = 0; row < 64; ++row) {
    for (int chunk = 0; chunk < 8; ++chunk) {
      const std::uint32_t off = row * 128 + chunk * 16;
      INFO("row " << row << ", chunk " << chunk);
      CHECK(lesson10::tile_offset<128, true>(row, chunk) == swizzle(3, off));
      CHECK(lesson10::tile_offset<128, false>(row, chunk) == off);
      if (chunk < 4) {
        CHECK(lesson10::tile_offset<64, true>(row, chunk) == swizzle(2, row * 64 + chunk * 16));
      }
    }
  }
}

// ---- The kernels (GPU)
// ---------------------------------------------------------------------------

TEST_CASE("mma_sync_gemm is right on the shape grid", "[gpu][task_2]") {
  course_test::check_on_shapes(&lesson10::mma_sync_gemm, "mma_sync_gemm",
                               course::shape_grid<course::Bf16>(true));
}

TEST_CASE("the large tile: ragged along one dimension at a time, K, beta", "[gpu][task_2]") {
  // The 128 x 128 x 64 tile that mma_sync_gemm uses for large problems, called directly: on small
  // problems mma_sync_gemm would pick a smaller tile.
  const int large = lesson10::headline_config_index(true);
  const std::vector<course_test::EdgeCase> cases = {
      {{256, 512, 256, 1.0f, 0.0f}, "whole tiles everywhere (if only this fails: the main loop)"},
      {{300, 512, 256, 1.0f, 0.0f}, "M ragged: the last row of blocks is partial"},
      {{256, 300, 256, 1.0f, 0.0f}, "N ragged: the last column of blocks is partial"},
      {{256, 301, 64, 1.0f, 0.0f}, "N odd: C's rows are not 16-byte aligned, one value a time"},
      {{256, 512, 72, 1.0f, 0.0f}, "K = 72, not a multiple of the stage's 64: zeros past K"},
      {{130, 260, 8, 1.0f, 0.0f}, "K = 8: one stage, shorter than the pipeline"},
      {{140, 270, 136, 1.0f, 0.0f}, "K = 136: two whole stages and a partial third"},
      {{257, 255, 264, 0.5f, -1.5f}, "beta != 0: C is read, scaled and added"},
      {{129, 257, 1024, -1.0f, 0.25f}, "many stages, ragged M and N, negative alpha"},
  };
  course_test::check_on_cases(config_fn(large), "mma_sync_gemm (large tile)", cases);
}

TEST_CASE("every compiled configuration is right", "[gpu][task_2]") {
  // Your code first: a stub fails here with NOT IMPLEMENTED.
  REQUIRE(course::check_gemm(&lesson10::mma_sync_gemm, {33, 65, 24, 1.0f, 0.0f}).passed);
  course_test::check_every_configuration(
      lesson10::mma_configs(), "mma_sync_gemm", &lesson10::mma_config_for, config_fn,
      {{257, 255, 264, 1.25f, -0.75f}, {300, 512, 72, 1.0f, 0.0f}, {1, 7, 8, 1.0f, 0.0f}});
}

TEST_CASE("wmma_gemm (given) is right on the shape grid", "[gpu][task_2]") {
  // Given code, graded once your mma.sync kernel runs, so that an untouched lesson reads as not
  // started rather than half done.
  REQUIRE(course::check_gemm(&lesson10::mma_sync_gemm, {7, 13, 8, 1.0f, 0.0f}).passed);
  course_test::check_on_shapes(&lesson10::wmma_gemm, "wmma_gemm",
                               course::shape_grid<course::Bf16>(true));
}

TEST_CASE("the launchers reject bad shapes before launching", "[gpu][task_2]") {
  REQUIRE(course::check_gemm(&lesson10::mma_sync_gemm, {3, 5, 8, 1.0f, 0.0f}).passed);
  course::bf16* none = nullptr;
  const std::string k_msg = "K must be a multiple of 8";
  const std::string dim_msg = "every dimension must be at least 1";
  std::string m = invalid_argument_message(
      [&] { lesson10::mma_sync_gemm(64, 64, 12, 1, none, none, 0, none); });
  INFO("mma_sync_gemm with K = 12 said: " << m);
  CHECK(m.find(k_msg) != std::string::npos);
  CHECK(m.rfind("mma_sync_gemm", 0) == 0);
  m = invalid_argument_message([&] { lesson10::mma_sync_gemm(0, 64, 64, 1, none, none, 0, none); });
  INFO("mma_sync_gemm with M = 0 said: " << m);
  CHECK(m.find(dim_msg) != std::string::npos);
  m = invalid_argument_message([&] { lesson10::wmma_gemm(64, 64, 12, 1, none, none, 0, none); });
  INFO("wmma_gemm with K = 12 said: " << m);
  CHECK(m.find(k_msg) != std::string::npos);
  m = invalid_argument_message([&] { lesson10::wmma_gemm(0, 64, 64, 1, none, none, 0, none); });
  INFO("wmma_gemm with M = 0 said: " << m);
  CHECK(m.find(dim_msg) != std::string::npos);
  m = invalid_argument_message(
      [&] { lesson10::config_gemm(0, 64, 64, 4, 1, none, none, 0, none); });
  INFO("config_gemm with K = 4 said: " << m);
  CHECK(m.find(k_msg) != std::string::npos);
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson10::config_gemm(-1, 64, 64, 64, 1, none, none, 0, none); }));
}
