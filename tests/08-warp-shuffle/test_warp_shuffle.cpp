// The grader of lesson 08, part 1: the shuffles. Linked against the learner's exercise (grade08)
// and against the reference solution (test08).
//
// [cpu] tests emulate a warp on the host with the learner's lane arithmetic (butterfly_partner,
//       quad_a_source, quad_b_source): every lane must end with the right value. They never touch
//       the CUDA runtime.
// [gpu] tests run the three kernels: warp_broadcast and warp_sums against host results (the
//       butterfly bit for bit), quad_sgemm on the design's shape grid against Eigen.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "warp_shuffle.hpp"

#include "common/buffers.hpp"
#include "common/gemm_check.hpp"
#include "common/random.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using lesson08::kWarpSize;

// 32 values of mixed sign and size, so that a wrong order of additions shows in the last bits.
std::array<float, kWarpSize> lane_values(int seed) {
  std::array<float, kWarpSize> v{};
  const std::vector<float> r =
      course::random_matrix(1, kWarpSize, course::derive_seed("lanes " + std::to_string(seed)));
  for (int l = 0; l < kWarpSize; ++l) v[l] = r[l] * (1 + l % 7) * (l % 3 == 0 ? 1000.0f : 1.0f);
  return v;
}

double exact_sum(const float* v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}

}  // namespace

// ---- Task 2 on the CPU: the butterfly -----------------------------------------------------------

TEST_CASE("butterfly_partner pairs the lanes that differ in one bit", "[cpu][task_2]") {
  for (int offset = 16; offset >= 1; offset /= 2) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const int p = lesson08::butterfly_partner(lane, offset);
      INFO("butterfly_partner(" << lane << ", " << offset << ") returned " << p << ", expected "
                                << (lane ^ offset) << ": the lane whose index differs from " << lane
                                << " in exactly the bit " << offset << " (lane ^ offset)");
      {
        INFO(
            "a partner is a lane of the warp, 0 .. 31: lane ^ offset flips one bit, it never "
            "adds");
        REQUIRE(p >= 0);
        REQUIRE(p < kWarpSize);
      }
      {
        INFO("a lane is not its own partner: XOR with offset != 0 always changes the lane");
        CHECK(p != lane);
      }
      CHECK(lesson08::butterfly_partner(p, offset) == lane);  // pairs, both ways
      CHECK((p ^ lane) == offset);
    }
  }
}

TEST_CASE("the emulated butterfly leaves the warp's sum in every lane", "[cpu][task_2]") {
  for (int seed = 0; seed < 4; ++seed) {
    const std::array<float, kWarpSize> v = lane_values(seed);
    const auto stages = lesson08::emulate_butterfly(v);
    const double want = exact_sum(v.data(), kWarpSize);
    double scale = 0;
    for (float x : v) scale += std::fabs(x);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      INFO("lane " << lane << " ends with " << stages[4][lane] << ", the sum of the 32 values is "
                   << want
                   << ". After the stage of offset 16 each lane must hold the sum of 2 values, "
                      "then 4, 8, 16, 32: every stage pairs each lane with a different partner");
      CHECK(std::fabs(stages[4][lane] - want) <= 1e-5 * scale);
      CHECK(stages[4][lane] == stages[4][0]);  // every lane, the same bits
    }
  }
}

// ---- Task 3 on the CPU: the quad's sources ------------------------------------------------------

namespace {

// What a wrong source lane of quad lane q means: lane q owns C[q / 2][q % 2]; quad lanes 0 and 1
// loaded rows 0 and 1 of A, quad lanes 2 and 3 columns 0 and 1 of B.
std::string quad_words(bool a, int q, int got) {
  const int want = a ? q / 2 : 2 + q % 2;
  std::string w = std::string(a ? "quad_a_source(" : "quad_b_source(") + std::to_string(q) +
                  ") = " + std::to_string(got) + ": ";
  if (got < 0 || got > 3) {
    w += "outside the quad: __shfl_sync with width 4 counts lanes 0 .. 3 within it; ";
  } else if (a && got == q % 2) {
    w += "that picks by the column q % 2, but A's value depends on the row q / 2; ";
  } else if (!a && got == 2 + q / 2) {
    w += "that picks by the row q / 2, but B's value depends on the column q % 2; ";
  } else if (a ? got >= 2 : got < 2) {
    w += std::string("quad lane ") + std::to_string(got) + " loaded " + (a ? "B" : "A") + ", not " +
         (a ? "A" : "B") + "; ";
  } else {
    w += "the lane that loaded another row or column; ";
  }
  return w +
         (a ? "A's row q / 2 came from quad lane q / 2 = "
            : "B's column q % 2 from lane 2 + q % 2 = ") +
         std::to_string(want);
}

using course_test::said;

}  // namespace

TEST_CASE("quad lanes read their operands from the lanes that loaded them", "[cpu][task_3]") {
  const int want_a[4] = {0, 0, 1, 1}, want_b[4] = {2, 3, 2, 3};
  for (int q = 0; q < 4; ++q) {
    INFO("quad lane " << q << " owns C[r0 + " << q / 2 << "][c0 + " << q % 2
                      << "]: it needs A[r0 + " << q / 2 << "][k], loaded by quad lane " << want_a[q]
                      << ", and B[k][c0 + " << q % 2 << "], loaded by quad lane " << want_b[q]
                      << " (the table in warp_shuffle.hpp)");
    {
      INFO(said([&] { return quad_words(true, q, lesson08::quad_a_source(q)); }));
      CHECK(lesson08::quad_a_source(q) == want_a[q]);
    }
    {
      INFO(said([&] { return quad_words(false, q, lesson08::quad_b_source(q)); }));
      CHECK(lesson08::quad_b_source(q) == want_b[q]);
    }
  }
  // The emulated quad against the 2 x 2 product, on random operands.
  const int K = 7;
  const std::vector<float> A2 = course::random_matrix(2, K, course::derive_seed("quad A"));
  const std::vector<float> B2 = course::random_matrix(K, 2, course::derive_seed("quad B"));
  std::array<float, 4> got{};
  try {
    got = lesson08::emulate_quad(K, A2.data(), B2.data());
  } catch (const std::out_of_range&) {
    FAIL("a source lane outside 0 .. 3: __shfl_sync with width 4 counts lanes within the quad");
  }
  for (int q = 0; q < 4; ++q) {
    double want = 0;
    for (int k = 0; k < K; ++k) want += double(A2[(q / 2) * K + k]) * B2[2 * k + q % 2];
    INFO("emulated quad lane " << q << " computed " << got[q] << ", C[" << q / 2 << "][" << q % 2
                               << "] is " << want);
    CHECK(std::fabs(got[q] - want) <= 1e-5 * (1 + std::fabs(want)));
  }
}

// ---- The kernels on the GPU
// -----------------------------------------------------------------------

TEST_CASE("warp_broadcast gives every lane its warp's value of src_lane", "[gpu][task_1]") {
  const std::vector<int> sizes = {32, 1, 31, 33, 80, 1000, 4097};
  const std::vector<int> sources = {5, 0, 31};
  for (int n : sizes) {
    const std::vector<float> in =
        course::random_matrix(1, n, course::derive_seed("broadcast " + std::to_string(n)));
    for (int src : sources) {
      course::DeviceBuffer<float> d_in(in), d_out(std::vector<float>(n, std::nanf("")));
      lesson08::warp_broadcast(d_in.data(), d_out.data(), n, src);
      course::wait_for_gpu("warp_broadcast");
      const std::vector<float> out = d_out.to_host();
      int wrong = 0;
      for (int i = 0; i < n && wrong < 3; ++i) {
        const int from = kWarpSize * (i / kWarpSize) + src;
        const float want = from < n ? in[from] : 0.0f;
        if (!(out[i] == want)) {
          ++wrong;
          INFO("n=" << n << " src_lane=" << src << ": out[" << i << "] = " << out[i]
                    << ", expected " << want
                    << (from < n ? " = in[" + std::to_string(from) + "]"
                                 : " (lane " + std::to_string(src) +
                                       " of this warp lies past n: it holds 0)")
                    << (std::isnan(out[i]) ? " (NaN: never written)" : ""));
          CHECK(out[i] == want);
        }
      }
      CHECK(wrong == 0);
    }
  }
  float* none = nullptr;
  CHECK(course_test::throws_invalid_argument([&] { lesson08::warp_broadcast(none, none, 0, 0); }));
  CHECK(course_test::throws_invalid_argument([&] { lesson08::warp_broadcast(none, none, 8, 32); }));
  CHECK(course_test::throws_invalid_argument([&] { lesson08::warp_broadcast(none, none, 8, -1); }));
}

TEST_CASE("warp_sums leaves the butterfly's sum in every lane", "[gpu][task_2]") {
  for (int n : {32, 1, 33, 100, 10000}) {
    std::vector<float> in(n);
    for (int i = 0; i < n; i += kWarpSize) {
      const auto v = lane_values(1000 + i / kWarpSize);
      for (int l = 0; l < kWarpSize && i + l < n; ++l) in[i + l] = v[l];
    }
    course::DeviceBuffer<float> d_in(in), d_out(std::vector<float>(n, std::nanf("")));
    lesson08::warp_sums(d_in.data(), d_out.data(), n);
    course::wait_for_gpu("warp_sums");
    const std::vector<float> out = d_out.to_host();
    int wrong = 0;
    for (int w = 0; w * kWarpSize < n; ++w) {
      std::array<float, kWarpSize> lanes{};
      for (int l = 0; l < kWarpSize; ++l) {
        const int i = w * kWarpSize + l;
        lanes[l] = i < n ? in[i] : 0.0f;
      }
      const float want = lesson08::emulate_butterfly(lanes)[4][0];
      const double exact = exact_sum(lanes.data(), kWarpSize);
      for (int l = 0; l < kWarpSize && w * kWarpSize + l < n && wrong < 3; ++l) {
        const float got = out[w * kWarpSize + l];
        if (!(got == want)) {
          ++wrong;
          // A butterfly with one stage left out, each in turn: which one the lane's value shows.
          int skipped = 0;
          for (int o = 16; o >= 1 && skipped == 0; o /= 2) {
            std::array<float, kWarpSize> v = lanes;
            for (int step = 16; step >= 1; step /= 2) {
              if (step == o) continue;
              std::array<float, kWarpSize> next{};
              for (int x = 0; x < kWarpSize; ++x) next[x] = v[x] + v[x ^ step];
              v = next;
            }
            if (v[l] == got) skipped = o;
          }
          const std::string stage =
              skipped == 0 ? ""
                           : "warp_sum leaves out the stage of offset " + std::to_string(skipped) +
                                 ": each lane holds the sum of half the warp's lanes; the offsets "
                                 "are 16, 8, 4, 2, 1, so the loop runs while offset >= 1.\n";
          INFO(stage << "n=" << n << ", warp " << w << ", lane " << l << ": got " << got
                     << ", the butterfly (offsets 16, 8, 4, 2, 1, each lane adding its partner's "
                        "value to its own) gives "
                     << want << "; the exact sum is " << exact
                     << (std::isnan(got) ? " (NaN: never written)"
                         : std::fabs(got - exact) < 1e-4 * std::fabs(exact) + 1e-3
                             ? " (close: the additions were done in another order; follow the "
                               "butterfly's)"
                             : " (a lane that holds only part of the sum: a stage missing, or a "
                               "shift-down tree, which leaves the total in lane 0 alone)"));
          CHECK(got == want);
        }
      }
    }
    CHECK(wrong == 0);
  }
  float* none = nullptr;
  CHECK(course_test::throws_invalid_argument([&] { lesson08::warp_sums(none, none, 0); }));
}

TEST_CASE("quad_sgemm is right on the shape grid", "[gpu][task_3]") {
  course_test::check_on_shapes(&lesson08::quad_sgemm, "quad_sgemm",
                               course::shape_grid<course::Fp32>(true));
  float* none = nullptr;
  CHECK_THROWS(lesson08::quad_sgemm(0, 4, 4, 1.0f, none, none, 0.0f, none));
}
