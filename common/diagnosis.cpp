#include "common/diagnosis.hpp"

#include "common/bits.hpp"
#include "common/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace course {
namespace {

// ---- Jobs ------------------------------------------------------------------------------------

// What C holds before a probe where no element may stay as it was: a finite value no probe
// produces (the probes' products are never negative), so that 0 * it stays 0 for a kernel that
// reads C when beta == 0.
constexpr float kUnwritten = -100.0f;

// What C holds to see whether it is read when beta == 0: a signalling NaN (in FP32 and, its top
// half, in bf16); arithmetic on it gives a quiet NaN, other bits.
constexpr std::uint32_t kNaNInC = 0x7FA15EEDu;

// A flat index the probes could not read.
constexpr long kUnknown = ProbeReading::kUnknown;

using bf16_t = bf16;

float canary(bool bf16) {
  return bf16 ? float_of(static_cast<std::uint32_t>(kCanaryBf16) << 16) : float_of(kCanaryF32);
}

// Elements before and after A and B, so that an index past them reads a known code.
constexpr long kPad = 2048;

// A blank probe at shape s: A and B zero (with their pads), C filled with `fill`, canaries around.
GemmJob blank(const GemmShape& s, bool bf16, float fill) {
  GemmJob g;
  g.s = s;
  g.bf16 = bf16;
  g.b_n_by_k = bf16;
  g.a_at = g.b_at = kPad;
  g.A.assign(static_cast<std::size_t>(s.M) * s.K + 2 * kPad, 0.0f);
  g.B.assign(static_cast<std::size_t>(s.K) * s.N + 2 * kPad, 0.0f);
  const std::size_t band = guard_band(s.M, s.N), MN = static_cast<std::size_t>(s.M) * s.N;
  g.c_at = band;
  g.out.assign(MN + 2 * band, canary(bf16));
  std::fill(g.out.begin() + static_cast<long>(band), g.out.begin() + static_cast<long>(band + MN),
            fill);
  return g;
}
float& A_at(GemmJob& g, long i, long k) {
  return g.A[g.a_at + static_cast<std::size_t>(i * g.s.K + k)];
}
float& B_at(GemmJob& g, long k, long j) {
  const long y = g.b_n_by_k ? j * g.s.K + k : k * g.s.N + j;
  return g.B[g.b_at + static_cast<std::size_t>(y)];
}
float C_of(const GemmJob& g, std::size_t e) {
  return g.out[g.c_at + e];
}
long canaries_hit(const GemmJob& g) {
  const std::uint32_t c = bits_of(canary(g.bf16));
  const std::size_t MN = static_cast<std::size_t>(g.s.M) * g.s.N;
  long n = 0;
  for (std::size_t x = 0; x < g.out.size(); ++x)
    if ((x < g.c_at || x >= g.c_at + MN) && bits_of(g.out[x]) != c) ++n;
  return n;
}

// ---- Reading one shape -------------------------------------------------------------------------

// Is v a whole number in [0, limit)?
bool whole(double v, double limit) {
  return std::isfinite(v) && v >= 0 && v < limit && v == std::floor(v);
}

struct Prober {
  const GemmRun& run;
  bool bf16;
  long hits = 0;
  int launches = 0;

  void go(GemmJob& g) {
    run(g);
    ++launches;
    hits += canaries_hit(g);
  }

  // Term counts: windows of k, A ones there, B row k weighted 3^m. Fills r.count and r.unwritten.
  void counts(ProbeReading& r) {
    const GemmShape& s = r.s;
    const int W = bf16 ? 5 : 15;  // 2 * (3^W - 1) / 2 must stay exact: 242 in bf16, 2^24 in FP32
    const std::size_t MN = static_cast<std::size_t>(s.M) * s.N;
    r.count.assign(MN * s.K, -1);
    r.unwritten.assign(MN, 1);
    for (int k0 = 0; k0 < s.K; k0 += W) {
      const int k1 = std::min(s.K, k0 + W);
      GemmJob g = blank(r.s, bf16, kUnwritten);
      g.s.alpha = 1.0f, g.s.beta = 0.0f;
      // A all ones: the counts say which rows of B are summed, whatever A's indices do (the
      // code probes below read those).
      for (int i = 0; i < s.M; ++i)
        for (int k = 0; k < s.K; ++k) A_at(g, i, k) = 1.0f;
      double weight = 1;
      for (int k = k0; k < k1; ++k, weight *= 3)
        for (int j = 0; j < s.N; ++j) B_at(g, k, j) = static_cast<float>(weight);
      go(g);
      for (std::size_t e = 0; e < MN; ++e) {
        double v = C_of(g, e);
        if (v != kUnwritten) r.unwritten[e] = 0;
        if (!whole(v, weight)) continue;
        for (int k = k0; k < k1; ++k) {
          r.count[e * s.K + k] = static_cast<signed char>(std::fmod(v, 3.0));
          v = std::floor(v / 3.0);
        }
      }
    }
  }

  // A job with A and B all ones, C filled with `fill`.
  GemmJob all_ones(const GemmShape& s, float alpha, float beta, float fill) {
    GemmJob g = blank(s, bf16, fill);
    g.s.alpha = alpha, g.s.beta = beta;
    for (int i = 0; i < s.M; ++i)
      for (int k = 0; k < s.K; ++k) A_at(g, i, k) = 1.0f;
    for (int k = 0; k < s.K; ++k)
      for (int j = 0; j < s.N; ++j) B_at(g, k, j) = 1.0f;
    return g;
  }

  // All ones, C filled with `fill`: got / K when every element holds the same, else NaN.
  double ones(const GemmShape& s, float alpha, float beta, float fill) {
    GemmJob g = all_ones(s, alpha, beta, fill);
    go(g);
    const double first = C_of(g, 0);
    for (std::size_t e = 0; e < static_cast<std::size_t>(s.M) * s.N; ++e)
      if (C_of(g, e) != first) return NAN;
    return first / s.K;
  }

  // Is the operand read right, whatever the other does? It holds small codes (exact in bf16 when
  // summed over K <= 51), the other operand all ones: each element of C is the sum of the codes of
  // one row of A (one column of B).
  bool sums_right(const GemmShape& s, bool of_a) {
    if (bf16 && s.K > 51) return false;
    GemmJob g = blank(s, bf16, kUnwritten);
    g.s.alpha = 1.0f, g.s.beta = 0.0f;
    auto code = [](long r, long k) {  // 1 .. 5, irregular in r and in k
      const std::uint32_t h =
          static_cast<std::uint32_t>(r * 73856093L ^ k * 19349663L) * 2654435761u;
      return static_cast<float>(1 + (h >> 16) % 5);
    };
    for (int i = 0; i < s.M; ++i)
      for (int k = 0; k < s.K; ++k) A_at(g, i, k) = of_a ? code(i, k) : 1.0f;
    for (int k = 0; k < s.K; ++k)
      for (int j = 0; j < s.N; ++j) B_at(g, k, j) = of_a ? 1.0f : code(j, k);
    go(g);
    long wrong = 0;  // an edge may read past the matrix through the other operand's mistake
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        double want = 0;
        for (int k = 0; k < s.K; ++k) want += code(of_a ? i : j, k);
        wrong += C_of(g, static_cast<std::size_t>(i) * s.N + j) != want;
      }
    return wrong * 10 < static_cast<long>(s.M) * s.N;
  }

  // Which flat index of A (of B) each element read for the term k0: every element holds its own
  // index (in base-128 digits for bf16, three probes), the other operand is one on k0 only.
  std::vector<long> codes(const GemmShape& s, bool of_a, int k0) {
    const std::size_t MN = static_cast<std::size_t>(s.M) * s.N;
    std::vector<long> index(MN, 0);
    std::vector<char> ok(MN, 1);
    const int digits = bf16 ? 3 : 1;
    for (int d = 0; d < digits; ++d) {
      GemmJob g = blank(s, bf16, kUnwritten);
      g.s.alpha = 1.0f, g.s.beta = 0.0f;
      std::vector<float>& coded = of_a ? g.A : g.B;
      for (std::size_t x = 0; x < coded.size(); ++x)
        coded[x] = static_cast<float>(bf16 ? ((x >> (7 * d)) & 127) + 1 : x + 1);
      if (of_a) {
        for (int j = 0; j < s.N; ++j) B_at(g, k0, j) = 1.0f;
      } else {
        for (int i = 0; i < s.M; ++i) A_at(g, i, k0) = 1.0f;
      }
      go(g);
      const double limit = bf16 ? 129 : 1 << 24;
      for (std::size_t e = 0; e < MN; ++e) {
        const double v = C_of(g, e);
        if (!whole(v, limit) || v < 1) {
          ok[e] = 0;
          continue;
        }
        index[e] += static_cast<long>(v - 1) << (7 * d);
      }
    }
    for (std::size_t e = 0; e < MN; ++e) index[e] = ok[e] ? index[e] - kPad : kUnknown;
    return index;
  }
};

// The k whose term is counted once (`once`; else not once) at the most elements, nearest the
// middle; K / 2 when none is at most elements.
int good_k(const ProbeReading& r, bool once = true) {
  const std::size_t MN = static_cast<std::size_t>(r.s.M) * r.s.N;
  int best = -1;
  long best_n = 0;
  for (int d = 0; d < r.s.K; ++d) {
    const int k = (r.s.K / 2 + (d % 2 ? -(d + 1) / 2 : d / 2) + r.s.K) % r.s.K;
    long n = 0;
    for (std::size_t e = 0; e < MN; ++e) n += (r.count[e * r.s.K + k] == 1) == once;
    if (n > best_n) best = k, best_n = n;
  }
  return best_n * 2 > static_cast<long>(MN) ? best : r.s.K / 2;
}

// The code probes at k0, decoded: per element the row and k of A and the k and column of B its
// term k0 read (-1 when unknown); the flat indices too, when asked for.
ProbeReading::AtK decode(Prober& p, const ProbeReading& r, int k0, std::vector<long>* a_index,
                         std::vector<long>* b_index) {
  const GemmShape& shape = r.s;
  const int K = shape.K;
  const std::size_t MN = static_cast<std::size_t>(shape.M) * shape.N;
  ProbeReading::AtK at;
  at.k = k0;
  at.a_row.assign(MN, -1), at.a_k.assign(MN, -1), at.b_row_k.assign(MN, -1),
      at.b_col.assign(MN, -1);
  const std::vector<long> xa = p.codes(shape, true, k0), yb = p.codes(shape, false, k0);
  for (std::size_t e = 0; e < MN; ++e) {
    // The A code is read through B's row k0: only where that row is summed once.
    const long x = r.count[e * K + k0] == 1 ? xa[e] : kUnknown, y = yb[e];
    if (a_index) (*a_index)[e] = x;
    if (b_index) (*b_index)[e] = y;
    if (x != kUnknown) {
      at.a_row[e] = static_cast<int>(x >= 0 ? x / K : -1 - (-1 - x) / K);
      at.a_k[e] = static_cast<int>(x - static_cast<long>(at.a_row[e]) * K);
    }
    if (y != kUnknown) {
      const long lead = p.bf16 ? K : shape.N;
      const long major = y >= 0 ? y / lead : -1 - (-1 - y) / lead, minor = y - major * lead;
      at.b_col[e] = static_cast<int>(p.bf16 ? major : minor);
      at.b_row_k[e] = static_cast<int>(p.bf16 ? minor : major);
    }
  }
  return at;
}

ProbeReading read_shape(Prober& p, const GemmShape& shape, bool with_codes) {
  ProbeReading r;
  r.s = shape;
  const long hits_before = p.hits;
  p.counts(r);
  const std::size_t MN = static_cast<std::size_t>(shape.M) * shape.N;
  const int K = shape.K;
  r.a_row.assign(MN, -1), r.a_k.assign(MN, -1), r.b_row_k.assign(MN, -1), r.b_col.assign(MN, -1);
  r.a_index.assign(MN, kUnknown), r.b_index.assign(MN, kUnknown);
  r.b_n_by_k = p.bf16;
  r.wrong.assign(MN, 0);
  for (std::size_t e = 0; e < MN; ++e) {
    if (r.unwritten[e]) r.wrong[e] = 1;
    for (int k = 0; k < K; ++k)
      if (r.count[e * K + k] != 1) r.wrong[e] = 1;
  }
  int k0 = with_codes ? good_k(r) : -1;
  if (k0 >= 0) {
    r.a_sums_right = p.sums_right(shape, true);
    r.b_sums_right = p.sums_right(shape, false);
    // B alone read wrong: its code probe (through A, read right) is clearest at a k whose row of
    // B is not summed once.
    if (r.a_sums_right && !r.b_sums_right) k0 = good_k(r, false);
    ProbeReading::AtK at = decode(p, r, k0, &r.a_index, &r.b_index);
    r.a_row = std::move(at.a_row), r.a_k = std::move(at.a_k);
    r.b_row_k = std::move(at.b_row_k), r.b_col = std::move(at.b_col);
    for (int i = 0; i < shape.M; ++i)
      for (int j = 0; j < shape.N; ++j) {
        const std::size_t e = r.at(i, j);
        if (r.a_row[e] != i || r.a_k[e] != k0 || r.b_col[e] != j || r.b_row_k[e] != k0)
          r.wrong[e] = 1;
      }
    r.k0 = k0;
    if ((k0 ^ 8) < K) r.other_k.push_back(decode(p, r, k0 ^ 8, nullptr, nullptr));
  }
  r.canaries_hit = p.hits - hits_before;
  return r;
}

// Fits got = x * P + y * C over the elements where both are known (least squares, 2 x 2).
void fit(const std::vector<double>& got, const std::vector<double>& P, const std::vector<double>& C,
         double& x, double& y) {
  double pp = 0, pc = 0, cc = 0, gp = 0, gc = 0;
  for (std::size_t e = 0; e < got.size(); ++e) {
    if (!std::isfinite(got[e])) continue;
    pp += P[e] * P[e], pc += P[e] * C[e], cc += C[e] * C[e];
    gp += got[e] * P[e], gc += got[e] * C[e];
  }
  const double det = pp * cc - pc * pc;
  if (std::fabs(det) < 1e-9) {
    x = pp > 0 ? gp / pp : NAN;
    y = NAN;
    return;
  }
  x = (gp * cc - gc * pc) / det;
  y = (pp * gc - pc * gp) / det;
}

void scalars(Prober& p, const ProbeReading& r, ProbeFindings& f) {
  // C read when beta == 0: A and B all ones, C NaN (0 * NaN is NaN), then C small codes (added
  // as they are: beta ignored).
  {
    const std::size_t MN = static_cast<std::size_t>(r.s.M) * r.s.N;
    GemmJob nan = p.all_ones(r.s, 1.0f, 0.0f, float_of(kNaNInC));
    p.go(nan);
    GemmJob coded = p.all_ones(r.s, 1.0f, 0.0f, 0.0f);
    for (std::size_t e = 0; e < MN; ++e) coded.out[coded.c_at + e] = static_cast<float>(1 + e % 7);
    p.go(coded);
    bool added = true;
    for (std::size_t e = 0; e < MN; ++e) {
      const float v = C_of(nan, e);  // the NaN left as it was: never written, not read
      const std::uint32_t kept = p.bf16 ? 0xFFFF0000u : 0xFFFFFFFFu;  // bf16: the top half
      if (std::isnan(v) && (bits_of(v) & kept) != (kNaNInC & kept)) f.reads_c_when_beta0 = true;
      added = added && C_of(coded, e) == r.s.K + 1.0 + static_cast<double>(e % 7);
    }
    f.c_added_when_beta0 = added && (!p.bf16 || r.s.K + 8 <= 256);
  }
  // All ones: how A*B comes out with alpha = 1 (its scale), and with alpha = 0, beta = 2 and C
  // zero (2: beta * A*B, alpha and beta swapped; 1: alpha ignored). Exact for K <= 128 in bf16.
  if (!p.bf16 || r.s.K <= 128) {
    f.ones_scale = p.ones(r.s, 1.0f, 0.0f, kUnwritten);
    f.ones_swapped = p.ones(r.s, 0.0f, 2.0f, 0.0f);
  }
  const int k0 = r.k0;
  const GemmShape& s = r.s;
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N;
  auto job = [&](float alpha, float beta, float fill, bool coded_c) {
    GemmJob g = blank(s, p.bf16, fill);
    g.s.alpha = alpha, g.s.beta = beta;
    if (k0 >= 0) {
      for (int i = 0; i < s.M; ++i) A_at(g, i, k0) = 1.0f;
      for (int j = 0; j < s.N; ++j) B_at(g, k0, j) = static_cast<float>(1 + j % 3);
    }
    if (coded_c)
      for (std::size_t e = 0; e < MN; ++e) g.out[g.c_at + e] = static_cast<float>(1 + e % 7);
    return g;
  };
  // Only the elements whose term k0 lands right tell the scalars.
  std::vector<std::size_t> right;
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j)
      if (k0 >= 0 && r.a_row[r.at(i, j)] == i && r.b_col[r.at(i, j)] == j)
        right.push_back(r.at(i, j));
  auto measure = [&](float alpha, float beta, double& x, double& y) {
    GemmJob g = job(alpha, beta, kUnwritten, true);
    const GemmJob input = g;
    p.go(g);
    std::vector<double> got, P, C;
    for (std::size_t e : right) {
      got.push_back(C_of(g, e));
      P.push_back(1 + static_cast<double>(e % s.N % 3));
      C.push_back(C_of(input, e));
    }
    fit(got, P, C, x, y);
  };
  double unused = 0;
  f.x20 = f.x01 = f.y01 = f.x23 = f.y23 = NAN;
  if (right.size() < 8) return;
  measure(2.0f, 0.0f, f.x20, unused);
  measure(0.0f, 1.0f, f.x01, f.y01);
  measure(2.0f, 3.0f, f.x23, f.y23);
}

// The explainers the lessons registered.
std::vector<std::pair<std::string, Explainer>>& explainers() {
  static std::vector<std::pair<std::string, Explainer>> list;
  return list;
}

// The shapes the probes run at, in sets: the first set the kernel accepts. Main: interior and
// edge tiles up to 256 wide; second: the edges moved; third: K above several k-tiles, K > M, N.
std::vector<std::vector<GemmShape>> probe_sets() {
  return {{{197, 283, 40}, {149, 333, 24}, {23, 37, 88}},
          {{256, 256, 64}, {384, 512, 32}, {128, 128, 192}}};
}

std::string tag(const char* what, const GemmShape& s) {
  return std::string(what) + " " + s.str();
}

// The result's own models that account for every element of it (common/result_causes.cpp): when one
// names the cause on a shape that tells it from the others, the probes have nothing to add.
bool complete_model(const VerifyReport& r) {
  static const char* const kModels[] = {"wrong_leading_dimension_of_c",
                                        "out_of_bounds_write",
                                        "reads_c_when_beta_is_zero",
                                        "swapped_roles",
                                        "grid_too_small",
                                        "wrong_leading_dimension_of_a_or_b",
                                        "transposed"};
  if (r.ambiguous() || !r.cause_is_model) return false;
  for (const char* m : kModels)
    if (r.cause_id == m) return true;
  return false;
}

}  // namespace

bool register_explainer(const std::string& lesson, Explainer explainer) {
  explainers().emplace_back(lesson, std::move(explainer));
  return true;
}

namespace {
VerifyReport check_random(const GemmRun& run, const GemmShape& s, bool bf16,
                          const VerifyOptions& options);
}  // namespace

void diagnose(const GemmRun& run, bool bf16, VerifyReport& report, const std::string& lesson) {
  if (complete_model(report)) return;
  ProbeFindings f;
  Prober p{run, bf16};
  for (const std::vector<GemmShape>& set : probe_sets()) {
    try {
      f.readings.clear();
      for (std::size_t n = 0; n < set.size(); ++n)
        f.readings.push_back(read_shape(p, set[n], n != 1));
      scalars(p, f.readings.front(), f);
      break;
    } catch (const std::invalid_argument&) {
      f.readings.clear();
      continue;  // a precondition of the kernel: stricter shapes
    } catch (const std::exception& e) {
      report.cause += "\n    (the probes could not run: " + std::string(e.what()) + ")";
      return;
    }
  }
  if (f.readings.empty()) return;
  // What the result alone shows at the main probe shape, where a complete model of it may tell
  // what the failing shape could not (a band never written: swapped roles or a grid too small).
  auto result_model = [&] {
    GemmShape s = f.readings.front().s;
    s.alpha = 1.25f, s.beta = -0.5f;
    const VerifyReport at = check_random(run, s, bf16, {});
    if (at.passed || !complete_model(at)) return false;
    report.cause = at.cause, report.cause_id = at.cause_id, report.candidates.clear();
    report.cause_is_model = true;
    return true;
  };
  if (f.readings.front().canaries_hit > 0) {  // writes outside C: the result's models say it
    result_model();
    return;
  }
  const std::string generic = course_wide_cause(f);
  std::string cause;
  for (const auto& e : explainers()) {
    if (!lesson.empty() && e.first != lesson) continue;
    cause = e.second(f, generic);
    if (!cause.empty()) break;
  }
  if (cause.empty()) cause = generic;
  if (cause.empty()) {
    if (report.ambiguous() || !report.cause_is_model) result_model();
    return;
  }
  report.cause = cause + ".";
  report.cause_id = "probe";
  report.candidates.clear();
}

namespace {

// The kernel once on fresh random inputs, checked: the report the result alone gives.
VerifyReport check_random(const GemmRun& run, const GemmShape& s, bool bf16,
                          const VerifyOptions& options) {
  GemmJob g;
  g.s = s;
  g.bf16 = g.b_n_by_k = bf16;
  auto draw = [&](const char* what, int rows, int cols) {
    if (!bf16) return random_matrix<float>(rows, cols, derive_seed(tag(what, s)));
    const auto h = random_matrix<bf16_t>(rows, cols, derive_seed(tag(what, s)));
    std::vector<float> v(h.size());
    for (std::size_t x = 0; x < h.size(); ++x) v[x] = __bfloat162float(h[x]);
    return v;
  };
  g.A = draw("A", s.M, s.K);
  g.B = bf16 ? draw("B", s.N, s.K) : draw("B", s.K, s.N);
  const std::vector<float> C0 = draw("C", s.M, s.N);
  g.c_at = guard_band(s.M, s.N);
  VerifyReport r;
  if (!bf16) {
    g.out = make_guarded_output(s, C0);
    run(g);
    r = verify_gemm(s, g.A, g.B, C0, g.out, options);
  } else {
    std::vector<bf16_t> A(g.A.size()), B(g.B.size()), C(C0.size());
    for (std::size_t x = 0; x < A.size(); ++x) A[x] = __float2bfloat16(g.A[x]);
    for (std::size_t x = 0; x < B.size(); ++x) B[x] = __float2bfloat16(g.B[x]);
    for (std::size_t x = 0; x < C.size(); ++x) C[x] = __float2bfloat16(C0[x]);
    const std::vector<bf16_t> guarded = make_guarded_output(s, C);
    g.out.resize(guarded.size());
    for (std::size_t x = 0; x < guarded.size(); ++x) g.out[x] = widen(guarded[x]);
    run(g);
    std::vector<bf16_t> out(g.out.size());
    for (std::size_t x = 0; x < out.size(); ++x) out[x] = narrow(g.out[x]);
    r = verify_gemm(s, A, B, C, out, options);
  }
  return r;
}

}  // namespace

VerifyReport check_gemm_run(const GemmRun& run, const GemmShape& s, bool bf16,
                            const VerifyOptions& options, const void* kernel) {
  VerifyReport r = check_random(run, s, bf16, options);
  if (r.passed) return r;
  // What the probes named for this kernel earlier in this program.
  static std::map<std::pair<const void*, std::string>, std::pair<std::string, std::string>> named;
  const auto key = std::make_pair(kernel, options.lesson);
  if (kernel != nullptr && !complete_model(r)) {
    if (const auto it = named.find(key); it != named.end()) {
      r.cause = it->second.first, r.cause_id = it->second.second, r.candidates.clear();
      return r;
    }
  }
  diagnose(run, bf16, r, options.lesson);
  if (kernel != nullptr && r.cause_id == "probe") named[key] = {r.cause, r.cause_id};
  return r;
}

}  // namespace course
