// Tests of the diagnosis on the CPU: each typical mistake, emulated on the CPU the way a faulty
// kernel computes it, is run over the course's shape grid like a grader does. The FIRST failing
// shape (the one a learner's watch screen shows) names the cause from the result alone where a
// complete model of it fits; elsewhere the probes (common/diagnosis.hpp), run on the same emulated
// kernel, name it. The wrong solutions of every lesson are in test_wrong_solutions.cpp.
//
// The same mistakes as real kernels are in planted_kernels.cu (the [gpu] half of this check, in
// test_gpu_harness.cpp).
#include "catch_compat.hpp"

#include "common/bits.hpp"
#include "common/diagnosis.hpp"
#include "common/gemm_check.hpp"
#include "common/random.hpp"
#include "common/verify.hpp"
#include "lessons/05-tiling/causes.hpp"
#include "lessons/07-register-tiling/causes.hpp"
#include "lessons/08-warp-shuffle/causes.hpp"
#include "lessons/09-swizzling/causes.hpp"
#include "lessons/10-tensor-cores/causes.hpp"
#include "lessons/11-tma-pipeline/causes.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

using course::bf16;
using course::GemmShape;
using course::VerifyReport;

// ---- FP32: one problem laid out as check_gemm lays it out
// ----------------------------------------

struct Run {
  GemmShape s;
  std::vector<float> A, B, C0, out;  // out: guarded, as make_guarded_output made it
  long band;

  // The matrices of a probe (or any job): what the kernel reads and the guarded output.
  explicit Run(const course::GemmJob* g) : s(g->s), out(g->out), band(static_cast<long>(g->c_at)) {
    A.assign(g->A.begin() + long(g->a_at), g->A.begin() + long(g->a_at) + long(s.M) * s.K);
    B.assign(g->B.begin() + long(g->b_at), g->B.begin() + long(g->b_at) + long(s.K) * s.N);
  }
  explicit Run(const GemmShape& shape)
      : s(shape), band(static_cast<long>(course::guard_band(shape.M, shape.N))) {
    const std::string tag = " " + s.str();
    A = course::random_matrix(s.M, s.K, course::derive_seed("A" + tag));
    B = course::random_matrix(s.K, s.N, course::derive_seed("B" + tag));
    C0 = course::random_matrix(s.M, s.N, course::derive_seed("C" + tag));
    out = course::make_guarded_output(s, C0);
  }
  // Element e of C as a kernel indexes it: past the end or before the start it lands in the canary
  // bands; beyond them the write is dropped (nullptr).
  float* c(long e) {
    const long x = band + e;
    return (x < 0 || x >= static_cast<long>(out.size())) ? nullptr : &out[x];
  }
  // What a thread stores: alpha * acc + beta * C, C read only when beta != 0. Arithmetic on a NaN
  // gives the GPU's canonical NaN (the CPU would keep the canary's bits).
  void store(long e, float acc) {
    float* p = c(e);
    if (p == nullptr) return;
    const float v = s.alpha * acc + (s.beta != 0.0f ? s.beta * *p : 0.0f);
    *p = std::isnan(v) ? std::nanf("") : v;
  }
  float a(int i, int k) const { return A[static_cast<std::size_t>(i) * s.K + k]; }
  float b(int k, int j) const { return B[static_cast<std::size_t>(k) * s.N + j]; }
  float dot(int i, int j, int k_end) const {
    float acc = 0.0f;
    for (int k = 0; k < k_end; ++k) acc += a(i, k) * b(k, j);
    return acc;
  }
  VerifyReport check() const { return course::verify_gemm(s, A, B, C0, out); }
};

using Fp32Kernel = std::function<void(Run&)>;

// A 16 x 16 block launch over (x, y), threads in launch order, grid sized the usual way: x over
// the N columns, y over the M rows.
template <typename Thread>
void launch16(const GemmShape& s, const Thread& thread) {
  const int gx = (s.N + 15) / 16, gy = (s.M + 15) / 16;
  for (int by = 0; by < gy; ++by)
    for (int bx = 0; bx < gx; ++bx)
      for (int ty = 0; ty < 16; ++ty)
        for (int tx = 0; tx < 16; ++tx) thread(bx * 16 + tx, by * 16 + ty);
}

// The mistakes, as a faulty kernel computes them.
void swapped_roles(Run& r) {
  launch16(r.s, [&](int x, int y) {
    const int row = x, col = y;  // the mistake: the row from x
    if (row < r.s.M && col < r.s.N) r.store(long(row) * r.s.N + col, r.dot(row, col, r.s.K));
  });
}
void wrong_ld_c(Run& r) {
  launch16(r.s, [&](int col, int row) {
    if (row < r.s.M && col < r.s.N) r.store(long(row) * r.s.K + col, r.dot(row, col, r.s.K));
  });
}
void wrong_ld_a(Run& r) {
  launch16(r.s, [&](int col, int row) {
    if (row >= r.s.M || col >= r.s.N) return;
    float acc = 0.0f;
    for (int k = 0; k < r.s.K; ++k) {
      const std::size_t x = static_cast<std::size_t>(row) * r.s.N + k;  // the mistake: N for K
      acc += (x < r.A.size() ? r.A[x] : 0.0f) * r.b(k, col);            // past A: 0 here
    }
    r.store(long(row) * r.s.N + col, acc);
  });
}
void wrong_ld_b(Run& r) {
  launch16(r.s, [&](int col, int row) {
    if (row >= r.s.M || col >= r.s.N) return;
    float acc = 0.0f;
    for (int k = 0; k < r.s.K; ++k) {
      const std::size_t x = static_cast<std::size_t>(k) * r.s.K + col;  // the mistake: K for N
      acc += r.a(row, k) * (x < r.B.size() ? r.B[x] : 0.0f);
    }
    r.store(long(row) * r.s.N + col, acc);
  });
}
void skips_k_tail(Run& r) {  // a tiled kernel with TILE = 16 and K / TILE tiles, rounded down
  launch16(r.s, [&](int col, int row) {
    if (row < r.s.M && col < r.s.N)
      r.store(long(row) * r.s.N + col, r.dot(row, col, r.s.K / 16 * 16));
  });
}
void quad_wrong_source(Run& r) {  // lesson 08's quad, quad lane q taking A from lane q % 2
  for (int r0 = 0; r0 < r.s.M; r0 += 2)
    for (int c0 = 0; c0 < r.s.N; c0 += 2)
      for (int q = 0; q < 4; ++q) {
        float acc = 0.0f;
        for (int k = 0; k < r.s.K; ++k) {
          float loaded[4];
          loaded[0] = r0 < r.s.M ? r.a(r0, k) : 0.0f;
          loaded[1] = r0 + 1 < r.s.M ? r.a(r0 + 1, k) : 0.0f;
          loaded[2] = c0 < r.s.N ? r.b(k, c0) : 0.0f;
          loaded[3] = c0 + 1 < r.s.N ? r.b(k, c0 + 1) : 0.0f;
          acc += loaded[q % 2] * loaded[2 + q % 2];  // the mistake: q % 2 where q / 2 belongs
        }
        const int row = r0 + q / 2, col = c0 + q % 2;
        if (row < r.s.M && col < r.s.N) r.store(long(row) * r.s.N + col, acc);
      }
}
// Blocks (0, 1) and (1, 0) of every 16 x 16 tile exchanged where the accumulators are stored; a
// source outside C holds 0 (the zero-filled tiles of a tiled kernel).
void blocks_exchanged(Run& r) {
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      int si = i, sj = j;
      if (i % 16 < 8 && j % 16 >= 8) si = i + 8, sj = j - 8;
      if (i % 16 >= 8 && j % 16 < 8) si = i - 8, sj = j + 8;
      const float acc = (si < r.s.M && sj < r.s.N) ? r.dot(si, sj, r.s.K) : 0.0f;
      r.store(long(i) * r.s.N + j, acc);
    }
}

// The grader's loop: the first shape of `grid` that fails, with its report.
VerifyReport first_failure(const Fp32Kernel& kernel, const std::vector<GemmShape>& grid) {
  for (const GemmShape& s : grid) {
    Run r(s);
    kernel(r);
    VerifyReport rep = r.check();
    if (!rep.passed) return rep;
  }
  return {};
}

// A kernel of these tests as the graders' GemmRun: it computes on the job's matrices.
course::GemmRun as_run(const Fp32Kernel& kernel) {
  return [kernel](course::GemmJob& g) {
    Run r(&g);
    kernel(r);
    g.out = r.out;
  };
}

// check_gemm's path again at the report's shape (the same inputs), now with the kernel at hand:
// the cause from the whole table, the runs again and the probes included.
void probe(VerifyReport& rep, const Fp32Kernel& kernel, const std::string& lesson = "") {
  course::VerifyOptions o;
  o.lesson = lesson;
  rep = course::check_gemm_run(as_run(kernel), rep.shape, false, o);
}

bool says(const VerifyReport& r, const std::string& text) {
  return r.cause.find(text) != std::string::npos;
}

std::vector<GemmShape> small_grid() {
  return course::shape_grid<course::Fp32>(false);
}

// ---- bf16: A M x K, B N x K, C bf16
// ---------------------------------------------------------------

struct RunBf16 {
  GemmShape s;
  std::vector<bf16> A, B, C0, out;
  std::size_t band;

  explicit RunBf16(const course::GemmJob* g) : s(g->s), band(g->c_at) {
    A = narrow(g->A, g->a_at, static_cast<std::size_t>(s.M) * s.K);
    B = narrow(g->B, g->b_at, static_cast<std::size_t>(s.N) * s.K);
    out = narrow(g->out, 0, g->out.size());
  }
  // Bit for bit (the canaries' NaN payloads kept): common/bits.hpp.
  static std::vector<bf16> narrow(const std::vector<float>& v, std::size_t from, std::size_t n) {
    std::vector<bf16> h(n);
    for (std::size_t x = 0; x < n; ++x) h[x] = course::narrow(v[from + x]);
    return h;
  }
  static std::vector<float> widen(const std::vector<bf16>& h) {
    std::vector<float> v(h.size());
    for (std::size_t x = 0; x < h.size(); ++x) v[x] = course::widen(h[x]);
    return v;
  }
  explicit RunBf16(const GemmShape& shape) : s(shape), band(course::guard_band(shape.M, shape.N)) {
    const std::string tag = " " + s.str();
    A = course::random_matrix<course::bf16>(s.M, s.K, course::derive_seed("A" + tag));
    B = course::random_matrix<course::bf16>(s.N, s.K, course::derive_seed("B" + tag));
    C0 = course::random_matrix<course::bf16>(s.M, s.N, course::derive_seed("C" + tag));
    out = course::make_guarded_output(s, C0);
  }
  // A and B zero outside the matrices (the zero-filled tiles of a tensor-core kernel).
  float a(int i, int k) const {
    return (i < s.M && k < s.K) ? __bfloat162float(A[static_cast<std::size_t>(i) * s.K + k]) : 0.0f;
  }
  float b(int k, int j) const {
    return (j < s.N && k < s.K) ? __bfloat162float(B[static_cast<std::size_t>(j) * s.K + k]) : 0.0f;
  }
  void store(int i, int j, float acc) {
    bf16& c = out[band + static_cast<std::size_t>(i) * s.N + j];
    const float old = s.beta != 0.0f ? s.beta * __bfloat162float(c) : 0.0f;
    c = __float2bfloat16(s.alpha * acc + old);
  }
  VerifyReport check() const { return course::verify_gemm(s, A, B, C0, out); }
};

using Bf16Kernel = std::function<void(RunBf16&)>;

// Registers 1 and 2 of A's m16n8k16 fragment exchanged (the ldmatrix lanes 8-15 given the rows of
// matrix 2, lanes 16-23 those of matrix 1): in every 16 x 16 block of A, rows 8-15 at k 0-7 and
// rows 0-7 at k 8-15 trade places.
void a_registers_swapped(RunBf16& r) {
  const int kp = (r.s.K + 15) / 16 * 16;
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < kp; ++k) {
        int si = i, sk = k;
        if (i % 16 < 8 && k % 16 >= 8) si = i + 8, sk = k - 8;
        if (i % 16 >= 8 && k % 16 < 8) si = i - 8, sk = k + 8;
        acc += r.a(si, sk) * r.b(k, j);
      }
      r.store(i, j, acc);
    }
}

// Rows 0-7 and 8-15 of every 16-row tile exchanged where the accumulators are stored (c0, c1 and
// c2, c3 of the C fragment swapped).
void c_rows_swapped(RunBf16& r) {
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const int si = i % 16 < 8 ? i + 8 : i - 8;
      float acc = 0.0f;
      for (int k = 0; k < r.s.K; ++k) acc += r.a(si, k) * r.b(k, j);
      r.store(i, j, acc);
    }
}

VerifyReport first_failure_bf16(const Bf16Kernel& kernel) {
  for (const GemmShape& s : course::shape_grid<course::Bf16>(false)) {
    RunBf16 r(s);
    kernel(r);
    VerifyReport rep = r.check();
    if (!rep.passed) return rep;
  }
  return {};
}

void probe_bf16(VerifyReport& rep, const Bf16Kernel& kernel, const std::string& lesson = "") {
  course::VerifyOptions o;
  o.lesson = lesson;
  const course::GemmRun run = [kernel](course::GemmJob& g) {
    RunBf16 r(&g);
    kernel(r);
    g.out = RunBf16::widen(r.out);
  };
  rep = course::check_gemm_run(run, rep.shape, true, o);
}

}  // namespace

TEST_CASE("the table of causes is walked specific first", "[cpu][verify][diagnosis]") {
  const std::vector<course::Rule>& d = course::cause_rules();
  auto pos = [&](const std::string& name) {
    auto it = std::find_if(d.begin(), d.end(),
                           [&](const course::Rule& r) { return r.id == name && r.lesson.empty(); });
    if (it == d.end())
      it = std::find_if(d.begin(), d.end(), [&](const course::Rule& r) { return r.id == name; });
    INFO(name << " is not in the table");
    REQUIRE(it != d.end());
    return it - d.begin();
  };
  // A wrong stride of C overwrites canaries or leaves elements unwritten: before both.
  CHECK(pos("wrong_leading_dimension_of_c") < pos("out_of_bounds_write"));
  CHECK(pos("wrong_leading_dimension_of_c") < pos("unwritten_elements"));
  // Swapped roles leave the band a grid too small leaves.
  CHECK(pos("swapped_roles") < pos("grid_too_small"));
  // A wrong stride of A can read past A, and what lies there may be NaN.
  CHECK(pos("wrong_leading_dimension_of_a_or_b") < pos("nan_or_inf"));
  // Values that change between runs: a race, whatever the probes would read of them; on the
  // ragged edge only, stale shared memory.
  CHECK(pos("stale_edge") < pos("race"));
  CHECK(pos("race") < pos("ragged_edge"));
  // A lesson's words before the course's on the same evidence.
  CHECK(pos("quad_source") < pos("products_elsewhere"));
  CHECK(pos("scattered_errors") == static_cast<long>(d.size()) - 1);
  // Each cause is named by one rule.
  for (std::size_t a = 0; a < d.size(); ++a)
    for (std::size_t b = a + 1; b < d.size(); ++b)
      if (d[a].id == d[b].id) CHECK((d[a].lesson != d[b].lesson || d[a].id == "grid_too_small"));
}

TEST_CASE("the probes take every code path the lessons declare", "[cpu][diagnosis]") {
  const std::vector<course::KernelPath>& paths = course::kernel_paths();
  const std::vector<course::GemmShape> shapes = course::probe_sets().front();
  CHECK(paths.size() >= 14);
  for (const course::KernelPath& p : paths) {
    bool taken = false;
    for (course::GemmShape s : shapes) {
      if (p.bf16) s.K = (s.K + 7) / 8 * 8;
      taken = taken || p.takes(s);
    }
    INFO("lesson " << p.lesson << ": " << p.name);
    CHECK(taken);
  }
}

TEST_CASE("swapped thread roles are named on the first failing shape", "[cpu][verify][diagnosis]") {
  const VerifyReport r = first_failure(swapped_roles, small_grid());
  INFO(r.describe());
  REQUIRE_FALSE(r.passed);
  CHECK(r.shape.M == 33);  // 1x1x1 .. 64^3 are covered whichever way round
  CHECK(r.cause_id == "swapped_roles");
  CHECK(says(r, "x used as the row"));
  CHECK(says(r, "columns 48..64"));
  CHECK_FALSE(r.ambiguous());
  // Tall and thin: a band of rows, which a grid too small would round down to other numbers.
  Run tall({1000, 1, 7, 1.0f, 0.0f});
  swapped_roles(tall);
  const VerifyReport t = tall.check();
  INFO(t.describe());
  CHECK(t.cause_id == "swapped_roles");
  CHECK(says(t, "rows 16..999"));
}

TEST_CASE("swapped roles the other way round, and where a grid too small fits too",
          "[cpu][verify][diagnosis]") {
  // The column taken from x while the grid gives x the rows (lesson 03's launch, lesson 04's
  // index): the columns reach only M rounded up, the rows N rounded up.
  Run r({33, 65, 17, 1.5f, 0.5f});
  const int gx = (r.s.M + 15) / 16, gy = (r.s.N + 15) / 16;
  for (int x = 0; x < gx * 16; ++x)
    for (int y = 0; y < gy * 16; ++y) {
      const int col = x, row = y;
      if (row < r.s.M && col < r.s.N) r.store(long(row) * r.s.N + col, r.dot(row, col, r.s.K));
    }
  const VerifyReport rep = r.check();
  INFO(rep.describe());
  CHECK(rep.cause_id == "swapped_roles");
  CHECK(says(rep, "columns 48..64"));
  // 40 x 20: the rows reach 32 = 20 rounded up to 16, which is also 40 rounded down to 16.
  VerifyReport both = first_failure(swapped_roles, {{40, 20, 9, 1.0f, 0.0f}});
  INFO(both.describe());
  CHECK(both.cause_id == "swapped_roles");
  CHECK(both.ambiguous());
  CHECK(says(both, "grid too small"));
  probe(both, swapped_roles);
  INFO(both.describe());
  CHECK(both.cause_id == "swapped_roles");
  CHECK(says(both, "x and y roles swapped"));
  CHECK_FALSE(both.ambiguous());
}

TEST_CASE("a grid too small is still a grid too small", "[cpu][verify][diagnosis]") {
  // The band of a grid rounded down: not what swapped roles leave.
  Run r({70, 50, 20, 1.0f, 0.0f});
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 48; ++j) r.store(long(i) * 50 + j, r.dot(i, j, 20));
  const VerifyReport rep = r.check();
  INFO(rep.describe());
  CHECK(rep.cause_id == "grid_too_small");
  CHECK_FALSE(rep.ambiguous());
}

TEST_CASE("a wrong leading dimension of C is named", "[cpu][verify][diagnosis]") {
  SECTION("stride K < N: rows overlap, the end of C is never written") {
    const VerifyReport r = first_failure(wrong_ld_c, small_grid());
    INFO(r.describe());
    REQUIRE_FALSE(r.passed);
    CHECK(r.shape.M == 7);
    CHECK(r.cause_id == "wrong_leading_dimension_of_c");
    CHECK(says(r, "row stride of K = 5 instead of N = 13"));
    CHECK(says(r, "C[row * N + col]"));
  }
  SECTION("stride K > N: rows leave gaps and run past the end of C, beta != 0") {
    Run r({40, 24, 37, 1.5f, -0.5f});
    wrong_ld_c(r);
    const VerifyReport rep = r.check();
    INFO(rep.describe());
    CHECK(rep.canary_after > 0);
    CHECK(rep.cause_id == "wrong_leading_dimension_of_c");
    CHECK(says(rep, "row stride of K = 37"));
    CHECK(says(rep, "past the end of C"));
  }
}

TEST_CASE("a wrong leading dimension of A or B is named", "[cpu][verify][diagnosis]") {
  SECTION("A read with stride N") {
    const VerifyReport r = first_failure(wrong_ld_a, small_grid());
    INFO(r.describe());
    REQUIRE_FALSE(r.passed);
    CHECK(r.shape.M == 7);
    CHECK(r.cause_id == "wrong_leading_dimension_of_a_or_b");
    CHECK(says(r, "A is read with a row stride of N = 13 instead of K = 5"));
  }
  SECTION("B read with stride K") {
    const VerifyReport r = first_failure(wrong_ld_b, small_grid());
    INFO(r.describe());
    REQUIRE_FALSE(r.passed);
    CHECK(r.cause_id == "wrong_leading_dimension_of_a_or_b");
    CHECK(says(r, "B is read with a row stride of K"));
  }
}

TEST_CASE("bf16: B (N x K) read with the wrong stride is named", "[cpu][verify][diagnosis]") {
  const VerifyReport r = first_failure_bf16([](RunBf16& run) {
    for (int i = 0; i < run.s.M; ++i)
      for (int j = 0; j < run.s.N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < run.s.K; ++k) {
          const std::size_t x = static_cast<std::size_t>(j) * run.s.N + k;  // N where K belongs
          acc += run.a(i, k) * (x < run.B.size() ? __bfloat162float(run.B[x]) : 0.0f);
        }
        run.store(i, j, acc);
      }
  });
  INFO(r.describe());
  REQUIRE_FALSE(r.passed);
  CHECK(r.cause_id == "wrong_leading_dimension_of_a_or_b");
  CHECK(says(r, "B (N x K) is read with a row stride of N"));
  CHECK(says(r, "B[col * K + k]"));
}

TEST_CASE("a skipped K tail is named by the probes, even where 1x1x1 cannot tell",
          "[cpu][verify][diagnosis]") {
  VerifyReport r = first_failure(skips_k_tail, small_grid());
  INFO(r.describe());
  REQUIRE_FALSE(r.passed);
  CHECK(r.shape.M == 1);
  probe(r, skips_k_tail);
  INFO(r.describe());
  CHECK(r.cause_id == "terms");
  CHECK(says(r, "the terms k = 80..87 are never summed (K = 88)"));
  CHECK(says(r, "(K + BK - 1) / BK"));
  CHECK_FALSE(r.ambiguous());
  CHECK_FALSE(r.passed);  // the verdict stays
}

TEST_CASE("a wrong shuffle source in a quad is named in lesson 08's words",
          "[cpu][verify][diagnosis]") {
  VerifyReport r = first_failure(quad_wrong_source, small_grid());
  REQUIRE_FALSE(r.passed);
  CHECK(r.shape.M == 7);
  probe(r, quad_wrong_source, "08");
  INFO(r.describe());
  CHECK(says(r, "wrong shuffle source in a quad"));
  CHECK(says(r, "lane 1 (C[r0][c0 + 1]) multiplies A[r0 + 1][k]"));
  CHECK(says(r, "lane 2 (C[r0 + 1][c0]) multiplies A[r0][k]"));
  CHECK_FALSE(says(r, "lane 0 ("));
  CHECK_FALSE(r.ambiguous());
  // Another lesson's grader does not speak of quads: the course-wide words.
  VerifyReport other = first_failure(quad_wrong_source, small_grid());
  probe(other, quad_wrong_source, "05");
  INFO(other.describe());
  CHECK_FALSE(says(other, "quad"));
  CHECK(says(other, "C(0, 1) multiplies A row 1"));
}

TEST_CASE("8x8 blocks exchanged within 16x16 tiles are named", "[cpu][verify][diagnosis]") {
  VerifyReport r = first_failure(blocks_exchanged, small_grid());
  REQUIRE_FALSE(r.passed);
  probe(r, blocks_exchanged);
  INFO(r.describe());
  CHECK(says(r, "8 x 8 blocks exchanged"));
  CHECK(says(r, "rows 0-7 x columns 8-15 hold the values of rows 8-15 x columns 0-7"));
  CHECK(says(r, "ldmatrix"));
}

TEST_CASE("bf16: A's fragment registers paired wrongly are named in lesson 10's words",
          "[cpu][verify][diagnosis]") {
  VerifyReport r = first_failure_bf16(a_registers_swapped);
  REQUIRE_FALSE(r.passed);
  probe_bf16(r, a_registers_swapped, "10");
  INFO(r.describe());
  CHECK(r.cause_id == "fragments");
  CHECK(says(r, "ldmatrix register pairing"));
  CHECK(says(r, "register 1 holds rows 0-7, k 8-15 (it must hold rows 8-15, k 0-7)"));
  CHECK(says(r, "register 2 holds rows 8-15, k 0-7"));
  CHECK_FALSE(r.ambiguous());
}

TEST_CASE("bf16: rows 0-7 and 8-15 of the accumulators swapped are named",
          "[cpu][verify][diagnosis]") {
  VerifyReport r = first_failure_bf16(c_rows_swapped);
  REQUIRE_FALSE(r.passed);
  probe_bf16(r, c_rows_swapped, "10");
  INFO(r.describe());
  CHECK(says(r, "rows 0-7 and 8-15"));
  CHECK(says(r, "c_fragment_coord"));
}

TEST_CASE("a kernel that fails when run again is said, the verdict kept",
          "[cpu][verify][diagnosis]") {
  // Wrong (every element doubled) at 7 x 13 x 5; at the probes' shapes, a launch error.
  const course::GemmRun run = [](course::GemmJob& g) {
    if (g.s.M > 100) throw std::runtime_error("a launch error");
    for (long i = 0; i < g.s.M; ++i)
      for (long j = 0; j < g.s.N; ++j) {
        float acc = 0.0f;
        for (long k = 0; k < g.s.K; ++k) acc += g.a(i, k) * g.b(k, j);
        g.store(i, j, 2.0f * acc);
      }
  };
  const VerifyReport r = course::check_gemm_run(run, {7, 13, 5, 1.0f, 0.0f}, false);
  INFO(r.describe());
  CHECK_FALSE(r.passed);
  CHECK(says(r, "the probes could not run: a launch error"));
}

TEST_CASE("the diagnosis of a large sampled problem takes seconds", "[cpu][verify][diagnosis]") {
  // Nothing fits, so every detector runs to the end: the slowest case.
  const GemmShape s{2048, 2048, 2048, 1.0f, 0.0f};
  const auto A = course::random_matrix(s.M, s.K, 1), B = course::random_matrix(s.K, s.N, 2);
  const std::vector<float> C0;
  auto out = course::make_guarded_output(s, C0);
  const auto noise = course::random_matrix(s.M, s.N, 3);
  const std::size_t band = course::guard_band(s.M, s.N);
  for (std::size_t e = 0; e < noise.size(); ++e) out[band + e] = noise[e];
  const auto start = std::chrono::steady_clock::now();
  const VerifyReport r = course::verify_gemm(s, A, B, C0, out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(r.describe() << "took " << seconds << " s");
  CHECK_FALSE(r.passed);
  CHECK(r.sampled);
  CHECK(seconds < 30.0);
}
