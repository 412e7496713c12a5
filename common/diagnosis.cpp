#include "common/diagnosis.hpp"

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

float float_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// What C holds before a probe where no element may stay as it was: a finite value no probe
// produces (the probes' products are never negative), so that 0 * it stays 0 for a kernel that
// reads C when beta == 0.
constexpr float kUnwritten = -100.0f;

// A flat index the probes could not read.
constexpr long kUnknown = ProbeReading::kUnknown;

using bf16_t = bf16;
// bf16 is the top half of a float: both ways are exact for the values the probes use, and keep
// the canaries' and the poison's NaN payloads.
float widen_bits(bf16_t h) {
  std::uint16_t u;
  std::memcpy(&u, &h, sizeof u);
  return float_bits(static_cast<std::uint32_t>(u) << 16);
}
bf16_t narrow_bits(float f) {
  const std::uint16_t u = static_cast<std::uint16_t>(bits(f) >> 16);
  bf16_t h;
  std::memcpy(static_cast<void*>(&h), &u, sizeof h);
  return h;
}

float canary(bool bf16) {
  return bf16 ? float_bits(static_cast<std::uint32_t>(kCanaryBf16) << 16) : float_bits(kCanaryF32);
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
  const std::uint32_t c = bits(canary(g.bf16));
  const std::size_t MN = static_cast<std::size_t>(g.s.M) * g.s.N;
  long n = 0;
  for (std::size_t x = 0; x < g.out.size(); ++x)
    if ((x < g.c_at || x >= g.c_at + MN) && bits(g.out[x]) != c) ++n;
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

  // A and B all ones, C filled with `fill`: got / K when every element holds the same, else NaN.
  double ones(const GemmShape& s, float alpha, float beta, float fill) {
    GemmJob g = blank(s, bf16, fill);
    g.s.alpha = alpha, g.s.beta = beta;
    for (int i = 0; i < s.M; ++i)
      for (int k = 0; k < s.K; ++k) A_at(g, i, k) = 1.0f;
    for (int k = 0; k < s.K; ++k)
      for (int j = 0; j < s.N; ++j) B_at(g, k, j) = 1.0f;
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
  GemmJob nan = job(1.0f, 0.0f, float_bits(kPoisonF32), false);
  p.go(nan);
  for (std::size_t e : right)
    if (std::isnan(C_of(nan, e))) f.reads_c_when_beta0 = true;
}

// ---- Words -------------------------------------------------------------------------------------

std::string range(long a, long b) {  // "16..31", or "16" when a == b
  return a == b ? std::to_string(a) : std::to_string(a) + ".." + std::to_string(b);
}

// A set of indices below n, in words: runs, or a run repeated with a period ("16..31 of every 64").
std::string set_words(const std::vector<char>& in, long n) {
  std::vector<std::pair<long, long>> runs;
  for (long x = 0; x < n; ++x) {
    if (!in[x]) continue;
    if (!runs.empty() && runs.back().second == x - 1) {
      runs.back().second = x;
    } else {
      runs.push_back({x, x});
    }
  }
  if (runs.empty()) return "none";
  for (long P : {2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L}) {
    if (P * 2 > n) break;
    bool periodic = true;
    for (long x = 0; x < n && periodic; ++x) periodic = in[x] == in[x % P];
    if (!periodic) continue;
    std::vector<std::string> parts;
    for (long x = 0; x < P; ++x) {
      if (!in[x] || (x > 0 && in[x - 1])) continue;
      long y = x;
      while (y + 1 < P && in[y + 1]) ++y;
      parts.push_back(range(x, y));
    }
    if (parts.size() > 3) continue;
    std::string s, listed;
    for (std::size_t q = 0; q < parts.size(); ++q) s += (q ? ", " : "") + parts[q];
    for (std::size_t q = 0; q < 3 && q < runs.size(); ++q)
      listed += (q ? ", " : "") + range(runs[q].first, runs[q].second);
    return listed + ", ... (" + s + " of every " + std::to_string(P) + ")";
  }
  std::string s;
  for (std::size_t q = 0; q < runs.size() && q < 4; ++q)
    s += (q ? ", " : "") + range(runs[q].first, runs[q].second);
  if (runs.size() > 4) s += ", ...";
  return s;
}

// The k-terms of one element: which are lost and which are summed twice or more.
struct KTerms {
  std::vector<char> lost, extra;
  bool any = false;
};
KTerms k_terms(const ProbeReading& r, std::size_t e) {
  const int K = r.s.K;
  KTerms t{std::vector<char>(K, 0), std::vector<char>(K, 0)};
  for (int k = 0; k < K; ++k) {
    const int c = r.count[e * K + k];
    if (c == 0) t.lost[k] = 1, t.any = true;
    if (c >= 2) t.extra[k] = 1, t.any = true;
  }
  return t;
}

// What is wrong along K, in words, with the fix.
std::string k_words(const KTerms& t, const GemmShape& s, bool all_elements) {
  const int K = s.K;
  const long lost = std::count(t.lost.begin(), t.lost.end(), 1);
  const long extra = std::count(t.extra.begin(), t.extra.end(), 1);
  const std::string where = all_elements ? "" : " in some elements of C";
  const std::string at_k = " (K = " + std::to_string(K) + ")";
  std::ostringstream o;
  if (lost == K && extra == 0)
    return "no term along K is summed" + where + at_k +
           " -> the loop over k never runs, or what it sums is not what is stored";
  if (extra == K && lost == 0)
    return "every term along K is summed twice or more" + where +
           " -> the loop over k (or over k-tiles) runs twice, or acc is added twice";
  auto first_of = [](const std::vector<char>& v) {
    return static_cast<int>(std::find(v.begin(), v.end(), 1) - v.begin());
  };
  auto from_on = [](const std::vector<char>& v, int a) {  // exactly [a, end)
    for (int k = 0; k < static_cast<int>(v.size()); ++k)
      if (static_cast<bool>(v[k]) != (k >= a)) return false;
    return true;
  };
  auto up_to = [](const std::vector<char>& v, int b) {  // exactly [0, b)
    for (int k = 0; k < static_cast<int>(v.size()); ++k)
      if (static_cast<bool>(v[k]) != (k < b)) return false;
    return true;
  };
  const int a = first_of(t.lost);
  const bool tail = lost > 0 && from_on(t.lost, a);
  int head_end = 0;
  while (head_end < K && t.lost[head_end]) ++head_end;
  const bool head = lost > 0 && up_to(t.lost, head_end);
  int extra_end = 0;
  while (extra_end < K && t.extra[extra_end]) ++extra_end;
  if (tail && extra > 0 && up_to(t.extra, extra_end)) {
    o << "k = " << range(0, extra_end - 1) << " are summed twice and k = " << range(a, K - 1)
      << " never" << where << at_k
      << " -> each k-tile is computed with the data of the tile before it: the load of the next "
         "tile (or the stage index) lags one tile behind";
    return o.str();
  }
  if (lost > 0) {
    if (lost == 1)
      o << "the term k = " << a << " is never summed" << where << at_k;
    else
      o << "the terms k = " << set_words(t.lost, K) << " are never summed" << where << at_k;
    if (tail && (a == s.M || a == s.N) && a != K) {
      o << " -> k stops at " << (a == s.M ? "M" : "N") << " = " << a
        << ": a bound on k (a load guard such as load_or_zero's) uses " << (a == s.M ? "M" : "N")
        << " where K belongs";
    } else if (tail && a == K - 1) {
      o.str("");
      o << "the last term, k = K - 1 = " << K - 1 << ", is never summed" << where
        << " -> the loop over k stops one short: it must run while k < K";
    } else if (tail) {
      o << " -> the last " << (K - a) << " k are skipped: the loop over k-tiles must run "
        << "(K + BK - 1) / BK times, the last one partial, with zeros past K (or each k-tile is "
           "computed with the data of the one before: a stage index one behind)";
    } else if (head) {
      o << " -> the loop over k (or over k-tiles) must start at 0 (or each k-tile is computed "
           "with the data of the one after: a stage index one ahead)";
    } else {
      o << " -> a loop over k (inside a k-tile, or its step) skips them: every k from 0 to "
           "K - 1 must be summed once";
    }
    if (extra > 0) o << "; and k = " << set_words(t.extra, K) << " are summed twice or more";
    return o.str();
  }
  o << "the terms k = " << set_words(t.extra, K) << " are summed twice or more" << where << at_k
    << " -> a k-tile is summed again: check where the loop over k-tiles advances";
  return o.str();
}

// A row (or column) map src[x] (-1 unknown) against the identity, in words.
std::string map_words(const std::vector<int>& src, long n, const char* what) {
  // A permutation within every group of P (P <= 8): list it.
  for (long P : {2L, 4L, 8L}) {
    bool fits = true, any = false;
    for (long x = 0; x + P <= n && fits; ++x) {
      if (src[x] < 0) continue;
      fits = src[x] / P == x / P && src[x] % P == src[x % P] % P;
      any = any || src[x] != x;
    }
    if (!fits || !any || src[0] < 0) continue;
    std::ostringstream o;
    o << "in every " << P << " " << what << "s the values are in the wrong order (";
    for (long x = 0, shown = 0; x < P; ++x)
      if (src[x] != x) o << (shown++ ? ", " : "") << what << " " << x << " holds " << src[x];
    o << ")";
    return o.str();
  }
  std::vector<char> moved(n, 0);
  long d = 0;
  bool one_shift = true, first = true;
  for (long x = 0; x < n; ++x) {
    if (src[x] < 0 || src[x] == x) continue;
    moved[x] = 1;
    if (first) d = src[x] - x, first = false;
    if (src[x] - x != d) one_shift = false;
  }
  std::ostringstream o;
  o << what << "s " << set_words(moved, n);
  if (one_shift) {
    o << " hold the values of " << what << " " << (d < 0 ? "- " : "+ ") << std::labs(d) << " (";
    o << what << " " << std::find(moved.begin(), moved.end(), 1) - moved.begin() << " holds "
      << what << " " << (std::find(moved.begin(), moved.end(), 1) - moved.begin()) + d << ")";
  } else {
    const long x = std::find(moved.begin(), moved.end(), 1) - moved.begin();
    o << " hold the values of other " << what << "s (" << what << " " << x << " holds " << what
      << " " << src[x];
    for (long y = x + 1, shown = 1; y < n && shown < 3; ++y)
      if (moved[y]) o << ", " << y << " holds " << src[y], ++shown;
    o << ")";
  }
  return o.str();
}

// The first element whose product used the wrong row of A (`of_a`) or column of B, as an
// example: where the row (column) depends on more than the row (column) of C.
std::string example_words(const ProbeReading& r, bool of_a) {
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      const int got = of_a ? r.a_row[e] : r.b_col[e], want = of_a ? i : j;
      if (got < 0 || got == want) continue;
      std::ostringstream o;
      o << "C(" << i << ", " << j << ") multiplies " << (of_a ? "A row " : "B column ") << got
        << " (it must be " << (of_a ? "row " : "column ") << want << "), and the "
        << (of_a ? "row of A" : "column of B") << " depends on the " << (of_a ? "column" : "row")
        << " of C too -> check which thread loads (or shuffles) " << (of_a ? "A" : "B")
        << " for which element of C";
      return o.str();
    }
  return "";
}

// The first element whose term k0 read A (`of_a`) or B elsewhere than it belongs, as an example.
std::string read_example(const ProbeReading& r, int k0, bool of_a) {
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if ((of_a ? r.a_index[e] : r.b_index[e]) == kUnknown) continue;
      const int row = of_a ? r.a_row[e] : r.b_row_k[e], col = of_a ? r.a_k[e] : r.b_col[e];
      const int want_row = of_a ? i : k0, want_col = of_a ? k0 : j;
      if (row == want_row && col == want_col) continue;
      std::ostringstream o;
      o << "for C(" << i << ", " << j << ") the term k = " << k0 << " reads "
        << (of_a ? "A(" : "B(") << row << ", " << col << ") where " << (of_a ? "A(" : "B(")
        << want_row << ", " << want_col << ") belongs -> check the indices where "
        << (of_a ? "A" : "B")
        << " is loaded into shared memory or registers, and where it is read back";
      return o.str();
    }
  return "";
}

// Does the ragged edge of tiles of T (the rows and columns past the last whole tile) hold every
// wrong element, with a whole tile's interior to compare it with?
bool on_edge(const ProbeReading& r, int T) {
  const int rm = r.s.M / T * T, cn = r.s.N / T * T;
  if (rm == 0 || cn == 0 || (rm == r.s.M && cn == r.s.N)) return false;
  bool any = false;
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j)
      if (r.wrong[r.at(i, j)]) {
        if (i < rm && j < cn) return false;
        any = true;
      }
  return any;
}

// The smallest tile size T (8 .. 256) whose ragged edge holds every wrong element at both
// shapes (the edge moves between them), or 0.
int edge_tile(const ProbeReading& r, const ProbeReading& moved) {
  for (int T : {8, 16, 32, 64, 128, 256})
    if (on_edge(r, T) && on_edge(moved, T)) return T;
  return 0;
}

std::string edge_words(const ProbeReading& r, int T) {
  const int rm = r.s.M / T * T, cn = r.s.N / T * T;
  bool last_row = true, last_col = true, unw = true, rows = false, cols = false;
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if (!r.wrong[e]) continue;
      if (i != r.s.M - 1) last_row = false;
      if (j != r.s.N - 1) last_col = false;
      if (!r.unwritten[e]) unw = false;
      if (i >= rm) rows = true;
      if (j >= cn) cols = true;
    }
  std::ostringstream o;
  if (last_col && unw) {
    o << "column N - 1 is never written, at two shapes -> the guard drops the last column: "
         "it must be col < N (or return when col >= N)";
    return o.str();
  }
  if (last_row && unw) {
    o << "row M - 1 is never written, at two shapes -> the guard drops the last row: it must "
         "be row < M (or return when row >= M)";
    return o.str();
  }
  o << "only the ragged edge is wrong, at two shapes (";
  if (rows) o << "rows >= " << rm << (cols ? ", " : "");
  if (cols) o << "columns >= " << cn;
  o << ": past the last whole " << T << "-wide tile; the interior is right)"
    << (unw ? ", never written" : "")
    << " -> a bounds guard where a tile runs past M or N: loads past the edge must give 0, "
       "stores only inside C";
  return o.str();
}

// How one operand was read for the term k0, over the elements whose read the codes tell.
struct Reads {
  long known = 0, wrong = 0;  // elements whose read is known; of those, in the wrong place
  long inside = 0;            // elements whose read is known and inside the operand
  bool k_off = false;         // some read its k elsewhere than k0
  bool by_index = true;       // the row (column) read depends only on the row (column) of C
  std::vector<int> src;       // per row of C (of A) or column of C (of B): the one read, -1
};

Reads reads_of(const ProbeReading& r, int k0, bool of_a) {
  Reads d;
  const int n = of_a ? r.s.M : r.s.N;
  d.src.assign(n, -2);
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if ((of_a ? r.a_index[e] : r.b_index[e]) == kUnknown) continue;
      const int got = of_a ? r.a_row[e] : r.b_col[e], want = of_a ? i : j;
      const int k = of_a ? r.a_k[e] : r.b_row_k[e];
      ++d.known;
      const long x = of_a ? r.a_index[e] : r.b_index[e];
      if (x >= 0 && x < static_cast<long>(r.s.K) * (of_a ? r.s.M : r.s.N)) ++d.inside;
      if (got != want || k != k0) ++d.wrong;
      if (k != k0) d.k_off = true;
      int& s = d.src[of_a ? i : j];
      if (s == -2)
        s = got;
      else if (s != got)
        d.by_index = false;
    }
  for (int& s : d.src) s = s == -2 ? -1 : s;
  return d;
}

std::string stride_name(const GemmShape& s, long v) {
  if (v == s.K) return "K";
  if (v == s.N) return "N";
  if (v == s.M) return "M";
  return std::to_string(v);
}

// Does every known read of the operand follow `index(i, j)` (its flat index)?
template <class F>
bool follows(const ProbeReading& r, bool of_a, F index) {
  long n = 0;
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const long x = of_a ? r.a_index[r.at(i, j)] : r.b_index[r.at(i, j)];
      if (x == kUnknown) continue;
      if (x != index(i, j)) return false;
      ++n;
    }
  return n > 0;
}

// A read in another layout or with another row stride, in words; "" when the reads follow none.
std::string layout_words(const ProbeReading& r, int k0, bool of_a) {
  const GemmShape& s = r.s;
  const long M = s.M, N = s.N, K = s.K;
  if (of_a) {
    if (follows(r, true, [&](int i, int) { return k0 * M + i; }))
      return "A is read transposed, as A[k * M + row] -> A is M x K, row-major: A[row * K + k]";
    const std::size_t e1 = r.at(std::min(s.M - 1, 5), 0);
    if (r.a_index[r.at(0, 0)] == k0 && r.a_index[e1] != kUnknown && s.M > 1) {
      const long i1 = std::min(s.M - 1, 5), st = (r.a_index[e1] - k0) / i1;
      if (st != K && follows(r, true, [&](int i, int) { return i * st + k0; }))
        return "A is read with a row stride of " + stride_name(s, st) + ", as A[row * " +
               stride_name(s, st) + " + k] -> A is M x K: A[row * K + k]";
    }
    return "";
  }
  if (!r.b_n_by_k && follows(r, false, [&](int, int j) { return j * K + k0; }))
    return "B is read transposed, as B[col * K + k] (N x K) -> in the FP32 lessons B is K x N, "
           "row-major: B[k * N + col]";
  if (r.b_n_by_k && follows(r, false, [&](int, int j) { return k0 * N + j; }))
    return "B is read as B[k * N + col] (K x N) -> in the bf16 lessons B is N x K (K-major): "
           "B[col * K + k]";
  const std::size_t e1 = r.at(0, std::min(s.N - 1, 5));
  const long j1 = std::min(s.N - 1, 5);
  const long x0 = r.b_index[r.at(0, 0)], x1 = r.b_index[e1];
  if (x0 != kUnknown && x1 != kUnknown && s.N > 1) {
    if (!r.b_n_by_k && k0 > 0 && x0 % k0 == 0 && x1 - x0 == j1) {
      const long st = x0 / k0;
      if (st != N && follows(r, false, [&](int, int j) { return k0 * st + j; }))
        return "B is read with a row stride of " + stride_name(s, st) + ", as B[k * " +
               stride_name(s, st) + " + col] -> B is K x N: B[k * N + col]";
    }
    if (r.b_n_by_k && x0 == k0 && (x1 - x0) % j1 == 0) {
      const long st = (x1 - x0) / j1;
      if (st != K && follows(r, false, [&](int, int j) { return j * st + k0; }))
        return "B (N x K) is read with a row stride of " + stride_name(s, st) + ", as B[col * " +
               stride_name(s, st) + " + k] -> B is N x K: B[col * K + k]";
    }
  }
  return "";
}

// The block size T (2 .. 32) within which every moved element holds its transposed partner, or 0.
int transposed_block(const ProbeReading& r) {
  for (int T : {2, 4, 8, 16, 32}) {
    bool all = true, any = false;
    for (int i = 0; i < r.s.M && all; ++i)
      for (int j = 0; j < r.s.N && all; ++j) {
        const std::size_t e = r.at(i, j);
        if (r.a_row[e] < 0 || r.b_col[e] < 0 || (r.a_row[e] == i && r.b_col[e] == j)) continue;
        any = true;
        all = r.a_row[e] == i / T * T + j % T && r.b_col[e] == j / T * T + i % T;
      }
    if (all && any) return T;
  }
  return 0;
}

// Whole 8 x 8 blocks of C moved within every T x T tile (T = 16, 32): which holds which, or "".
std::string block_moves_words(const ProbeReading& r) {
  for (int T : {16, 32}) {
    const int nb = T / 8;
    std::vector<int> src(static_cast<std::size_t>(nb * nb), -1);
    bool ok = true, any = false;
    for (int i = 0; i < r.s.M && ok; ++i)
      for (int j = 0; j < r.s.N && ok; ++j) {
        const std::size_t e = r.at(i, j);
        const int si = r.a_row[e], sj = r.b_col[e];
        if (si < 0 || sj < 0) continue;
        const int b = (i % T) / 8 * nb + (j % T) / 8;
        if (si != i || sj != j) {
          any = true;
          ok = si / T == i / T && sj / T == j / T && si % 8 == i % 8 && sj % 8 == j % 8;
        }
        const int sb = (si % T) / 8 * nb + (sj % T) / 8;
        if (src[b] == -1)
          src[b] = sb;
        else if (src[b] != sb)
          ok = false;
      }
    if (!ok || !any) continue;
    auto block = [&](int b) {
      return "rows " + std::to_string(b / nb * 8) + "-" + std::to_string(b / nb * 8 + 7) +
             " x columns " + std::to_string(b % nb * 8) + "-" + std::to_string(b % nb * 8 + 7);
    };
    std::ostringstream o;
    o << "8 x 8 blocks exchanged within every " << T << " x " << T << " tile of C: ";
    for (int b = 0, n = 0; b < nb * nb; ++b)
      if (src[b] >= 0 && src[b] != b)
        o << (n++ ? "; " : "") << block(b) << " hold the values of " << block(src[b]);
    o << " -> check the indices where the 8 x 8 pieces are stored (the accumulators of a "
         "fragment) or loaded (ldmatrix)";
    return o.str();
  }
  return "";
}

// The two operands met at different k: one example.
std::string k_mismatch_words(const ProbeReading& r, int k0) {
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if (r.a_index[e] == kUnknown || r.a_k[e] == k0 || r.a_row[e] != i) continue;
      std::ostringstream o;
      o << "A and B are multiplied at different k: for C(" << i << ", " << j
        << ") the term of B's k = " << k0 << " meets A's k = " << r.a_k[e]
        << " -> both must be read at the same k: check the k index of each (a swizzle, a fragment "
           "register, the order of a vector load's elements)";
      return o.str();
    }
  return "";
}

// The term counts of one reading in words, or "".
std::string counts_words(const ProbeReading& r, bool& every) {
  const std::size_t MN = static_cast<std::size_t>(r.s.M) * r.s.N;
  KTerms first{};
  long wrong = 0, readable = 0;
  for (std::size_t e = 0; e < MN; ++e) {
    if (r.unwritten[e]) continue;
    ++readable;
    KTerms t = k_terms(r, e);
    if (t.any && wrong++ == 0) first = t;
  }
  every = wrong > 0 && wrong == readable;
  if (wrong == 0) return "";
  return k_words(first, r.s, every);
}

// The course-wide reading of the findings: the cause in one line, or "" when the probes show
// nothing the result does not already say.
std::string infer(const ProbeFindings& f) {
  const ProbeReading& r = f.readings.front();
  const std::size_t MN = static_cast<std::size_t>(r.s.M) * r.s.N;
  if (f.reads_c_when_beta0)
    return "the kernel reads C when beta == 0 (C may hold NaN then, and 0 * NaN is NaN) -> when "
           "beta == 0 "
           "store alpha * acc without reading C";
  auto near = [](double v, double w) { return std::isfinite(v) && std::fabs(v - w) < 1e-3; };
  const std::string fix = " -> store alpha * acc + beta * C (C read only when beta != 0)";
  if (near(f.ones_swapped, 2)) return "alpha and beta are swapped" + fix;
  // Every element scaled alike, and the counts unreadable: a factor, not lost terms.
  long consistent = 0;  // elements whose counts add up to what the all-ones probe shows
  for (std::size_t e = 0; e < MN; ++e) {
    long sum = 0;
    bool readable = true;
    for (int k = 0; k < r.s.K; ++k) {
      const int c = r.count[e * r.s.K + k];
      readable = readable && c >= 0;
      sum += c;
    }
    consistent += readable && std::isfinite(f.ones_scale) && near(sum, f.ones_scale * r.s.K);
  }
  if (std::isfinite(f.ones_scale) && !near(f.ones_scale, 1) &&
      consistent * 2 < static_cast<long>(MN)) {
    std::ostringstream o;
    o << "the products are scaled by " << f.ones_scale << " (A*B comes out " << f.ones_scale
      << " x what it is, alpha = 1)" << fix;
    return o.str();
  }
  // Edges only when it is the edge: the interior of the same tiles right, and the wrong elements
  // move with the edge at the second shape.
  const bool any_wrong = std::find(r.wrong.begin(), r.wrong.end(), 1) != r.wrong.end();
  if (any_wrong && f.readings.size() > 1)
    if (const int T = edge_tile(r, f.readings[1])) return edge_words(r, T);
  // Where each product came from: the flat index of A and of B read for the term k0.
  const int k0 = r.k0;
  if (k0 >= 0) {
    Reads a = reads_of(r, k0, true), b = reads_of(r, k0, false);
    // A code probe is read through the other operand (one on k0 only): when that operand is read
    // in the wrong place, the probe hits no term or several, and its reads fall outside the matrix
    // or are unknown. Trust the side whose reads land inside.
    // An operand whose sums are right is read right: its code probe only shows the other's
    // mistake, seen through it.
    if (r.a_sums_right && !r.b_sums_right) a = Reads{};
    if (r.b_sums_right && !r.a_sums_right) b = Reads{};
    const long half = static_cast<long>(MN / 2);
    if (a.wrong > 0 && b.wrong > 0 && (a.inside < half) != (b.inside < half)) {
      Reads& untrusted = a.inside < half ? a : b;
      untrusted = Reads{};
    }
    if (b.wrong > 0)
      if (std::string w = layout_words(r, k0, false); !w.empty()) return w;
    if (a.wrong > 0)
      if (std::string w = layout_words(r, k0, true); !w.empty()) return w;
    if ((a.k_off || b.k_off) && !(a.wrong > 0 && !a.k_off) && !(b.wrong > 0 && !b.k_off))
      if (std::string w = k_mismatch_words(r, k0); !w.empty()) return w;
    if (a.wrong > 0 && b.wrong > 0 && !a.k_off && !b.k_off) {
      if (const int T = transposed_block(r))
        return "within every " + std::to_string(T) + " x " + std::to_string(T) +
               " block of C, element (r, c) holds the value of (c, r) -> the block is stored "
               "transposed: the row and column indices of the store (m and n of a thread tile) "
               "are swapped";
    }
    if (a.wrong > 0 && b.wrong > 0 && !a.k_off && !b.k_off)
      if (std::string w = block_moves_words(r); !w.empty()) return w;
    if (a.wrong > 0 && !a.k_off) {
      if (a.by_index)
        return map_words(a.src, r.s.M, "row") +
               " in every column: the products use the wrong rows of A -> check the row offset "
               "(block, warp, sub-tile or thread) where A is loaded, or where C is stored";
      return example_words(r, true);
    }
    if (b.wrong > 0 && !b.k_off) {
      if (b.by_index)
        return map_words(b.src, r.s.N, "column") +
               " in every row: the products use the wrong columns of B -> check the column offset "
               "(block, warp, sub-tile or thread) where B is loaded, or where C is stored";
      return example_words(r, false);
    }
    if (b.wrong > 0 || a.wrong > 0) return read_example(r, k0, b.wrong == 0);
  }
  // The terms along K: the main shape, and the one with K above several k-tiles (K > M, N).
  {
    bool every1 = false, every3 = false;
    const std::string w1 = counts_words(r, every1);
    const std::string w3 = f.readings.size() > 2 ? counts_words(f.readings[2], every3) : "";
    if (!w3.empty() && (w1.empty() || (every3 && every1))) return w3;
    if (!w1.empty()) return w1;
  }
  if (std::find(r.unwritten.begin(), r.unwritten.end(), 1) != r.unwritten.end()) return "";
  // Scaling: the products and C, as the scalar probes fitted them.
  if (std::isfinite(f.x20)) {
    if (near(f.x20, 4)) return "alpha is applied twice (alpha * alpha * acc)" + fix;
    if (near(f.x20, 1)) return "alpha is ignored (acc is stored unscaled)" + fix;
    if (!near(f.x20, 2)) {
      std::ostringstream o;
      o << "the products are scaled by " << f.x20 / 2 << " (alpha = 2 gives " << f.x20 << " x A*B)"
        << fix;
      return o.str();
    }
  }
  if (std::isfinite(f.y23)) {
    if (near(f.y23, 6)) return "beta * C is scaled by alpha too: alpha * (acc + beta * C)" + fix;
    if (near(f.y23, 9)) return "beta is applied twice (beta * beta * C)" + fix;
    if (near(f.y23, 1)) return "beta is ignored: C is added unscaled (acc + C)" + fix;
    if (near(f.y23, 0)) return "beta * C is never added" + fix;
    if (near(f.x23, 1)) return "alpha is ignored when beta != 0" + fix;
    if (!near(f.y23, 3)) {
      std::ostringstream o;
      o << "C is scaled by " << f.y23 << " where beta = 3" << fix;
      return o.str();
    }
  }
  if (std::isfinite(f.x01) && !near(f.x01, 0))
    return "alpha is ignored (alpha = 0 still adds A*B)" + fix;
  if (std::isfinite(f.y01) && !near(f.y01, 1)) {
    std::ostringstream o;
    o << "C is scaled by " << f.y01 << " where beta = 1" << fix;
    return o.str();
  }
  return "";
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
  const std::string generic = infer(f);
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
    for (std::size_t x = 0; x < guarded.size(); ++x) g.out[x] = widen_bits(guarded[x]);
    run(g);
    std::vector<bf16_t> out(g.out.size());
    for (std::size_t x = 0; x < out.size(); ++x) out[x] = narrow_bits(g.out[x]);
    r = verify_gemm(s, A, B, C, out, options);
  }
  return r;
}

}  // namespace

VerifyReport check_gemm_run(const GemmRun& run, const GemmShape& s, bool bf16,
                            const VerifyOptions& options) {
  VerifyReport r = check_random(run, s, bf16, options);
  if (!r.passed) diagnose(run, bf16, r, options.lesson);
  return r;
}

}  // namespace course
