// The causes a failed result shows by itself, without running the kernel again: models that
// account for every compared element (C or an operand indexed with the wrong row stride, x and y
// roles swapped, a grid too small, C written transposed, C read when beta == 0, writes outside C)
// and the plain facts (NaN, elements never written, a few scattered errors). The probes of
// common/diagnosis.cpp name the rest, and name these again in more detail when they can run.
#include "common/verify_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>

namespace course {
namespace verify_detail {
namespace {

// ---- The diagnosis ---------------------------------------------------------------------------
//
// likely_cause() walks an ordered table of detectors (kDetectors, below). Each looks for one
// pattern in the result and, when it sees it, returns a Diagnosis: what it saw and the fix. The
// first that fires names the cause. Specific patterns come first: a detector whose pattern a more
// specific one also produces comes after it. A detector whose diagnosis is `exact` (a model that
// accounts for every element it looked at) makes the diagnosis ask the detectors after it too: on a
// tiny shape several models can fit the same few numbers, and then the report names them all.
//
// A new cause is one function `Finding detect_something(const Evidence&)`, one line in kDetectors
// at its place in the order, and one test in tests/common/test_diagnosis.cpp that builds the
// mistake's output and checks that it is named on the first failing shape of the grid. Models
// look at a bounded window (the first rows, the first columns) so that a sampled 2048^3 problem
// is still diagnosed in well under a second.

// What a detector reports: what the output shows, the fix, and whether it is an exact model.
struct Diagnosis {
  std::string seen;
  std::string fix;
  bool exact = false;
  // Other causes (detector names) this pattern may come from at this shape; a larger one tells.
  std::vector<std::string> could_also_be = {};
  std::string text() const { return fix.empty() ? seen : seen + " -> " + fix; }
};
using Finding = std::optional<Diagnosis>;

// What the detectors look at: the problem, the compared elements, the counts, and products of any
// row of A with B, computed when first asked for.
class Evidence {
 public:
  Evidence(const Problem& problem, const Compared& compared, const VerifyReport& report,
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
      untouched[e] =
          (p.s.beta == 0.0f) ? b == p.poison : (p.C0 != nullptr && b == bits_of(p.C0[e]));
    }
  }

  const Problem& p;
  const Compared& c;
  const VerifyReport& r;
  const std::vector<char>& bad;  // per compared element: out of its bound
  const int M, N, K;
  const double alpha, beta;
  const double floor;           // the smallest bound, so that 0 == 0 passes
  std::vector<char> untouched;  // per element of C: still the poison (or the input C)

  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * N + j; }
  double a(int i, int k) const { return p.A[static_cast<std::size_t>(i) * K + k]; }
  double b(int k, int j) const { return p.B[static_cast<std::size_t>(k) * N + j]; }
  double got(int i, int j) const { return p.got[at(i, j)]; }
  double c0(int i, int j) const { return p.C0 ? double(p.C0[at(i, j)]) : 0.0; }

  // Row i of A·B and of |A|·|B|, for any row.
  const double* product_row(int i) const {
    if (compared_[i] >= 0) return &c.P(compared_[i], 0);
    fill(i);
    return prod_[i].data();
  }
  const double* abs_product_row(int i) const {
    if (compared_[i] >= 0) return &c.absP(compared_[i], 0);
    fill(i);
    return abs_prod_[i].data();
  }
  // The right value of element (i, j) and its bound.
  double reference(int i, int j) const { return alpha * product_row(i)[j] + beta * c0(i, j); }
  double bound(int i, int j) const {
    return p.tol.element * (std::fabs(alpha) * abs_product_row(i)[j] + std::fabs(beta * c0(i, j))) +
           floor;
  }
  // Does `got` match a model value whose terms have magnitude `size` (|alpha|·Σ|a||b| + |beta·c0|)?
  bool fits(double value, double model, double size) const {
    return close(value, model, p.tol.element * (size + std::fabs(model)) + floor);
  }
  // Is a product term clearly not zero (a value, not the zeros of a padded tile)?
  bool nonzero(double product_term, double size) const {
    return std::fabs(product_term) > p.tol.element * size + floor;
  }

 private:
  void fill(int i) const {
    if (!prod_[i].empty()) return;
    Eigen::RowVectorXd row(K);
    for (int k = 0; k < K; ++k) row(k) = a(i, k);
    const Eigen::RowVectorXd pr = row * c.B;
    const Eigen::RowVectorXd ar = row.cwiseAbs() * c.absB;
    prod_[i].assign(pr.data(), pr.data() + N);
    abs_prod_[i].assign(ar.data(), ar.data() + N);
  }
  mutable std::vector<std::vector<double>> prod_, abs_prod_;
  std::vector<int> compared_;  // row -> its index among the compared rows, or -1
};

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
bool written_rectangle(const Evidence& e, int& r0, int& c0) {
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
bool written_part_right(const Evidence& e) {
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

// ---- The detectors, in the order likely_cause() tries them ---------------------------------

// C indexed with the wrong row stride (K or M instead of N): element (i, j) lands at i * ld + j.
// It comes first because it also overwrites canaries (ld > N) or leaves elements unwritten
// (ld < N), which the generic detectors below would report.
Finding detect_wrong_leading_dimension_of_c(const Evidence& e) {
  const int M = e.M, N = e.N;
  if (M < 2 || e.r.canary_before > 0) return {};
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
    return Diagnosis{o.str(),
                     "C is M x N and row-major: element (row, col) is C[row * N + col], in the "
                     "store and in the read of C (beta != 0).",
                     true};
  }
  return {};
}

Finding detect_out_of_bounds_write(const Evidence& e) {
  const VerifyReport& r = e.r;
  if (r.canary_after == 0 && r.canary_before == 0) return {};
  std::ostringstream o;
  o << "out-of-bounds write: " << r.canary_after << " value(s) written past the end of C";
  if (r.canary_before > 0) o << " and " << r.canary_before << " before its start";
  if (r.first_after >= 0) {
    o << " (the first at row " << e.M + r.first_after / e.N << ", column " << r.first_after % e.N
      << " if C went on)";
  }
  return Diagnosis{o.str(),
                   "a missing bounds guard: threads whose row >= M or column >= N must not write.",
                   false};
}

Finding detect_nothing_written(const Evidence& e) {
  if (e.r.unwritten != static_cast<long>(e.untouched.size())) return {};
  return Diagnosis{"nothing was written to C",
                   "did the kernel launch at all (a launch error ignored, a grid of zero blocks) "
                   "and does it store to C?",
                   false};
}

Finding detect_reads_c_when_beta_is_zero(const Evidence& e) {
  const VerifyReport& r = e.r;
  const long MN = static_cast<long>(e.untouched.size());
  if (e.beta != 0.0 || r.nonfinite == 0 || r.unwritten >= r.nonfinite) return {};
  if (r.nonfinite - r.unwritten != MN - r.unwritten) return {};
  return Diagnosis{
      "every written element is NaN and beta == 0: the kernel reads C, which the "
      "check filled with NaN (with beta == 0, BLAS never reads C), and beta*C = "
      "0*NaN = NaN",
      "skip the read of C when beta == 0.", false};
}

// The thread index and the grid disagree on which of x and y runs along the rows of C: the kernel
// takes its row from x while the grid gives x the N columns (or its column from x while the grid
// gives x the M rows). The rows then reach only N rounded up to whole blocks, and the columns M
// rounded up; the threads past M or N are guarded. What it writes is right; the rest is a band of
// last rows or last columns that a grid too small would also leave, with other numbers.
Finding detect_swapped_roles(const Evidence& e) {
  const int M = e.M, N = e.N;
  int r0 = 0, c0 = 0;
  if (e.r.unwritten == 0 || !written_rectangle(e, r0, c0) || r0 == 0 || c0 == 0) return {};
  if (!written_part_right(e)) return {};
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
  if (br == 0) return {};
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
  return Diagnosis{o.str(),
                   "use one convention in the kernel and in the launch: with col = blockIdx.x * "
                   "blockDim.x + threadIdx.x, the grid's x counts blocks of columns, (N + "
                   "blockDim.x - 1) / blockDim.x, and its y blocks of rows; with the row from x, "
                   "x counts blocks of rows.",
                   true};
}

Finding detect_grid_too_small(const Evidence& e) {
  const int M = e.M, N = e.N;
  int r0 = 0, c0 = 0;
  if (e.r.unwritten == 0 || !written_rectangle(e, r0, c0)) return {};
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
  return Diagnosis{o.str(), "round the block count up: (M + rows_per_block - 1) / rows_per_block.",
                   written_part_right(e) && rounded_down(M, r0) && rounded_down(N, c0)};
}

// A or B read with the wrong layout: the wrong row stride (A[row * N + k]), or as if transposed.
// Elements whose reads fall outside the operand are left out: what a kernel reads there is
// whatever lies past the buffer.
Finding detect_wrong_leading_dimension_of_a_or_b(const Evidence& e) {
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
      return Diagnosis{m.seen,
                       m.on_a ? "A is M x K, row-major: element (row, k) is A[row * K + k]."
                       : nk   ? "B is N x K, K-major: element (k, col) is B[col * K + k]."
                              : "B is K x N, row-major: element (k, col) is B[k * N + col].",
                       true};
    }
  }
  return {};
}

Finding detect_nan_or_inf(const Evidence& e) {
  if (e.r.nonfinite <= e.r.unwritten) return {};
  return Diagnosis{"the kernel produced NaN or Inf",
                   "it reads memory nothing wrote (shared memory of a ragged tile not "
                   "zero-filled, an uninitialised accumulator) or reads past A or B.",
                   false};
}

// C(i, j) written at (j, i), or C written column-major.
Finding detect_transposed(const Evidence& e) {
  const int M = e.M, N = e.N;
  // The model: C(i, j) holds R(j, i) (square) or C is R written column-major. It differs from R
  // only where R is not symmetric, which random inputs make it wherever M * N > 1.
  if (M < 2 || N < 2) return {};
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
    return Diagnosis{"the result is transposed: C(row, col) landed at (col, row)",
                     "row and column (y and x) are swapped in the index of C.", true};
  }
  return {};
}

Finding detect_unwritten_elements(const Evidence& e) {
  if (e.r.unwritten == 0) return {};
  return Diagnosis{
      std::to_string(e.r.unwritten) + " element(s) were never written ('U' on the map)",
      "some threads return early or the index never reaches them.", false};
}

Finding detect_scattered_errors(const Evidence& e) {
  if (e.r.wrong * 20 >= e.r.checked) return {};
  return Diagnosis{"a few scattered wrong values",
                   "if they move from run to run it is a race (a missing __syncthreads() between "
                   "filling and reading shared memory); otherwise look at the map and the first "
                   "mismatches.",
                   false};
}

// The table: the order is the priority.
struct Detector {
  const char* name;
  Finding (*detect)(const Evidence&);
};
const Detector kDetectors[] = {
    {"wrong_leading_dimension_of_c", detect_wrong_leading_dimension_of_c},
    {"out_of_bounds_write", detect_out_of_bounds_write},
    {"nothing_written", detect_nothing_written},
    {"reads_c_when_beta_is_zero", detect_reads_c_when_beta_is_zero},
    {"swapped_roles", detect_swapped_roles},
    {"grid_too_small", detect_grid_too_small},
    {"wrong_leading_dimension_of_a_or_b", detect_wrong_leading_dimension_of_a_or_b},
    {"nan_or_inf", detect_nan_or_inf},
    {"transposed", detect_transposed},
    {"unwritten_elements", detect_unwritten_elements},
    {"scattered_errors", detect_scattered_errors},
};

Cause likely_cause_of(const Evidence& e) {
  const std::size_t n = sizeof kDetectors / sizeof kDetectors[0];
  for (std::size_t d = 0; d < n; ++d) {
    const Finding f = kDetectors[d].detect(e);
    if (!f) continue;
    Cause cause{f->text(), kDetectors[d].name, {}, f->exact};
    if (!f->could_also_be.empty()) {
      cause.candidates.push_back(cause.id);
      for (const std::string& name : f->could_also_be) cause.candidates.push_back(name);
    }
    if (!f->exact) return cause;
    // An exact model: on a tiny shape, later ones may fit the same numbers.
    std::vector<std::string> texts = {f->text()};
    for (std::size_t o = d + 1; o < n; ++o) {
      const Finding g = kDetectors[o].detect(e);
      if (!g || !g->exact) continue;
      if (cause.candidates.empty()) cause.candidates.push_back(cause.id);
      if (std::find(cause.candidates.begin(), cause.candidates.end(), kDetectors[o].name) ==
          cause.candidates.end()) {
        cause.candidates.push_back(kDetectors[o].name);
      }
      texts.push_back(g->text());
    }
    if (texts.size() > 1) {
      std::ostringstream t;
      t << "at this size it could be " << (texts.size() == 2 ? "either" : "any") << " of "
        << texts.size() << " causes (a larger, ragged shape tells them apart):";
      for (std::size_t k = 0; k < texts.size(); ++k) {
        std::string x = texts[k];
        if (k + 1 < texts.size() && !x.empty() && x.back() == '.') x.pop_back();
        t << (k == 0 ? " " : "; or ") << "(" << k + 1 << ") " << x;
      }
      cause.text = t.str();
    }
    return cause;
  }
  return {
      "wrong values without a pattern the checker knows: look at the map and the first "
      "mismatches, and compare one element by hand.",
      "",
      {}};
}

}  // namespace

const std::vector<std::string>& detector_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Detector& d : kDetectors) n.push_back(d.name);
    return n;
  }();
  return names;
}

Cause likely_cause(const Problem& p, const Compared& c, const VerifyReport& r,
                   const std::vector<char>& bad) {
  return likely_cause_of(Evidence(p, c, r, bad));
}

}  // namespace verify_detail

const std::vector<std::string>& diagnosis_detectors() {
  return verify_detail::detector_names();
}

}  // namespace course
