// Tests of common/verify on the CPU: each planted fault is caught and named, and correct results
// pass at the very edge of the tolerances.
#include "catch_compat.hpp"

#include "common/diagnosis.hpp"
#include "common/random.hpp"
#include "common/verify.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using course::GemmShape;

// A problem with inputs and the correct result, computed in double and rounded to float.
struct Planted {
  GemmShape s;
  std::vector<float> A, B, C0, out;  // out: guarded, holding the correct result
  std::vector<double> ref, absref;   // alpha*A*B + beta*C0 and |alpha||A||B| + |beta*C0|
  std::size_t band;

  explicit Planted(GemmShape shape) : s(shape), band(course::guard_band(shape.M, shape.N)) {
    const std::string tag = s.str();
    A = course::random_matrix(s.M, s.K, course::derive_seed("A " + tag));
    B = course::random_matrix(s.K, s.N, course::derive_seed("B " + tag));
    C0 = course::random_matrix(s.M, s.N, course::derive_seed("C " + tag));
    out = course::make_guarded_output(s, C0);
    ref.resize(static_cast<std::size_t>(s.M) * s.N);
    absref.resize(ref.size());
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        double acc = 0, abs = 0;
        for (int k = 0; k < s.K; ++k) {
          const double p = double(A[std::size_t(i) * s.K + k]) * B[std::size_t(k) * s.N + j];
          acc += p;
          abs += std::fabs(p);
        }
        const double c0 = s.beta != 0.0f ? C0[std::size_t(i) * s.N + j] : 0.0;
        ref[std::size_t(i) * s.N + j] = s.alpha * acc + s.beta * c0;
        absref[std::size_t(i) * s.N + j] = std::fabs(s.alpha) * abs + std::fabs(s.beta * c0);
        at(i, j) = static_cast<float>(ref[std::size_t(i) * s.N + j]);
      }
  }
  float& at(int i, int j) { return out[band + std::size_t(i) * s.N + j]; }
  course::VerifyReport check(course::VerifyOptions o = {}) {
    return course::verify_gemm(s, A, B, C0, out, o);
  }
};

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

bool says(const course::VerifyReport& r, const std::string& text) {
  return r.cause.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("a correct result passes, full and sampled", "[cpu][verify]") {
  for (GemmShape s : {GemmShape{1, 1, 1, 1.0f, 0.0f}, GemmShape{1, 1, 1, -0.5f, 2.0f},
                      GemmShape{31, 17, 29, 0.75f, -1.25f}, GemmShape{70, 45, 300, 1.0f, 0.0f}}) {
    Planted p(s);
    auto r = p.check();
    INFO(r.describe());
    CHECK(r.passed);
    CHECK_FALSE(r.sampled);
    CHECK(r.checked == long(s.M) * s.N);
  }
  Planted big({300, 40, 64, 1.0f, 0.5f});
  course::VerifyOptions o;
  o.full_check_macs = 1000;  // force the sampled path
  o.sample_rows = 20;
  auto r = big.check(o);
  INFO(r.describe());
  CHECK(r.passed);
  CHECK(r.sampled);
  CHECK(r.rows_checked == 20);
}

TEST_CASE("one wrong element fails and is listed with its place", "[cpu][verify]") {
  Planted p({33, 65, 17, 1.5f, 0.5f});
  p.at(20, 64) += 0.25f;
  auto r = p.check();
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(r.wrong == 1);
  REQUIRE(r.mismatches.size() == 1);
  CHECK(r.mismatches[0].row == 20);
  CHECK(r.mismatches[0].col == 64);
  CHECK(r.describe().find("(20, 64,") != std::string::npos);
  CHECK(r.tile_map.find('X') != std::string::npos);
}

TEST_CASE("a sampled check still sees a wrong last row", "[cpu][verify]") {
  Planted p({300, 40, 64, 1.0f, 0.0f});
  p.at(299, 3) = -p.at(299, 3) + 1.0f;
  course::VerifyOptions o;
  o.full_check_macs = 1000;
  auto r = p.check(o);
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(r.sampled);
}

TEST_CASE("NaN and Inf never pass", "[cpu][verify]") {
  for (float bad : {std::nanf(""), INFINITY, -INFINITY}) {
    Planted p({16, 16, 16, 1.0f, 0.0f});
    p.at(3, 5) = bad;
    auto r = p.check();
    INFO(r.describe());
    CHECK_FALSE(r.passed);
    CHECK(r.nonfinite == 1);
  }
  // Even with a tolerance wide enough to swallow anything finite.
  Planted p({8, 8, 8, 1.0f, 0.0f});
  p.at(0, 0) = std::nanf("");
  course::VerifyOptions wide;
  wide.tolerance = {1e30, 1e30};
  CHECK_FALSE(p.check(wide).passed);
}

TEST_CASE("an unwritten tile is reported as never written", "[cpu][verify]") {
  Planted p({64, 64, 40, 1.0f, 0.0f});
  for (int i = 16; i < 32; ++i)
    for (int j = 32; j < 48; ++j) p.at(i, j) = from_bits(course::kPoisonF32);
  auto r = p.check();
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(r.unwritten == 256);
  CHECK(says(r, "never written"));
  CHECK(r.tile_map.find('U') != std::string::npos);
  // beta != 0: an unwritten element still holds the input C.
  Planted q({40, 40, 40, 1.0f, 0.5f});
  q.at(7, 7) = q.C0[7 * 40 + 7];
  auto rq = q.check();
  INFO(rq.describe());
  CHECK_FALSE(rq.passed);
  CHECK(rq.unwritten == 1);
}

TEST_CASE("a grid that is too small is named", "[cpu][verify]") {
  Planted p({70, 50, 20, 1.0f, 0.0f});
  for (int i = 64; i < 70; ++i)
    for (int j = 0; j < 50; ++j) p.at(i, j) = from_bits(course::kPoisonF32);
  for (int i = 0; i < 70; ++i)
    for (int j = 48; j < 50; ++j) p.at(i, j) = from_bits(course::kPoisonF32);
  auto r = p.check();
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(says(r, "grid too small"));
  CHECK(says(r, "rows 64..69"));
  CHECK(says(r, "columns 48..49"));
}

TEST_CASE("nothing written at all is named", "[cpu][verify]") {
  Planted p({20, 20, 20, 1.0f, 0.0f});
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j) p.at(i, j) = from_bits(course::kPoisonF32);
  auto r = p.check();
  INFO(r.describe());
  CHECK(says(r, "nothing was written"));
}

TEST_CASE("a transposed result is named", "[cpu][verify]") {
  SECTION("square") {
    Planted p({24, 24, 30, 1.0f, 0.0f});
    auto right = p.ref;
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) p.at(j, i) = static_cast<float>(right[std::size_t(i) * 24 + j]);
    auto r = p.check();
    INFO(r.describe());
    CHECK_FALSE(r.passed);
    CHECK(says(r, "transposed"));
  }
  SECTION("non-square, written column-major") {
    Planted p({20, 36, 30, 1.0f, 0.0f});
    auto right = p.ref;
    for (int i = 0; i < 20; ++i)
      for (int j = 0; j < 36; ++j)
        p.out[p.band + std::size_t(j) * 20 + i] =
            static_cast<float>(right[std::size_t(i) * 36 + j]);
    auto r = p.check();
    INFO(r.describe());
    CHECK_FALSE(r.passed);
    CHECK(says(r, "transposed"));
  }
}

TEST_CASE("a write outside C hits the canary", "[cpu][verify]") {
  Planted p({30, 20, 10, 1.0f, 0.0f});
  p.out[p.band + 30 * 20 + 45] = 1.0f;  // row 32, column 5 if C went on
  auto r = p.check();
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(r.canary_after == 1);
  CHECK(says(r, "out-of-bounds write"));
  CHECK(says(r, "row 32, column 5"));
  Planted q({30, 20, 10, 1.0f, 0.0f});
  q.out[q.band - 1] = 0.0f;
  auto rq = q.check();
  CHECK_FALSE(rq.passed);
  CHECK(rq.canary_before == 1);
}

// A kernel emulated on the CPU, as the graders' path runs it (check_gemm_run): element (i, j)
// stores f(job, i, j), with the job's alpha and beta applied by `store` unless f stores itself.
course::GemmRun emulated(std::function<void(course::GemmJob&, long, long, float)> store_one) {
  return [store_one](course::GemmJob& g) {
    for (long i = 0; i < g.s.M; ++i)
      for (long j = 0; j < g.s.N; ++j) {
        float acc = 0.0f;
        for (long k = 0; k < g.s.K; ++k) acc += g.a(i, k) * g.b(k, j);
        store_one(g, i, j, acc);
      }
  };
}

TEST_CASE("wrong alpha or beta is named by the probes", "[cpu][verify][diagnosis]") {
  struct Case {
    const char* planted;
    std::function<float(float acc, float c, float alpha, float beta)> f;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {"beta ignored", [](float acc, float c, float a, float) { return a * acc + c; },
       "beta is ignored"},
      {"beta*C dropped", [](float acc, float, float a, float) { return a * acc; },
       "beta * C is never added"},
      {"alpha ignored", [](float acc, float c, float, float b) { return acc + b * c; },
       "alpha is ignored"},
      {"alpha and beta swapped",
       [](float acc, float c, float a, float b) { return b * acc + a * c; },
       "alpha and beta are swapped"},
      {"scaled by 1.5",
       [](float acc, float c, float a, float b) { return 1.5f * (a * acc + b * c); },
       "scaled by 1.5"},
  };
  for (const Case& c : cases) {
    const auto run = emulated([&](course::GemmJob& g, long i, long j, float acc) {
      float& o = g.out[g.c_at + i * g.s.N + j];
      o = c.f(acc, g.s.beta != 0.0f ? o : 0.0f, g.s.alpha, g.s.beta);
    });
    const auto r = course::check_gemm_run(run, {17, 23, 19, 1.5f, -0.75f}, false);
    INFO(c.planted << "\n" << r.describe());
    CHECK_FALSE(r.passed);
    CHECK(says(r, c.expect));
  }
}

TEST_CASE("reading C when beta == 0 is named", "[cpu][verify][diagnosis]") {
  const auto run = emulated([](course::GemmJob& g, long i, long j, float acc) {
    float& o = g.out[g.c_at + i * g.s.N + j];
    o = g.s.alpha * acc + g.s.beta * o;  // read even when beta == 0, and 0 * NaN is NaN
  });
  const auto r = course::check_gemm_run(run, {16, 16, 8, 1.0f, 0.0f}, false);
  INFO(r.describe());
  CHECK(says(r, "reads C"));
}

TEST_CASE("the bounds guard is blamed only when it is the edge", "[cpu][verify][diagnosis]") {
  // Wrong only past the last whole 32-row tile, at every shape: the edge.
  const auto edge = emulated([](course::GemmJob& g, long i, long j, float acc) {
    g.store(i, j, i >= g.s.M / 32 * 32 ? 0.5f * acc : acc);
  });
  const auto r = course::check_gemm_run(edge, {40, 50, 20, 1.0f, 0.0f}, false);
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(says(r, "only the ragged edge is wrong, at two shapes"));
  CHECK(says(r, "bounds guard"));
  // Rows 16..31 of every 64 wrong: at M = 31 only the rows past 16 look like an edge, but the
  // probes see the interior of whole tiles wrong too. Not a guard.
  const auto inner = emulated([](course::GemmJob& g, long i, long j, float acc) {
    g.store(i, j, i % 64 >= 16 && i % 64 < 32 ? 0.5f * acc : acc);
  });
  const auto q = course::check_gemm_run(inner, {31, 17, 29, 0.75f, -1.25f}, false);
  INFO(q.describe());
  CHECK_FALSE(q.passed);
  CHECK_FALSE(says(q, "bounds guard"));
}

TEST_CASE("a skipped partial tile along K is named by the probes", "[cpu][verify][diagnosis]") {
  const course::GemmRun run = [](course::GemmJob& g) {
    for (long i = 0; i < g.s.M; ++i)
      for (long j = 0; j < g.s.N; ++j) {
        float acc = 0.0f;
        for (long k = 0; k < g.s.K / 16 * 16; ++k) acc += g.a(i, k) * g.b(k, j);
        g.store(i, j, acc);
      }
  };
  const auto r = course::check_gemm_run(run, {24, 24, 40, 1.0f, 0.0f}, false);
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(says(r, "are never summed"));
  CHECK(says(r, "(K + BK - 1) / BK"));
}

TEST_CASE("tolerance edges: just inside passes, just outside fails", "[cpu][verify]") {
  const GemmShape s{37, 29, 300, 1.25f, -0.5f};
  const auto tol = course::Tolerance::fp32(s.K);
  SECTION("per element") {
    for (double factor : {0.9, 1.1}) {
      Planted p(s);
      const std::size_t e = 5 * 29 + 7;
      p.at(5, 7) = static_cast<float>(p.ref[e] + factor * tol.element * p.absref[e]);
      auto r = p.check();
      INFO("factor " << factor << "\n" << r.describe());
      CHECK(r.passed == (factor < 1.0));
    }
  }
  SECTION("relative Frobenius") {
    for (double factor : {0.9, 1.1}) {
      Planted p(s);
      for (int i = 0; i < s.M; ++i)
        for (int j = 0; j < s.N; ++j)
          p.at(i, j) = static_cast<float>(p.ref[i * 29 + j] * (1.0 + factor * tol.frobenius));
      auto r = p.check();
      INFO("factor " << factor << "\n" << r.describe());
      CHECK(r.passed == (factor < 1.0));
      CHECK(r.wrong == 0);  // each element is inside its own bound: only the norm decides
    }
  }
}

TEST_CASE("the bf16 check: B is N x K, bf16 tolerance, faults caught", "[cpu][verify]") {
  const GemmShape s{19, 23, 64, 1.0f, 0.5f};
  auto A = course::random_matrix<course::bf16>(s.M, s.K, course::derive_seed("bf A"));
  auto B = course::random_matrix<course::bf16>(s.N, s.K, course::derive_seed("bf B"));
  auto C0 = course::random_matrix<course::bf16>(s.M, s.N, course::derive_seed("bf C"));
  auto out = course::make_guarded_output(s, C0);
  const std::size_t band = course::guard_band(s.M, s.N);
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j) {
      double acc = 0;
      for (int k = 0; k < s.K; ++k)
        acc += double(__bfloat162float(A[i * s.K + k])) * __bfloat162float(B[j * s.K + k]);
      acc = s.alpha * acc + s.beta * double(__bfloat162float(C0[i * s.N + j]));
      out[band + i * s.N + j] = __float2bfloat16(static_cast<float>(acc));
    }
  auto r = course::verify_gemm(s, A, B, C0, out);
  INFO(r.describe());
  CHECK(r.passed);
  CHECK(r.frobenius_limit == 1e-2);
  out[band + 3 * s.N + 4] = __float2bfloat16(__bfloat162float(out[band + 3 * s.N + 4]) + 1.0f);
  auto bad = course::verify_gemm(s, A, B, C0, out);
  INFO(bad.describe());
  CHECK_FALSE(bad.passed);
  REQUIRE_FALSE(bad.mismatches.empty());
  CHECK(bad.mismatches[0].row == 3);
  CHECK(bad.mismatches[0].col == 4);
}

TEST_CASE("buffers of the wrong size are refused", "[cpu][verify]") {
  Planted p({8, 8, 8, 1.0f, 0.0f});
  p.out.pop_back();
  CHECK_THROWS(p.check());
}

TEST_CASE("random inputs are seeded, reproducible and not constant", "[cpu][random]") {
  auto a = course::random_matrix(16, 16, 42), b = course::random_matrix(16, 16, 42);
  auto c = course::random_matrix(16, 16, 43);
  CHECK(a == b);
  CHECK(a != c);
  float lo = 1, hi = -1;
  for (float v : a) lo = std::min(lo, v), hi = std::max(hi, v);
  CHECK(lo >= -1.0f);
  CHECK(hi < 1.0f);
  CHECK(hi - lo > 1.0f);
  CHECK(course::derive_seed("A") != course::derive_seed("B"));
}
