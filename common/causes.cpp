// The table of causes: every rule the course walks to name why a GEMM is wrong, in its order
// (course_rules(), at the end), with the words each says. The evidence (common/diagnosis.hpp) is
// the failed result and, when the kernel is at hand, its runs again and its probes. A new cause is
// one rule at its rank here (or in a lesson's causes.hpp) and one wrong solution in
// tests/common/wrong_solutions.cpp that it names.
#include "common/diagnosis.hpp"
#include "common/verify_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace course {
namespace verify_detail {

Result::Result(const Problem& problem, const Compared& compared, const VerifyReport& report,
               const std::vector<char>& wrong)
    : p(problem),
      c(compared),
      r(report),
      bad(wrong),
      M(problem.s.M),
      N(problem.s.N),
      K(problem.s.K),
      alpha(problem.s.alpha),
      beta(problem.s.beta),
      floor(problem.tol.element * 1e-30),
      prod_(static_cast<std::size_t>(M)),
      abs_prod_(static_cast<std::size_t>(M)),
      compared_(static_cast<std::size_t>(M), -1) {
  for (std::size_t ri = 0; ri < c.rows.size(); ++ri) compared_[c.rows[ri]] = static_cast<int>(ri);
  const std::size_t MN = static_cast<std::size_t>(M) * N;
  untouched.resize(MN);
  for (std::size_t e = 0; e < MN; ++e) {
    const std::uint32_t b = bits_of(p.got[e]);
    untouched[e] = (p.s.beta == 0.0f) ? b == p.poison : (p.C0 != nullptr && b == bits_of(p.C0[e]));
  }
}

const double* Result::product_row(int i) const {
  if (compared_[i] >= 0) return &c.P(compared_[i], 0);
  fill(i);
  return prod_[i].data();
}

const double* Result::abs_product_row(int i) const {
  if (compared_[i] >= 0) return &c.absP(compared_[i], 0);
  fill(i);
  return abs_prod_[i].data();
}

void Result::fill(int i) const {
  if (!prod_[i].empty()) return;
  Eigen::RowVectorXd row(K);
  for (int k = 0; k < K; ++k) row(k) = a(i, k);
  const Eigen::RowVectorXd pr = row * c.B;
  const Eigen::RowVectorXd ar = row.cwiseAbs() * c.absB;
  prod_[i].assign(pr.data(), pr.data() + N);
  abs_prod_[i].assign(ar.data(), ar.data() + N);
}

namespace {

constexpr const char* kGuardStore =
    "a missing bounds guard: threads whose row >= M or column >= N must not write.";

// A cause: what the output shows, then its fix.
std::string said(const std::string& seen, const std::string& fix) {
  return seen + " -> " + fix;
}

// How far a model is from the right result: it differs where one element is out of its bound, or
// where all of them together break the relative Frobenius limit (what fails a result whose
// elements each stay inside their bounds, as when a sum cancels).
struct Departure {
  bool element = false;
  double err2 = 0, ref2 = 0;
  void add(double model, double ref, double bound) {
    if (!close(model, ref, bound)) element = true;
    err2 += (model - ref) * (model - ref);
    ref2 += ref * ref;
  }
  bool differs(const Tolerance& t) const {
    return element || (ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2)) > t.frobenius;
  }
};

std::string join(const std::vector<std::string>& parts, const std::string& sep,
                 const std::string& last_sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += (i + 1 == parts.size()) ? last_sep : sep;
    out += parts[i];
  }
  return out;
}

long round_up(long x, long to) {
  return (x + to - 1) / to * to;
}

// Block sizes a launch might use, the usual ones first.
const int kBlockSizes[] = {16, 32, 8, 64, 4, 128, 2, 256, 1, 512, 1024};

// The written part of C as a rectangle [0, r0) x [0, c0), everything outside it untouched and
// everything inside it written; false when the untouched elements do not form such a band.
bool written_rectangle(const Result& e, int& r0, int& c0) {
  const int M = e.M, N = e.N;
  r0 = M, c0 = N;
  while (r0 > 0) {
    bool all = true;
    for (int j = 0; j < N && all; ++j) all = e.untouched[e.at(r0 - 1, j)];
    if (!all) break;
    --r0;
  }
  while (c0 > 0) {
    bool all = true;
    for (int i = 0; i < M && all; ++i) all = e.untouched[e.at(i, c0 - 1)];
    if (!all) break;
    --c0;
  }
  for (int i = 0; i < r0; ++i)
    for (int j = 0; j < c0; ++j)
      if (e.untouched[e.at(i, j)]) return false;
  return r0 < M || c0 < N;
}

// Is every compared element that is wrong one that was never written?
bool written_part_right(const Result& e) {
  for (std::size_t ri = 0; ri < e.c.rows.size(); ++ri)
    for (int j = 0; j < e.N; ++j)
      if (e.bad[ri * e.N + j] && !e.untouched[e.at(e.c.rows[ri], j)]) return false;
  return true;
}

std::string band_text(int M, int N, int r0, int c0) {
  std::ostringstream o;
  if (r0 < M) o << "rows " << r0 << ".." << M - 1 << (c0 < N ? " and " : "");
  if (c0 < N) o << "columns " << c0 << ".." << N - 1;
  return o.str();
}

// ---- What the result shows ----------------------------------------------------------------------

// C indexed with the wrong row stride (K or M instead of N): element (i, j) lands at i * ld + j.
// It comes first because it also overwrites canaries (ld > N) or leaves elements unwritten
// (ld < N), which the generic detectors below would report.
std::string detect_wrong_leading_dimension_of_c(const Result& e) {
  const int M = e.M, N = e.N;
  if (M < 2 || e.r.canary_before > 0) return "";
  const std::size_t MN = static_cast<std::size_t>(M) * N, band = guard_band(M, N);
  struct Ld {
    long ld;
    std::string name;
  };
  std::vector<Ld> lds;
  auto add = [&](long ld, const char* name) {
    if (ld == N || ld < 1) return;
    for (Ld& x : lds)
      if (x.ld == ld) {
        x.name += std::string(" and ") + name;
        return;
      }
    lds.push_back({ld, name});
  };
  add(e.K, "K");
  add(M, "M");
  for (const Ld& cand : lds) {
    const std::size_t ld = static_cast<std::size_t>(cand.ld), end = MN + band;
    std::vector<std::uint8_t> writers(end, 0);
    for (int i = 0; i < M; ++i) {
      const std::size_t start = i * ld;
      if (start >= end) break;
      for (std::size_t x = start; x < std::min(start + N, end); ++x)
        if (writers[x] < 255) ++writers[x];
    }
    bool fits = true;
    long never = 0, past = 0;
    for (std::size_t x = 0; x < MN && fits; ++x) {
      fits = (writers[x] != 0) != (e.untouched[x] != 0);
      never += writers[x] == 0;
    }
    for (std::size_t o = 0; o < band && fits; ++o) {
      const bool hit = !e.p.after_hit.empty() && e.p.after_hit[o];
      fits = (writers[MN + o] != 0) == hit;
      past += hit;
    }
    if (!fits) continue;
    // The values, where the rows that write them are among the first few. Where threads race for
    // one element, any of them may have written last; with beta != 0 they also read each other's
    // writes, so those elements are left out.
    constexpr std::size_t kRows = 16;
    for (std::size_t x = 0; x < MN && fits; ++x) {
      if (writers[x] == 0) continue;
      const std::size_t top = std::min<std::size_t>(x / ld, static_cast<std::size_t>(M - 1));
      if (top >= kRows) break;
      if (writers[x] > 1 && e.beta != 0.0) continue;
      const double c0 = e.p.C0 ? double(e.p.C0[x]) : 0.0;
      bool any = false;
      for (long i = static_cast<long>(top); i >= 0 && !any; --i) {
        const std::size_t j = x - static_cast<std::size_t>(i) * ld;
        if (j >= static_cast<std::size_t>(N)) break;
        const double pv = e.product_row(static_cast<int>(i))[j];
        const double av = e.abs_product_row(static_cast<int>(i))[j];
        any = e.fits(e.p.got[x], e.alpha * pv + e.beta * c0,
                     std::fabs(e.alpha) * av + std::fabs(e.beta * c0));
      }
      fits = any;
    }
    if (!fits) continue;
    std::ostringstream o;
    o << "C is indexed with a row stride of " << cand.name << " = " << ld << " instead of N = " << N
      << ": element (i, j) lands at i * " << ld << " + j, so its rows "
      << (cand.ld < N ? "overlap" : "leave gaps");
    if (never > 0) o << ", " << never << " element(s) of C are never written";
    if (past > 0) o << ", " << past << " value(s) land past the end of C";
    return said(o.str(),
                "C is M x N and row-major: element (row, col) is C[row * N + col], in the "
                "store and in the read of C (beta != 0).");
  }
  return "";
}

std::string detect_out_of_bounds_write(const Result& e) {
  const VerifyReport& r = e.r;
  if (r.canary_after == 0 && r.canary_before == 0) return "";
  std::ostringstream o;
  o << "out-of-bounds write: " << r.canary_after << " value(s) written past the end of C";
  if (r.canary_before > 0) o << " and " << r.canary_before << " before its start";
  if (r.first_after >= 0) {
    o << " (the first at row " << e.M + r.first_after / e.N << ", column " << r.first_after % e.N
      << " if C went on)";
  }
  return said(o.str(), kGuardStore);
}

std::string detect_nothing_written(const Result& e) {
  if (e.r.unwritten != static_cast<long>(e.untouched.size())) return "";
  return said("nothing was written to C",
              "did the kernel launch at all (a launch error ignored, a grid of zero blocks) "
              "and does it store to C?");
}

// The thread index and the grid disagree on which of x and y runs along the rows of C: the kernel
// takes its row from x while the grid gives x the N columns (or its column from x while the grid
// gives x the M rows). The rows then reach only N rounded up to whole blocks, and the columns M
// rounded up; the threads past M or N are guarded. What it writes is right; the rest is a band of
// last rows or last columns that a grid too small would also leave, with other numbers.
std::string detect_swapped_roles(const Result& e) {
  const int M = e.M, N = e.N;
  int r0 = 0, c0 = 0;
  if (e.r.unwritten == 0 || !written_rectangle(e, r0, c0) || r0 == 0 || c0 == 0) return "";
  if (!written_part_right(e)) return "";
  // br: the block size of the axis that reaches the rows, bc: of the axis that reaches the columns.
  auto covers = [&](int br, int bc) {
    return std::min<long>(M, round_up(N, br)) == r0 && std::min<long>(N, round_up(M, bc)) == c0;
  };
  int br = 0, bc = 0;
  for (int b : kBlockSizes)
    if (br == 0 && covers(b, b)) br = bc = b;
  for (int x : kBlockSizes)
    for (int y : kBlockSizes)
      if (br == 0 && x * y <= 1024 && covers(x, y)) br = x, bc = y;
  if (br == 0) return "";
  std::ostringstream o;
  o << "x and y roles swapped (x used as the row while the grid gives x the columns, or the other "
       "way round): "
    << band_text(M, N, r0, c0) << " were never written and the rest is right: ";
  if (r0 < M) {
    o << "the rows reach only " << round_up(N, br) << " (N = " << N << " rounded up to blocks of "
      << br << ")" << (c0 < N ? " and " : "");
  }
  if (c0 < N) {
    o << "the columns reach only " << round_up(M, bc) << " (M = " << M
      << " rounded up to blocks of " << bc << ")";
  }
  return said(o.str(),
              "use one convention in the kernel and in the launch: with col = blockIdx.x * "
              "blockDim.x + threadIdx.x, the grid's x counts blocks of columns, (N + "
              "blockDim.x - 1) / blockDim.x, and its y blocks of rows; with the row from x, "
              "x counts blocks of rows.");
}

std::string detect_grid_too_small(const Result& e, bool exact) {
  const int M = e.M, N = e.N;
  int r0 = 0, c0 = 0;
  if (e.r.unwritten == 0 || !written_rectangle(e, r0, c0)) return "";
  // An exact account when the written part is right and the covered sizes are a whole number of
  // blocks, rounded down: M / b * b, or (M - 1) / b * b (an off-by-one).
  auto rounded_down = [](int n, int covered) {
    if (covered == n) return true;
    for (int b : kBlockSizes)
      if (covered > 0 && (covered == n / b * b || covered == (n - 1) / b * b)) return true;
    return false;
  };
  std::ostringstream o;
  o << "grid too small: " << band_text(M, N, r0, c0)
    << " were never written, so the grid covers only " << r0 << " x " << c0;
  if (exact != (written_part_right(e) && rounded_down(M, r0) && rounded_down(N, c0))) return "";
  return said(o.str(), "round the block count up: (M + rows_per_block - 1) / rows_per_block.");
}

// A or B read with the wrong layout: the wrong row stride (A[row * N + k]), or as if transposed.
// Elements whose reads fall outside the operand are left out: what a kernel reads there is
// whatever lies past the buffer.
std::string detect_wrong_leading_dimension_of_a_or_b(const Result& e) {
  const int M = e.M, N = e.N, K = e.K;
  const bool nk = e.p.b_n_by_k;
  // The index read: row * s_outer + k * s_k into A (M x K), col * s_outer + k * s_k into B as the
  // kernel has it (K x N for FP32, N x K for bf16).
  struct Model {
    bool on_a;
    long s_outer, s_k;
    std::string seen;
  };
  auto name = [&](long s) {
    std::vector<std::string> n;
    if (s == N) n.push_back("N");
    if (s == M) n.push_back("M");
    if (s == K) n.push_back("K");
    return join(n, " and ", " and ") + " = " + std::to_string(s);
  };
  auto others = [&](long right, long x, long y) {
    std::vector<long> s;
    for (long v : {x, y})
      if (v != right && std::find(s.begin(), s.end(), v) == s.end()) s.push_back(v);
    return s;
  };
  const std::string k_text = std::to_string(K), n_text = std::to_string(N);
  std::vector<Model> models;
  for (long s : others(K, N, M)) {
    models.push_back({true, s, 1,
                      "A is read with a row stride of " + name(s) + " instead of K = " + k_text +
                          " (A[row * " + std::to_string(s) + " + k])"});
  }
  if (M > 1 && K > 1)
    models.push_back({true, 1, M, "A is read as if it were K x M (A[k * M + row])"});
  if (nk) {
    for (long s : others(K, N, M)) {
      models.push_back({false, s, 1,
                        "B (N x K) is read with a row stride of " + name(s) + " instead of K = " +
                            k_text + " (B[col * " + std::to_string(s) + " + k])"});
    }
    if (N > 1 && K > 1) {
      models.push_back({false, 1, N, "B (N x K) is read as if it were K x N (B[k * N + col])"});
    }
  } else {
    for (long s : others(N, K, M)) {
      models.push_back({false, 1, s,
                        "B is read with a row stride of " + name(s) + " instead of N = " + n_text +
                            " (B[k * " + std::to_string(s) + " + col])"});
    }
    if (N > 1 && K > 1) {
      models.push_back({false, K, 1, "B is read as if it were N x K (B[col * K + k])"});
    }
  }
  const long a_size = static_cast<long>(M) * K, b_size = static_cast<long>(K) * N;
  const int wr = std::min(M, 12), wc = std::min(N, 128);
  for (const Model& m : models) {
    bool fits = true;
    Departure d;
    for (int i = 0; i < wr && fits; ++i) {
      for (int j = 0; j < wc && fits; ++j) {
        const long first = (m.on_a ? i : j) * m.s_outer, last = first + (K - 1) * m.s_k;
        if (last >= (m.on_a ? a_size : b_size)) continue;  // reads past the operand
        double acc = 0, abs = 0;
        for (int k = 0; k < K; ++k) {
          const long x = first + k * m.s_k;
          const double v = m.on_a ? e.p.A[x] * e.b(k, j) : e.a(i, k) * e.p.B_kernel[x];
          acc += v;
          abs += std::fabs(v);
        }
        const double c = e.c0(i, j);
        const double model = e.alpha * acc + e.beta * c;
        fits = e.fits(e.got(i, j), model, std::fabs(e.alpha) * abs + std::fabs(e.beta * c));
        d.add(model, e.reference(i, j), e.bound(i, j));
      }
    }
    if (fits && d.differs(e.p.tol)) {
      return said(m.seen, m.on_a ? "A is M x K, row-major: element (row, k) is A[row * K + k]."
                          : nk   ? "B is N x K, K-major: element (k, col) is B[col * K + k]."
                                 : "B is K x N, row-major: element (k, col) is B[k * N + col].");
    }
  }
  return "";
}

std::string detect_nan_or_inf(const Result& e) {
  if (e.r.nonfinite <= e.r.unwritten) return "";
  return said("the kernel produced NaN or Inf",
              "it reads memory nothing wrote (shared memory of a ragged tile not "
              "zero-filled, an uninitialised accumulator) or reads past A or B.");
}

// C(i, j) written at (j, i), or C written column-major.
std::string detect_transposed(const Result& e) {
  const int M = e.M, N = e.N;
  // The model: C(i, j) holds R(j, i) (square) or C is R written column-major. It differs from R
  // only where R is not symmetric, which random inputs make it wherever M * N > 1.
  if (M < 2 || N < 2) return "";
  auto transposed = [&](bool col_major) {
    for (std::size_t ri = 0; ri < e.c.rows.size(); ++ri) {
      const int i = e.c.rows[ri];
      for (int j = 0; j < N; ++j) {
        const std::size_t x =
            col_major ? static_cast<std::size_t>(j) * M + i : static_cast<std::size_t>(j) * N + i;
        if (!close(e.p.got[x], e.c.R(ri, j), e.c.bound(ri, j))) return false;
      }
    }
    return true;
  };
  if ((M == N && transposed(false)) || (M != N && transposed(true))) {
    return said("the result is transposed: C(row, col) landed at (col, row)",
                "row and column (y and x) are swapped in the index of C.");
  }
  return "";
}

std::string detect_unwritten_elements(const Result& e) {
  if (e.r.unwritten == 0) return "";
  return said(std::to_string(e.r.unwritten) + " element(s) were never written ('U' on the map)",
              "some threads return early or the index never reaches them.");
}

std::string detect_scattered_errors(const Result& e) {
  if (e.r.wrong * 20 >= e.r.checked) return "";
  return said("a few scattered wrong values", "look at the map and the first mismatches.");
}

// ---- What the probes show, in words -------------------------------------------------------------

constexpr long kUnknown = ProbeReading::kUnknown;

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
      const int got = of_a ? r.at_k0.a_row[e] : r.at_k0.b_col[e], want = of_a ? i : j;
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
      const int row = of_a ? r.at_k0.a_row[e] : r.at_k0.b_row_k[e],
                col = of_a ? r.at_k0.a_k[e] : r.at_k0.b_col[e];
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

// Threads that leave early, and the shared memory they did not fill.
constexpr const char* kStaleTile =
    "threads outside C stop before they load their part of the shared tile, so the others read "
    "what it held before: every thread loads (zero past M, N and K) and reaches every "
    "__syncthreads(); only the store is guarded";

std::string edge_words(const ProbeReading& r, int T, bool mixed_k) {
  const int rm = r.s.M / T * T, cn = r.s.N / T * T;
  bool last_row = true, last_col = true, unw = true, rows = false, cols = false;
  bool twice = false, lost_only = true,
       lost = false;  // over the written wrong elements: terms summed twice (or
                      // unreadable), or only terms lost
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if (!r.wrong[e]) continue;
      const signed char* c = &r.count[e * r.s.K];
      for (int k = 0; k < r.s.K && !r.unwritten[e]; ++k) {
        lost_only = lost_only && (c[k] == 0 || c[k] == 1);
        lost = lost || c[k] == 0;
      }
      // Terms of the k-tile before in place of this one's: each k summed twice has k + T lost.
      for (int t : {8, 16, 32, 64}) {
        bool shifted = !r.unwritten[e], any = false;
        for (int k = 0; k < r.s.K && shifted; ++k)
          if (c[k] >= 2) any = true, shifted = k + t < r.s.K && c[k + t] == 0;
        twice = twice || (shifted && any);
      }
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
  o << ": past the last whole " << T << "-wide tile; the interior is right)";
  if (!unw && (twice || mixed_k))
    o << ", and its elements sum terms of other k-tiles -> " << kStaleTile;
  else if (!unw && lost_only && lost)
    o << ", and terms are missing there (zeros where values belong) -> a load guard drops values "
         "inside the matrices: guard each load by its own indices, A(row, k) by row < M and "
         "k < K, B(k, col) by k < K and col < N";
  else
    o << (unw ? ", never written" : "")
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
      const int got = of_a ? r.at_k0.a_row[e] : r.at_k0.b_col[e], want = of_a ? i : j;
      const int k = of_a ? r.at_k0.a_k[e] : r.at_k0.b_row_k[e];
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

// The block size T (2 .. 32) within which every moved element holds its transposed partner, or 0.
int transposed_block(const ProbeReading& r) {
  for (int T : {2, 4, 8, 16, 32}) {
    bool all = true, any = false;
    for (int i = 0; i < r.s.M && all; ++i)
      for (int j = 0; j < r.s.N && all; ++j) {
        const std::size_t e = r.at(i, j);
        if (r.at_k0.a_row[e] < 0 || r.at_k0.b_col[e] < 0 ||
            (r.at_k0.a_row[e] == i && r.at_k0.b_col[e] == j))
          continue;
        any = true;
        all = r.at_k0.a_row[e] == i / T * T + j % T && r.at_k0.b_col[e] == j / T * T + i % T;
      }
    if (all && any) return T;
  }
  return 0;
}

// The two operands met at different k in the reads `at` (of the term at.k): one example.
std::string k_mismatch_words(const ProbeReading& r, const ProbeReading::AtK& at) {
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if (at.a_row[e] != i || at.a_k[e] < 0 || at.a_k[e] == at.k) continue;
      std::ostringstream o;
      o << "A and B are multiplied at different k: for C(" << i << ", " << j
        << ") the term of B's k = " << at.k << " meets A's k = " << at.a_k[e]
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

// ---- The rules ---------------------------------------------------------------------------------
//
// Each reads the evidence and returns the cause ("what it shows -> the fix"), or "" when it does
// not recognise it. The table below orders them: models of the whole result first (exact, cheap,
// the result alone), then what running the kernel again shows (runs that differ, then the
// probes), then the plain facts. A rule whose pattern a more specific one also produces comes
// after it.

// A detector of the result as a rule.
template <std::string (*detect)(const Result&)>
std::string result_says(Evidence& e) {
  return detect(e.result());
}
template <bool exact>
std::string grid_too_small(Evidence& e) {
  return detect_grid_too_small(e.result(), exact);
}

const ProbeFindings* findings(Evidence& e) {
  const ProbeFindings* f = e.probes();
  return f != nullptr && !f->readings.empty() ? f : nullptr;
}
bool near(double v, double w) {
  return std::isfinite(v) && std::fabs(v - w) < 1e-3;
}
const std::string kFix = " -> store alpha * acc + beta * C (C read only when beta != 0)";

// The reads of A and B at k0 at the primary reading, each operand's only where its own mistake
// shows: a code probe is read through the other operand (one on k0 only), so where that operand is
// read in the wrong place the probe hits no term or several, and its reads fall outside the matrix.
struct Trusted {
  const ProbeReading* r = nullptr;
  Reads a, b;
};
Trusted trusted(Evidence& e) {
  Trusted t;
  const ProbeFindings* f = findings(e);
  if (f == nullptr || f->primary().k0() < 0) return t;
  const ProbeReading& r = *(t.r = &f->primary());
  t.a = reads_of(r, r.k0(), true), t.b = reads_of(r, r.k0(), false);
  // An operand whose sums are right is read right: its code probe only shows the other's mistake.
  if (r.a_sums_right && !r.b_sums_right) t.a = Reads{};
  if (r.b_sums_right && !r.a_sums_right) t.b = Reads{};
  const long half = static_cast<long>(r.s.M) * r.s.N / 2;
  if (t.a.wrong > 0 && t.b.wrong > 0 && (t.a.inside < half) != (t.b.inside < half))
    (t.a.inside < half ? t.a : t.b) = Reads{};
  return t;
}

// The wrong elements change between two runs on the same inputs, only on the ragged edge.
std::string stale_edge(Evidence& e) {
  const int T = e.unstable_edge_tile();
  if (T == 0) return "";
  return changes_words(e) + ", all past the last whole " + std::to_string(T) +
         "-wide tile: the ragged edge reads stale shared memory -> " + kStaleTile;
}

std::string race(Evidence& e) {
  const std::string changes = changes_words(e);
  if (changes.empty()) return "";
  return changes +
         ", a race -> a __syncthreads() is missing between the writes to shared memory "
         "and the reads of them (after the loads), or before the next tile overwrites "
         "what others still read; confirm with " +
         sanitize_command(e.lesson);
}

// Writes outside C: at the failing shape, else at a probe shape.
std::string out_of_bounds_write(Evidence& e) {
  if (std::string w = detect_out_of_bounds_write(e.result()); !w.empty()) return w;
  const ProbeFindings* f = findings(e);
  for (std::size_t n = 0; f != nullptr && n < f->readings.size(); ++n)
    if (const ProbeReading& r = f->readings[n]; r.canaries_hit > 0)
      return said("out-of-bounds write at " + r.s.str() + ": " + std::to_string(r.canaries_hit) +
                      " value(s) written outside C",
                  kGuardStore);
  return "";
}

std::string c_read_when_beta_is_zero(Evidence& e) {
  const ProbeFindings* f = findings(e);
  for (std::size_t n = 0; f != nullptr && n < f->readings.size(); ++n) {
    const ProbeReading& r = f->readings[n];
    if (r.c_added_when_beta0)
      return "beta is ignored: C is added unscaled, even when beta == 0 (acc + C) -> store alpha "
             "* acc + beta * C, and read C only when beta != 0";
    if (r.reads_c_when_beta0)
      return "the kernel reads C when beta == 0 (C may hold NaN then, and 0 * NaN is NaN) -> when "
             "beta == 0 store alpha * acc without reading C";
  }
  return "";
}

// The products' scale with A and B all ones (alpha and beta swapped, a factor), and with
// fractions (an integer accumulator).
std::string scale(Evidence& e) {
  const ProbeFindings* f = findings(e);
  for (std::size_t n = 0; f != nullptr && n < f->readings.size(); ++n) {
    const ProbeReading& r = f->readings[n];
    if (!r.whole) continue;
    const std::size_t MN = static_cast<std::size_t>(r.s.M) * r.s.N;
    if (near(r.ones_swapped, 2)) return "alpha and beta are swapped" + kFix;
    // Every element scaled alike, and the counts unreadable: a factor, not lost terms.
    long consistent = 0;  // elements whose counts add up to what the all-ones probe shows
    for (std::size_t x = 0; x < MN; ++x) {
      long sum = 0;
      bool readable = true;
      for (int k = 0; k < r.s.K; ++k) {
        const int c = r.count[x * r.s.K + k];
        readable = readable && c >= 0;
        sum += c;
      }
      consistent += readable && near(sum, r.ones_scale * r.s.K);
    }
    // A factor is the same on every element of every shape (an edge scaled alike is not one).
    const bool alike =
        std::all_of(f->readings.begin(), f->readings.end(),
                    [](const ProbeReading& x) { return !x.whole || std::isfinite(x.ones_scale); });
    std::ostringstream o;
    if (alike && !near(r.ones_scale, 1) && consistent * 2 < long(MN)) {
      o << "the products are scaled by " << r.ones_scale << " (A*B comes out " << r.ones_scale
        << " x what it is, alpha = 1)" << kFix;
      return o.str();
    }
    // Fractions lost at every shape, whole numbers right: not a race that hit one probe.
    const bool lost_everywhere =
        std::all_of(f->readings.begin(), f->readings.end(), [](const ProbeReading& x) {
          return !x.whole || !std::isfinite(x.fraction_scale) ||
                 (near(x.ones_scale, 1) && !near(x.fraction_scale, 1));
        });
    if (lost_everywhere && std::isfinite(r.fraction_scale) && !near(r.fraction_scale, 1)) {
      o << "fractions are lost: with every product 5/16 the sums come out "
        << r.fraction_scale * 0.3125 * r.s.K << " where " << 0.3125 * r.s.K
        << " belongs (K = " << r.s.K << "), whole numbers are right -> the accumulator, or a "
        << "value on its way to C, is an integer: keep acc, the loaded values and the store float";
      return o.str();
    }
  }
  return "";
}

std::string ragged_edge(Evidence& e) {
  const ProbeFindings* f = findings(e);
  if (f == nullptr || f->readings.size() < 2 || !f->readings[0].any_wrong()) return "";
  const int T = edge_tile(f->readings[0], f->readings[1]);
  if (T == 0) return "";
  // Reads on the edge of other values at the same place in another tile (a known code, its k
  // the same modulo 8): shared memory holding another tile. A guard that drops values reads zeros,
  // which carry no code; a scaled value decodes to no such place.
  long known = 0, shifted = 0;
  auto count = [&](const ProbeReading& r, const ProbeReading::AtK& at) {
    for (int i = 0; i < r.s.M; ++i)
      for (int j = 0; j < r.s.N; ++j) {
        const std::size_t x = r.at(i, j);
        const bool b = at.b_col[x] >= 0 && (at.b_row_k[x] != at.k || at.b_col[x] != j);
        const bool a = at.a_row[x] >= 0 && (at.a_row[x] != i || at.a_k[x] != at.k);
        if (!r.wrong[x] || !(a || b)) continue;
        ++known;
        shifted += (b ? at.b_row_k[x] : at.a_k[x]) % 8 == at.k % 8;
      }
  };
  count(f->readings[0], f->readings[0].at_k0);
  if (known == 0)
    for (const ProbeReading::AtK& at : e.probes_every_k()->readings[0].tile_k)
      count(f->readings[0], at);
  const bool mixed_k = shifted > 0 && shifted * 2 > known;
  const ProbeReading& r = f->readings[0];
  return edge_words(r, T, mixed_k);
}

// A and B met at different k: at k0, else at every k of its k-tile (an order permuted inside a
// vector load, a fragment or a k-step), read when nothing else named the cause.
std::string k_mismatch(Evidence& e) {
  const Trusted t = trusted(e);
  if (t.r == nullptr || !(t.a.k_off || t.b.k_off)) return "";
  if ((t.a.wrong > 0 && !t.a.k_off) || (t.b.wrong > 0 && !t.b.k_off)) return "";
  return k_mismatch_words(*t.r, t.r->at_k0);
}
std::string k_order(Evidence& e) {
  const ProbeFindings* f = e.probes_every_k();
  for (std::size_t n = 0; f != nullptr && n < f->primary().tile_k.size(); ++n)
    if (std::string w = k_mismatch_words(f->primary(), f->primary().tile_k[n]); !w.empty())
      return w;
  return "";
}

std::string transposed_blocks(Evidence& e) {
  const Trusted t = trusted(e);
  if (t.r == nullptr || t.a.wrong == 0 || t.b.wrong == 0 || t.a.k_off || t.b.k_off) return "";
  if (const int T = transposed_block(*t.r))
    return "within every " + std::to_string(T) + " x " + std::to_string(T) +
           " block of C, element (r, c) holds the value of (c, r) -> the block is stored "
           "transposed: the row and column indices of the store (m and n of a thread tile) are "
           "swapped";
  return "";
}

std::string products_elsewhere(Evidence& e) {
  const Trusted t = trusted(e);
  if (t.r == nullptr) return "";
  const ProbeReading& r = *t.r;
  if (t.a.wrong > 0 && !t.a.k_off) {
    if (t.a.by_index)
      return map_words(t.a.src, r.s.M, "row") +
             " in every column: the products use the wrong rows of A -> check the row offset "
             "(block, warp, sub-tile or thread) where A is loaded, or where C is stored";
    return example_words(r, true);
  }
  if (t.b.wrong > 0 && !t.b.k_off) {
    if (t.b.by_index)
      return map_words(t.b.src, r.s.N, "column") +
             " in every row: the products use the wrong columns of B -> check the column offset "
             "(block, warp, sub-tile or thread) where B is loaded, or where C is stored";
    return example_words(r, false);
  }
  if (t.b.wrong > 0 || t.a.wrong > 0) return read_example(r, r.k0(), t.b.wrong == 0);
  return "";
}

// The terms along K: the main shape, and the one with K above several k-tiles (K > M, N).
std::string terms(Evidence& e) {
  const ProbeFindings* f = e.probes_laps();
  if (f == nullptr) return "";
  bool every1 = false, every3 = false;
  const std::string w1 = counts_words(f->readings[0], every1);
  const std::string w3 = f->readings.size() > 2 ? counts_words(f->readings[2], every3) : "";
  if (!w3.empty() && (w1.empty() || (every3 && every1))) return w3;
  if (!w1.empty()) return w1;
  for (std::size_t n = 1; n < f->readings.size(); ++n)
    if (std::string w = counts_words(f->readings[n], every1); !w.empty()) return w;
  return "";
}

std::string alpha_beta_at(const ProbeReading& r);

// alpha and beta as the scalar probes fitted them, at each shape (the scalar and vector paths).
std::string alpha_beta(Evidence& e) {
  const ProbeFindings* f = findings(e);
  for (std::size_t n = 0; f != nullptr && n < f->readings.size(); ++n)
    if (std::string said = alpha_beta_at(f->readings[n]); !said.empty()) return said;
  return "";
}

std::string alpha_beta_at(const ProbeReading& r) {
  {
    if (std::find(r.unwritten.begin(), r.unwritten.end(), 1) != r.unwritten.end()) return "";
    std::ostringstream o;
    if (std::isfinite(r.x20)) {
      if (near(r.x20, 4)) return "alpha is applied twice (alpha * alpha * acc)" + kFix;
      if (near(r.x20, 1)) return "alpha is ignored (acc is stored unscaled)" + kFix;
      if (!near(r.x20, 2)) {
        o << "the products are scaled by " << r.x20 / 2 << " (alpha = 2 gives " << r.x20
          << " x A*B)" << kFix;
        return o.str();
      }
    }
    if (std::isfinite(r.y23)) {
      if (near(r.y23, 6)) return "beta * C is scaled by alpha too: alpha * (acc + beta * C)" + kFix;
      if (near(r.y23, 9)) return "beta is applied twice (beta * beta * C)" + kFix;
      if (near(r.y23, 1)) return "beta is ignored: C is added unscaled (acc + C)" + kFix;
      if (near(r.y23, 0)) return "beta * C is never added" + kFix;
      if (near(r.x23, 1)) return "alpha is ignored when beta != 0" + kFix;
      if (!near(r.y23, 3)) {
        o << "C is scaled by " << r.y23 << " where beta = 3" << kFix;
        return o.str();
      }
    }
  }
  return "";
}

}  // namespace

std::vector<Rule> course_rules() {
  return {
      // The result's own models: exact, cheap, and before the facts they also produce.
      {"wrong_leading_dimension_of_c", "", 100, true,
       result_says<detect_wrong_leading_dimension_of_c>},
      {"swapped_roles", "", 400, true, result_says<detect_swapped_roles>},
      {"grid_too_small", "", 500, true, grid_too_small<true>},
      {"wrong_leading_dimension_of_a_or_b", "", 600, true,
       result_says<detect_wrong_leading_dimension_of_a_or_b>},
      {"transposed", "", 700, true, result_says<detect_transposed>},
      // The same inputs again: values that change.
      {"stale_edge", "", 740, false, stale_edge},
      {"race", "", 760, false, race},
      // The probes. Lessons add theirs at 800, before the course's.
      {"out_of_bounds_write", "", 790, false, out_of_bounds_write},
      {"c_read_when_beta_is_zero", "", 900, false, c_read_when_beta_is_zero},
      {"scale", "", 920, false, scale},
      {"ragged_edge", "", 1000, false, ragged_edge},
      {"k_mismatch", "", 1100, false, k_mismatch},
      {"transposed_blocks", "", 1110, false, transposed_blocks},
      {"products_elsewhere", "", 1120, false, products_elsewhere},
      {"terms", "", 1200, false, terms},
      {"k_order", "", 1250, false, k_order},
      {"alpha_beta", "", 1300, false, alpha_beta},
      // The plain facts.
      {"nothing_written", "", 1790, false, result_says<detect_nothing_written>},
      {"grid_too_small", "", 1795, false, grid_too_small<false>},
      {"nan_or_inf", "", 1800, false, result_says<detect_nan_or_inf>},
      {"unwritten_elements", "", 1810, false, result_says<detect_unwritten_elements>},
      {"scattered_errors", "", 1820, false, result_says<detect_scattered_errors>},
  };
}

}  // namespace verify_detail

std::string terms_words(const ProbeReading& r) {
  bool every = false;
  return verify_detail::counts_words(r, every);
}

std::string changes_words(Evidence& e) {
  const long n = e.unstable_count();
  if (n == 0) return "";
  const GemmShape& s = e.unstable_shape();
  const bool failing = s.M == e.result().M && s.N == e.result().N && s.K == e.result().K;
  return "the wrong values change from run to run: " + std::to_string(n) +
         " element(s) differ between two runs on the same inputs" +
         (failing ? ""
                  : " at " + std::to_string(s.M) + " x " + std::to_string(s.N) + " x " +
                        std::to_string(s.K));
}

std::string sanitize_command(const std::string& lesson) {
  return "make sanitize-" +
         (lesson.empty() ? std::string("N") : std::to_string(std::stoi(lesson))) +
         " MINE=1 (racecheck)";
}

}  // namespace course
