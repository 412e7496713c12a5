// The grader of lesson 09 (swizzling). Linked against the learner's exercise (grade09) and against
// the reference solution (test09).
//
// [cpu] tests: the bank-conflict counter against worked cases and an independent reference count;
//       every shared-memory access of the final kernel conflict-free with a padded or a swizzled A
//       tile. They never touch the CUDA runtime. The tests of your index functions are in
//       calls-yours/test_index_functions.cpp.
// [gpu] tests: the padded, swizzled and final kernels on the design's shape grid, problems ragged
//       along one dimension at a time, the one-float-at-a-time path (N not a multiple of 4, B not
//       16-byte aligned), every compiled configuration, and the shape checks.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "bank_reference.hpp"
#include "swizzled_sgemm.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm_check.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// One worked case of the counter.
struct Case {
  const char* what;
  int bytes;
  WarpAddresses addr;
  int expected;
};

// What a wrong bank_conflicts answer means: per phase (32, 16 or 8 threads for 4-, 8- or 16-byte
// accesses), the most distinct 4-byte words one bank holds, minus one.
std::string conflict_words(const WarpAddresses& a, int bytes, int got, int want) {
  std::ostringstream o;
  o << "bank_conflicts = " << got << ", expected " << want << ": ";
  const std::set<std::uint32_t> distinct(a.begin(), a.end());
  if (got == want + bytes / 4) {
    o << "that counts every wavefront; conflicts are the extra ones, wavefronts - 1 per phase";
  } else if (got > want && distinct.size() < 32) {
    o << "threads that read the same word share one wavefront (a broadcast): count distinct words";
  } else if (got > want && bytes > 4) {
    o << "a " << bytes << "-byte access is served in phases of " << 128 / bytes
      << " threads: count each phase alone";
  } else if (got < want) {
    o << "distinct words in one bank (bank = word % 32) each take a wavefront";
  } else {
    o << "per phase, the most distinct words one bank holds, minus one";
  }
  return o.str();
}

using course_test::said;

// A problem that is ragged along at most one dimension, and what its failure would mean.
using course_test::EdgeCase;

std::vector<EdgeCase> edge_cases() {
  return {
      {{256, 256, 256, 1.0f, 0.0f},
       "whole tiles only: if this fails, the layout of the A tile is wrong (check_layout accepted "
       "it, so look at the A reads) or a configuration is broken"},
      {{256, 256, 100, 1.0f, 0.0f},
       "only K is ragged: the last stage must hold zeros past K in both tiles"},
      {{250, 256, 256, 1.0f, 0.5f}, "only M is ragged: rows of A past M must be zeros"},
      {{256, 252, 256, 1.0f, 0.5f},
       "only N is ragged (still a multiple of 4): whole float4 quads past N must be zeros"},
      {{256, 255, 256, 1.0f, 0.0f},
       "N is not a multiple of 4: B is copied and C written one float at a time"},
      {{256, 256, 256, 2.0f, -1.5f}, "beta != 0: C must be read and scaled"},
  };
}

void check_edges(const course::GemmFn<course::Fp32>& fn, const std::string& label) {
  course_test::check_on_cases(fn, label, edge_cases());
}

}  // namespace

// ---- Task 1 ------------------------------------------------------------------------------------

TEST_CASE("bank_conflicts: worked cases", "[cpu][task_1]") {
  std::vector<Case> cases = {
      {"thread t reads word t (32 banks, a word each)", 4, addresses([](int t) { return 4u * t; }),
       0},
      {"every thread reads address 0 (one word, broadcast)", 4, addresses([](int) { return 0u; }),
       0},
      {"a column of a 32 x 32 float tile: word 32 t (32 words, all in bank 0)", 4,
       addresses([](int t) { return 128u * t; }), 31},
      {"a stride of 2 words: banks 0, 2, .., 30 hold two words each", 4,
       addresses([](int t) { return 8u * t; }), 1},
      {"threads 0-15 read word 0, threads 16-31 read word 32 (two words in bank 0)", 4,
       addresses([](int t) { return t < 16 ? 0u : 128u; }), 1},
      {"a column of a 33-wide (padded) tile: word 33 t, 32 different banks", 4,
       addresses([](int t) { return 132u * t; }), 0},
      {"8-byte: thread t reads bytes 8t..8t+7 (each half-warp 128 contiguous bytes)", 8,
       addresses([](int t) { return 8u * t; }), 0},
      {"8-byte at a stride of 16 bytes: in each half-warp, two words in every bank used", 8,
       addresses([](int t) { return 16u * t; }), 2},
      {"16-byte: thread t reads bytes 16t..16t+15 (each quarter-warp 128 contiguous bytes)", 16,
       addresses([](int t) { return 16u * t; }), 0},
      {"16-byte: every thread reads bytes 0..15 (broadcast)", 16, addresses([](int) { return 0u; }),
       0},
      {"16-byte: a column of float4s 128 bytes apart (8 words in each of banks 0-3, per phase)", 16,
       addresses([](int t) { return 128u * t; }), 28},
      {"16-byte: a column of float4s 144 bytes apart (padded by one float4: no conflict)", 16,
       addresses([](int t) { return 144u * t; }), 0},
      {"16-byte: quarter-warps read the same 128 bytes (phases are counted separately)", 16,
       addresses([](int t) { return 16u * (t % 8); }), 0},
  };
  for (const Case& c : cases) {
    INFO(c.what << " (" << c.bytes << "-byte accesses); addresses: " << show(c.addr));
    INFO(said([&] {
      return conflict_words(c.addr, c.bytes, lesson09::bank_conflicts(c.addr, c.bytes), c.expected);
    }));
    CHECK(lesson09::bank_conflicts(c.addr, c.bytes) == c.expected);
  }
  INFO("shared_wavefronts = access_bytes / 4 + bank_conflicts");
  CHECK(lesson09::shared_wavefronts(addresses([](int t) { return 128u * t; }), 4) == 32);
}

TEST_CASE("bank_conflicts: random accesses against the grader's own count", "[cpu][task_1]") {
  std::mt19937 rng(9);
  for (int bytes : {4, 8, 16}) {
    for (int trial = 0; trial < 300; ++trial) {
      // Addresses from a small range, so that words collide in banks (and sometimes coincide).
      const std::uint32_t range = 64u << (trial % 5);
      WarpAddresses a{};
      for (auto& x : a) x = (rng() % range) * static_cast<std::uint32_t>(bytes);
      INFO(bytes << "-byte accesses at " << show(a));
      INFO(said([&] {
        return conflict_words(a, bytes, lesson09::bank_conflicts(a, bytes),
                              reference_conflicts(a, bytes));
      }));
      REQUIRE(lesson09::bank_conflicts(a, bytes) == reference_conflicts(a, bytes));
    }
  }
}

TEST_CASE("bank_conflicts: rejects sizes and misaligned addresses", "[cpu][task_1]") {
  // A correct count first: a stub fails here with NOT IMPLEMENTED.
  REQUIRE(lesson09::bank_conflicts(addresses([](int t) { return 4u * t; }), 4) == 0);
  const WarpAddresses a = addresses([](int t) { return 16u * t; });
  CHECK(course_test::throws_invalid_argument([&] { lesson09::bank_conflicts(a, 3); }));
  CHECK(course_test::throws_invalid_argument([&] { lesson09::bank_conflicts(a, 32); }));
  WarpAddresses odd = a;
  odd[5] = 84;  // not a multiple of 16
  CHECK(course_test::throws_invalid_argument([&] { lesson09::bank_conflicts(odd, 16); }));
}

// ---- Task 2 ------------------------------------------------------------------------------------

TEST_CASE("the padded A tile: the final kernel's shared-memory accesses are conflict-free",
          "[cpu][task_2]") {
  for (const lesson09::SharedAccess& a :
       lesson09::final_kernel_shared_accesses(lesson09::ALayout::kPadded)) {
    for (std::size_t w = 0; w < a.warps.size(); ++w) {
      INFO("padded A tile, " << a.what << ", warp instruction " << w << ": " << show(a.warps[w]));
      REQUIRE(reference_conflicts(a.warps[w], a.access_bytes) == 0);
    }
  }
}

// ---- Task 4 ------------------------------------------------------------------------------------

TEST_CASE("the swizzled A tile: the final kernel's shared-memory accesses are conflict-free",
          "[cpu][task_4]") {
  long plain_conflicts = 0;
  for (const lesson09::SharedAccess& a :
       lesson09::final_kernel_shared_accesses(lesson09::ALayout::kSwizzled)) {
    for (std::size_t w = 0; w < a.warps.size(); ++w) {
      INFO("swizzled A tile, " << a.what << ", warp instruction " << w << ": " << show(a.warps[w]));
      REQUIRE(reference_conflicts(a.warps[w], a.access_bytes) == 0);
    }
  }
  // The reason for it all: the same kernel with a plain A tile has conflicts on its A stores.
  for (const lesson09::SharedAccess& a :
       lesson09::final_kernel_shared_accesses(lesson09::ALayout::kPlain)) {
    for (const WarpAddresses& w : a.warps)
      plain_conflicts += reference_conflicts(w, a.access_bytes);
  }
  CHECK(plain_conflicts > 0);
}

// ---- The kernels (task 4 on the GPU) -----------------------------------------------------------

TEST_CASE("padded_sgemm is right on the shape grid", "[gpu][task_2]") {
  course_test::check_on_shapes(&lesson09::padded_sgemm, "padded_sgemm",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("swizzled_sgemm is right on the shape grid", "[gpu][task_4]") {
  course_test::check_on_shapes(&lesson09::swizzled_sgemm, "swizzled_sgemm",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("final_sgemm is right on the shape grid", "[gpu][task_4]") {
  course_test::check_on_shapes(&lesson09::final_sgemm, "final_sgemm",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("ragged along one dimension at a time, and the one-float path", "[gpu][task_4]") {
  check_edges(&lesson09::swizzled_sgemm, "swizzled_sgemm");
  check_edges(&lesson09::padded_sgemm, "padded_sgemm");
  // B one float past a 16-byte boundary: the launcher must take the one-float-at-a-time path.
  const course::GemmFn<course::Fp32> misaligned_b = [](int M, int N, int K, float alpha,
                                                       const float* A, const float* B, float beta,
                                                       float* C) {
    course::DeviceBuffer<float> shifted(static_cast<std::size_t>(K) * N + 1);
    CUDA_CHECK(cudaMemcpy(shifted.data() + 1, B, sizeof(float) * K * N, cudaMemcpyDeviceToDevice));
    lesson09::swizzled_sgemm(M, N, K, alpha, A, shifted.data() + 1, beta, C);
    course::wait_for_gpu("swizzled_sgemm");  // before `shifted` is freed
  };
  course::VerifyOptions options;
  options.label = "swizzled_sgemm, B not 16-byte aligned";
  const course::VerifyReport r =
      course::check_gemm(misaligned_b, {200, 256, 96, 1.0f, 0.5f}, options);
  INFO("B starts 4 bytes past a 16-byte boundary: copies of B must be 4 bytes each");
  INFO(r.describe());
  CHECK(r.passed);
}

TEST_CASE("every compiled configuration is right", "[gpu][task_4]") {
  // The layouts first: a stub fails here with NOT IMPLEMENTED.
  REQUIRE(course::check_gemm(&lesson09::swizzled_sgemm, {33, 65, 17, 1.0f, 0.0f}).passed);
  course_test::check_every_configuration(
      lesson09::sgemm_configs(), "final_sgemm", &lesson09::final_config_for,
      [](int i) -> course::GemmFn<course::Fp32> {
        return [i](int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                   float* C) { lesson09::config_sgemm(i, M, N, K, alpha, A, B, beta, C); };
      },
      {{257, 255, 300, 1.25f, -0.75f}, {300, 512, 64, 1.0f, 0.0f}, {1, 7, 1, 1.0f, 0.0f}});
}

TEST_CASE("the launchers reject bad shapes before launching", "[gpu][task_4]") {
  REQUIRE(course::check_gemm(&lesson09::final_sgemm, {3, 5, 7, 1.0f, 0.0f}).passed);
  float* none = nullptr;
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::final_sgemm(0, 4, 4, 1.0f, none, none, 0.0f, none); }));
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::swizzled_sgemm(4, 0, 4, 1.0f, none, none, 0.0f, none); }));
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::padded_sgemm(4, 4, -1, 1.0f, none, none, 0.0f, none); }));
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::config_sgemm(-1, 4, 4, 4, 1.0f, none, none, 0.0f, none); }));
}
