#include "common/verify.hpp"

#include "common/precision.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace course {
namespace {

using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
std::uint16_t bits_of(bf16 h) {
  std::uint16_t u;
  std::memcpy(&u, &h, sizeof u);
  return u;
}
bf16 bf16_of(std::uint16_t u) {
  bf16 h;
  std::memcpy(static_cast<void*>(&h), &u, sizeof h);
  return h;
}
// bf16 is the top half of a float: widening is a shift, exact, and keeps NaN payloads.
float widen(bf16 h) {
  return float_of(static_cast<std::uint32_t>(bits_of(h)) << 16);
}
float widen(float f) {
  return f;
}

// The marks of a guarded output of element type T (verify.hpp): the canary around C and the
// poison in it, as bits and as values.
template <class T>
struct Marks;
template <>
struct Marks<float> {
  static constexpr std::uint32_t kCanary = kCanaryF32, kPoison = kPoisonF32;
  static float of(std::uint32_t u) { return float_of(u); }
};
template <>
struct Marks<bf16> {
  static constexpr std::uint16_t kCanary = kCanaryBf16, kPoison = kPoisonBf16;
  static bf16 of(std::uint16_t u) { return bf16_of(u); }
};

// `n` elements as the checks read them, in float: FP32 ones where they are, bf16 ones widened
// into `storage`.
const float* floats_of(const float* v, std::size_t /*n*/, std::vector<float>& /*storage*/) {
  return v;
}
const float* floats_of(const bf16* v, std::size_t n, std::vector<float>& storage) {
  storage.resize(n);
  for (std::size_t i = 0; i < n; ++i) storage[i] = widen(v[i]);
  return storage.data();
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", v);
  return buf;
}
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The canary bands of a guarded output: how many were overwritten, and where the first was.
template <typename T, typename Bits>
void scan_canaries(const std::vector<T>& guarded, std::size_t inner, std::size_t band, Bits canary,
                   VerifyReport& r) {
  for (std::size_t i = 0; i < band; ++i) {
    if (bits_of(guarded[i]) != canary) ++r.canary_before;
    if (bits_of(guarded[band + inner + i]) != canary) {
      if (r.canary_after == 0) r.first_after = static_cast<long>(i);
      ++r.canary_after;
    }
  }
}

// Which canaries after C were overwritten (empty when none was).
template <typename T, typename Bits>
std::vector<char> canary_hits_after(const std::vector<T>& guarded, std::size_t inner,
                                    std::size_t band, Bits canary, const VerifyReport& r) {
  std::vector<char> hit;
  if (r.canary_after == 0) return hit;
  hit.resize(band);
  for (std::size_t i = 0; i < band; ++i) hit[i] = bits_of(guarded[band + inner + i]) != canary;
  return hit;
}

// Everything the checks need, in float (bf16 inputs are widened exactly).
struct Problem {
  GemmShape s;
  const float* A = nullptr;    // M x K
  const float* B = nullptr;    // K x N
  const float* C0 = nullptr;   // M x N (nullptr when beta == 0)
  const float* got = nullptr;  // M x N
  std::uint32_t poison = 0;
  Tolerance tol;
  const float* B_kernel = nullptr;  // B as the kernel reads it: K x N (FP32) or N x K (bf16)
  bool b_n_by_k = false;            // B_kernel is N x K
  std::vector<char> after_hit;      // per canary after C: overwritten? (empty when none is)
};

std::vector<int> rows_to_check(const GemmShape& s, const VerifyOptions& o, bool& sampled) {
  std::vector<int> rows;
  const double macs = static_cast<double>(s.M) * s.N * s.K;
  sampled = macs > o.full_check_macs && s.M > o.sample_rows;
  if (!sampled) {
    for (int i = 0; i < s.M; ++i) rows.push_back(i);
    return rows;
  }
  // The first and last rows (edges are where bounds bugs live), then a fixed pseudo-random set.
  for (int i = 0; i < 4; ++i) rows.push_back(i), rows.push_back(s.M - 1 - i);
  std::uint64_t state = 0x9E3779B97F4A7C15ull ^ (static_cast<std::uint64_t>(s.M) << 32) ^
                        (static_cast<std::uint64_t>(s.N) << 16) ^ static_cast<std::uint64_t>(s.K);
  while (static_cast<int>(rows.size()) < o.sample_rows) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    rows.push_back(static_cast<int>((state >> 33) % static_cast<std::uint64_t>(s.M)));
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

// Per compared element: what was written, the reference, and the pieces of the reference.
struct Compared {
  std::vector<int> rows;
  MatD B, absB;  // B (K x N) and |B|, in double
  MatD P, absP;  // A·B and |A|·|B| for the compared rows
  MatD R;        // alpha·P + beta·C0
  MatD bound;
};

bool close(double got, double want, double bound) {
  return std::isfinite(got) && std::fabs(got - want) <= bound;
}

std::string tile_map(const Problem& p, const Compared& c, const std::vector<char>& bad,
                     const std::vector<char>& unwritten, const std::vector<char>& nonfinite,
                     int& tile) {
  const int M = p.s.M, N = p.s.N;
  tile = 8;
  while ((M + tile - 1) / tile > 24 || (N + tile - 1) / tile > 48) tile *= 2;
  const int tr = (M + tile - 1) / tile, tc = (N + tile - 1) / tile;
  std::vector<char> cell(static_cast<std::size_t>(tr) * tc, ' ');
  std::vector<char> has_wrong(cell.size(), 0), all_unwritten(cell.size(), 1);
  for (std::size_t ri = 0; ri < c.rows.size(); ++ri) {
    const int i = c.rows[ri];
    for (int j = 0; j < N; ++j) {
      const std::size_t k = static_cast<std::size_t>(i / tile) * tc + j / tile;
      const std::size_t e = static_cast<std::size_t>(ri) * N + j;
      if (cell[k] == ' ') cell[k] = '.';
      if (bad[e]) {
        has_wrong[k] = 1;
        if (!unwritten[e]) all_unwritten[k] = 0;
        if (nonfinite[e] && !unwritten[e]) cell[k] = 'N';
      }
    }
  }
  for (std::size_t k = 0; k < cell.size(); ++k) {
    if (has_wrong[k] && cell[k] != 'N') cell[k] = all_unwritten[k] ? 'U' : 'X';
  }
  std::ostringstream out;
  out << "  map of " << tile << "x" << tile
      << " tiles (rows down, columns across; . right, X wrong, U never written, N NaN/Inf,"
         " blank not compared):\n";
  for (int r = 0; r < tr; ++r) {
    char label[16];
    std::snprintf(label, sizeof label, "%7d ", r * tile);
    out << "  " << label;
    for (int q = 0; q < tc; ++q) out << cell[static_cast<std::size_t>(r) * tc + q];
    out << "\n";
  }
  return out.str();
}

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

// Does `model(ri, i, j)` explain every compared element within its bound (and differ from R)?
bool explains(const Evidence& e, const std::function<double(std::size_t, int, int)>& model) {
  Departure d;
  for (std::size_t ri = 0; ri < e.c.rows.size(); ++ri) {
    for (int j = 0; j < e.N; ++j) {
      const double m = model(ri, e.c.rows[ri], j);
      const double got = e.got(e.c.rows[ri], j);
      const double bound = e.c.bound(ri, j) + e.p.tol.element * std::fabs(m);
      if (!close(got, m, bound)) return false;
      d.add(m, e.c.R(ri, j), e.c.bound(ri, j));
    }
  }
  return d.differs(e.p.tol);
}

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

// The 2 x 2 outer product of a quad (lesson 08): quad lane q owns C[r0 + q / 2][c0 + q % 2] and
// gets its A operand from lane q / 2 and its B operand from lane 2 + q % 2, where lanes 0 and 1
// loaded A[r0][k] and A[r0 + 1][k], lanes 2 and 3 B[k][c0] and B[k][c0 + 1] (0 past A or B). The
// model: each lane position multiplies one pair of the four operands, the same pair in every quad.
Finding detect_quad_shuffle_source(const Evidence& e) {
  const int M = e.M, N = e.N, K = e.K;
  if (static_cast<long>(M) * N < 2) return {};
  const int wr = std::min(M, 16), wc = std::min(N, 64);
  bool ok[4][4][4], witness[4][4][4];
  for (int q = 0; q < 4; ++q)
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 4; ++y) ok[q][x][y] = true, witness[q][x][y] = false;
  std::vector<double> L[4];
  for (auto& l : L) l.assign(static_cast<std::size_t>(K), 0.0);
  for (int r0 = 0; r0 < wr; r0 += 2) {
    for (int c0 = 0; c0 < wc; c0 += 2) {
      for (int k = 0; k < K; ++k) {
        L[0][k] = r0 < M ? e.a(r0, k) : 0.0;
        L[1][k] = r0 + 1 < M ? e.a(r0 + 1, k) : 0.0;
        L[2][k] = c0 < N ? e.b(k, c0) : 0.0;
        L[3][k] = c0 + 1 < N ? e.b(k, c0 + 1) : 0.0;
      }
      double S[4][4], Sa[4][4];
      for (int x = 0; x < 4; ++x)
        for (int y = x; y < 4; ++y) {
          double s = 0, sa = 0;
          for (int k = 0; k < K; ++k) {
            const double v = L[x][k] * L[y][k];
            s += v;
            sa += std::fabs(v);
          }
          S[x][y] = S[y][x] = s;
          Sa[x][y] = Sa[y][x] = sa;
        }
      for (int q = 0; q < 4; ++q) {
        const int i = r0 + q / 2, j = c0 + q % 2;
        if (i >= M || j >= N) continue;
        const double g = e.got(i, j), c = e.c0(i, j), ref = e.reference(i, j), rb = e.bound(i, j);
        for (int x = 0; x < 4; ++x)
          for (int y = 0; y < 4; ++y) {
            if (!ok[q][x][y]) continue;
            const double m = e.alpha * S[x][y] + e.beta * c;
            const double size = std::fabs(e.alpha) * Sa[x][y] + std::fabs(e.beta * c);
            if (!e.fits(g, m, size)) {
              ok[q][x][y] = false;
            } else if (!close(m, ref, rb) && e.nonzero(e.alpha * S[x][y], size)) {
              witness[q][x][y] = true;
            }
          }
      }
    }
  }
  static const char* const kOperand[4] = {"A[r0][k]", "A[r0 + 1][k]", "B[k][c0]", "B[k][c0 + 1]"};
  static const char* const kOwn[4] = {"C[r0][c0]", "C[r0][c0 + 1]", "C[r0 + 1][c0]",
                                      "C[r0 + 1][c0 + 1]"};
  std::vector<std::string> wrong;
  for (int q = 0; q < 4; ++q) {
    const int la = q / 2, lb = 2 + q % 2;  // the lanes it should read
    if (ok[q][la][lb]) continue;
    int bx = -1, by = -1;
    // An A operand from an A lane and a B operand from a B lane first, then any pair.
    for (int pass = 0; pass < 2 && bx < 0; ++pass)
      for (int x = 0; x < 4 && bx < 0; ++x)
        for (int y = 0; y < 4 && bx < 0; ++y)
          if (ok[q][x][y] && witness[q][x][y] && (pass == 1 || (x < 2 && y >= 2))) bx = x, by = y;
    if (bx < 0) return {};
    std::ostringstream o;
    o << "lane " << q << " (" << kOwn[q] << ") multiplies " << kOperand[bx] << " (lane " << bx
      << "'s) by " << kOperand[by] << " (lane " << by << "'s) where it needs " << kOperand[la]
      << " from lane " << la << " and " << kOperand[lb] << " from lane " << lb;
    wrong.push_back(o.str());
  }
  if (wrong.empty()) return {};
  return Diagnosis{
      "wrong shuffle source in a quad (the 4 lanes that compute one 2 x 2 block of "
      "C): " +
          join(wrong, "; ", "; "),
      "quad lane q needs A[r0 + q / 2][k], loaded by quad lane q / 2, and "
      "B[k][c0 + q % 2], loaded by quad lane 2 + q % 2: check the source lane of "
      "each __shfl_sync (quad_a_source, quad_b_source).",
      true};
}

std::string span(int from, int size) {
  return std::to_string(from) + "-" + std::to_string(from + size - 1);
}

// How the values of a T x T tile moved: src[u * T + v] is the position whose value (u, v) holds.
// Returns what the output shows, and sets `fix`.
std::string describe_moves(const std::vector<int>& src, int T, std::string& fix) {
  auto du = [&](int pos) { return src[pos] / T - pos / T; };
  auto dv = [&](int pos) { return src[pos] % T - pos % T; };
  const std::string tile = std::to_string(T) + " x " + std::to_string(T);
  const std::string fragment_fix =
      "an 8 x 8 matrix of a fragment lands in the wrong place: ldmatrix.x4 fills register q with "
      "the matrix whose rows lanes 8q .. 8q + 7 address (for A, registers 0 and 1 are rows 0-7 "
      "and 8-15), and the accumulator's c0, c1 belong to row group, c2, c3 to row group + 8 "
      "(c_fragment_coord): check the ldmatrix lane addresses and where each accumulator is "
      "stored.";
  std::vector<std::string> moves;
  bool rows_only = true, cols_only = true, quads = true;
  for (int pos = 0; pos < T * T; ++pos) {
    const int u = pos / T, v = pos % T;
    rows_only = rows_only && dv(pos) == 0 && du(pos) == du(u * T);
    cols_only = cols_only && du(pos) == 0 && dv(pos) == dv(v);
    quads = quads && (u + du(pos)) / 2 == u / 2 && (v + dv(pos)) / 2 == v / 2;
  }
  // Whole 8 x 8 blocks moved intact?
  bool blocks = true;
  for (int pos = 0; pos < T * T && blocks; ++pos) {
    const int first = (pos / T / 8 * 8) * T + pos % T / 8 * 8;  // the corner of pos's block
    blocks = du(pos) == du(first) && dv(pos) == dv(first) && du(pos) % 8 == 0 && dv(pos) % 8 == 0;
  }
  if (rows_only || cols_only) {
    const bool rows = rows_only;
    const int n = T;
    auto d = [&](int x) { return rows ? du(x * T) : dv(x); };
    const std::string what = rows ? "row" : "column";
    if (blocks) {
      for (int x = 0; x < n; x += 8)
        if (d(x) != 0)
          moves.push_back(what + "s " + span(x, 8) + " hold " + what + "s " + span(x + d(x), 8) +
                          "'s values");
    } else {
      for (int x = 0; x < n; ++x)
        if (d(x) != 0)
          moves.push_back(what + " " + std::to_string(x) + " holds " + what + " " +
                          std::to_string(x + d(x)) + "'s values");
    }
    fix = blocks ? fragment_fix
          : rows ? "the row where an accumulator is stored is wrong (the fragment's row, the warp "
                   "tile's row offset)."
                 : "the column where an accumulator is stored is wrong (the fragment's column, "
                   "2 * (lane % 4) + i % 2; the n8 tile of a pair).";
    std::string seen = what + "s exchanged within every " + std::to_string(T) + "-" + what +
                       " tile of C: " + join(moves, ", ", " and ");
    if (blocks && moves.size() == 2 && d(0) == 8 && d(8) == -8) {
      seen = what + "s 0-7 and 8-15 exchanged within every " + std::to_string(T) + "-" + what +
             " tile of C";
    }
    return seen;
  }
  if (blocks) {
    for (int pos = 0; pos < T * T; ++pos) {
      const int u = pos / T, v = pos % T;
      if (u % 8 != 0 || v % 8 != 0 || (du(pos) == 0 && dv(pos) == 0)) continue;
      moves.push_back("rows " + span(u, 8) + " x columns " + span(v, 8) +
                      " hold the values of rows " + span(u + du(pos), 8) + " x columns " +
                      span(v + dv(pos), 8));
    }
    fix = fragment_fix;
    return "8 x 8 blocks exchanged within every " + tile + " tile of C: " + join(moves, "; ", "; ");
  }
  for (int pos = 0; pos < T * T && moves.size() < 4; ++pos) {
    if (src[pos] == pos) continue;
    moves.push_back("(" + std::to_string(pos / T) + ", " + std::to_string(pos % T) + ") holds (" +
                    std::to_string(src[pos] / T) + ", " + std::to_string(src[pos] % T) + ")");
  }
  if (quads) {
    fix =
        "a lane takes a value from the wrong lane of its quad: check the source lane of each "
        "__shfl_sync and which element of the 2 x 2 block each quad lane owns.";
    return "values moved within every 2 x 2 block of C (one quad's), e.g. " +
           join(moves, ", ", ", ");
  }
  fix =
      "the accumulators are stored in the wrong places: check the fragment coordinates "
      "(c_fragment_coord), the ldmatrix lane addresses and the warp tile offsets.";
  return "values moved within every " + tile + " tile of C, e.g. " + join(moves, ", ", ", ");
}

// The right values in the wrong places: within every 16 x 16 tile of C (the tile of one
// m16n8k16 pair, of a quad's 2 x 2 blocks), element (u, v) holds alpha * (A·B)(u', v') + beta *
// C0(u, v) for a fixed (u', v'), a position outside C holding a product of 0 (a zero-filled tile).
Finding detect_displaced_values(const Evidence& e) {
  constexpr int T = 16;
  const int M = e.M, N = e.N;
  if (M <= T && N <= T) return {};  // one tile: a whole-matrix pattern would fit too
  const int wr = std::min(M, 2 * T), wc = std::min(N, 8 * T);
  const int sr = std::min<int>(M, static_cast<int>(round_up(wr, T)));
  std::vector<const double*> P(sr), AP(sr);
  for (int i = 0; i < sr; ++i) P[i] = e.product_row(i), AP[i] = e.abs_product_row(i);
  const int TT = T * T;
  for (int variant = 0; variant < (e.beta != 0.0 ? 2 : 1); ++variant) {
    // variant 0: beta * C0 of the element's own place; 1: of the source place too.
    std::vector<char> ok(static_cast<std::size_t>(TT) * TT, 1), wit(ok.size(), 0);
    for (int i = 0; i < wr; ++i) {
      for (int j = 0; j < wc; ++j) {
        const int u = i % T, v = j % T, ti = i - u, tj = j - v, pos = u * T + v;
        const double g = e.got(i, j), c = e.c0(i, j), ref = e.reference(i, j), rb = e.bound(i, j);
        for (int s = 0; s < TT; ++s) {
          const std::size_t k = static_cast<std::size_t>(pos) * TT + s;
          if (!ok[k]) continue;
          const int si = ti + s / T, sj = tj + s % T;
          const bool inside = si < M && sj < N;
          const double pr = inside ? P[si][sj] : 0.0, ab = inside ? AP[si][sj] : 0.0;
          const double cc = (variant == 1 && inside) ? e.c0(si, sj) : c;
          const double m = e.alpha * pr + e.beta * cc;
          const double size = std::fabs(e.alpha) * ab + std::fabs(e.beta * cc);
          if (!e.fits(g, m, size)) {
            ok[k] = 0;
          } else if (!close(m, ref, rb) && e.nonzero(e.alpha * pr, size)) {
            wit[k] = 1;
          }
        }
      }
    }
    // Each position's source: itself where that fits, else the candidate with a witness whose
    // displacement most positions share.
    std::vector<int> src(TT, -1);
    std::vector<int> count(static_cast<std::size_t>(4 * T * T), 0);  // by displacement
    auto key = [&](int pos, int s) {
      return (s / T - pos / T + T) * 2 * T + (s % T - pos % T + T);
    };
    bool fits = true;
    for (int pos = 0; pos < TT && fits; ++pos) {
      if (ok[static_cast<std::size_t>(pos) * TT + pos]) {
        src[pos] = pos;
        continue;
      }
      int n = 0, only = -1;
      for (int s = 0; s < TT; ++s)
        if (ok[static_cast<std::size_t>(pos) * TT + s]) ++n, only = s;
      fits = n > 0;
      if (n == 1) ++count[key(pos, only)];
    }
    if (!fits) continue;
    bool any = false;
    for (int pos = 0; pos < TT; ++pos) {
      if (src[pos] == pos) continue;
      int best = -1;
      for (int s = 0; s < TT; ++s) {
        const std::size_t k = static_cast<std::size_t>(pos) * TT + s;
        if (ok[k] && wit[k] && (best < 0 || count[key(pos, s)] > count[key(pos, best)])) best = s;
      }
      if (best < 0) {
        for (int s = 0; s < TT && best < 0; ++s)
          if (ok[static_cast<std::size_t>(pos) * TT + s]) best = s;
      } else {
        any = true;
      }
      src[pos] = best;
    }
    if (!any) continue;
    std::string fix;
    std::string seen = "the right values in the wrong places: " + describe_moves(src, T, fix);
    if (variant == 1) seen += " (the read of C moved with them)";
    return Diagnosis{seen, fix, true};
  }
  return {};
}

// A or B multiplied with its 8 x 8 sub-matrices in the wrong registers of an m16n8k16 fragment:
// register q of A holds rows 8 * (q % 2) .. + 7 at k 8 * (q / 2) .. + 7 of every 16 x 16 block;
// register q of a B pair holds k 8 * (q % 2) .. + 7 of columns 8 * (q / 2) .. + 7. The model: the
// block that register q should hold replaced by block perm[q]. Exchanges that move only whole rows
// (A) or whole columns (B) of C are left to detect_displaced_values, which sees them as moves.
Finding detect_operand_block_exchange(const Evidence& e) {
  const int M = e.M, N = e.N, K = e.K;
  const int wr = std::min(M, 32), wc = std::min(N, 32);
  const int Rp = static_cast<int>(round_up(wr, 16)), Cp = static_cast<int>(round_up(wc, 16));
  const int Kp = static_cast<int>(round_up(K, 16));
  MatD Az = MatD::Zero(Rp, Kp), Bz = MatD::Zero(Kp, Cp);
  for (int i = 0; i < std::min(M, Rp); ++i)
    for (int k = 0; k < K; ++k) Az(i, k) = e.a(i, k);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < std::min(N, Cp); ++j) Bz(k, j) = e.b(k, j);
  std::vector<double> ref(static_cast<std::size_t>(wr) * wc), rb(ref.size());
  for (int i = 0; i < wr; ++i)
    for (int j = 0; j < wc; ++j)
      ref[i * wc + j] = e.reference(i, j), rb[i * wc + j] = e.bound(i, j);
  // Block q: A (row half q % 2, k half q / 2); B (k half q % 2, column half q / 2).
  auto block_name = [](bool on_a, int q) {
    return on_a ? "rows " + span(8 * (q % 2), 8) + ", k " + span(8 * (q / 2), 8)
                : "k " + span(8 * (q % 2), 8) + " of columns " + span(8 * (q / 2), 8);
  };
  for (int on_a = 1; on_a >= 0; --on_a) {
    std::array<int, 4> perm = {0, 1, 2, 3};
    while (std::next_permutation(perm.begin(), perm.end())) {
      bool k_kept = true, other_kept = true;
      for (int q = 0; q < 4; ++q) {
        k_kept = k_kept && (on_a ? perm[q] / 2 == q / 2 : perm[q] % 2 == q % 2);
        other_kept = other_kept && (on_a ? perm[q] % 2 == q % 2 : perm[q] / 2 == q / 2);
      }
      if (k_kept) continue;  // whole rows or columns of C moved
      if (!on_a && other_kept && perm[0] == 1 && perm[2] == 3) continue;  // as A's k swap
      MatD X = on_a ? Az : Bz;
      const MatD& from = on_a ? Az : Bz;
      for (int R0 = 0; R0 < X.rows(); R0 += 16)
        for (int C0 = 0; C0 < X.cols(); C0 += 16)
          for (int q = 0; q < 4; ++q) {
            // Rows of X are A's rows (A) or k (B): half q % 2; columns k (A) or B's columns (B).
            X.block(R0 + 8 * (q % 2), C0 + 8 * (q / 2), 8, 8) =
                from.block(R0 + 8 * (perm[q] % 2), C0 + 8 * (perm[q] / 2), 8, 8);
          }
      const MatD Pm = on_a ? MatD(X * Bz) : MatD(Az * X);
      const MatD Am =
          on_a ? MatD(X.cwiseAbs() * Bz.cwiseAbs()) : MatD(Az.cwiseAbs() * X.cwiseAbs());
      bool fits = true, witness = false;
      for (int i = 0; i < wr && fits; ++i)
        for (int j = 0; j < wc && fits; ++j) {
          const double c = e.c0(i, j);
          const double m = e.alpha * Pm(i, j) + e.beta * c;
          const double size = std::fabs(e.alpha) * Am(i, j) + std::fabs(e.beta * c);
          fits = e.fits(e.got(i, j), m, size);
          if (fits && !close(m, ref[i * wc + j], rb[i * wc + j]) &&
              e.nonzero(e.alpha * Pm(i, j), size))
            witness = true;
        }
      if (!fits || !witness) continue;
      std::vector<std::string> wrong;
      for (int q = 0; q < 4; ++q)
        if (perm[q] != q) {
          wrong.push_back("register " + std::to_string(q) + " holds " + block_name(on_a, perm[q]) +
                          " (it must hold " + block_name(on_a, q) + ")");
        }
      const std::string what = on_a ? "A" : "B";
      return Diagnosis{
          "the 8 x 8 sub-matrices of " + what +
              " reach the wrong registers of the m16n8k16 fragment (ldmatrix register "
              "pairing), in every 16 x 16 block: " +
              join(wrong, "; ", "; "),
          on_a ? "ldmatrix.x4 puts the matrix whose rows lanes 8q .. 8q + 7 address into register "
                 "q, and the mma reads register 0 as rows 0-7, k 0-7, 1 as rows 8-15, k 0-7, 2 as "
                 "rows 0-7, k 8-15, 3 as rows 8-15, k 8-15: give each group of 8 lanes the rows "
                 "of its register (a_fragment_coord of a0, a2, a4, a6)."
               : "ldmatrix.x4 puts the matrix whose rows lanes 8q .. 8q + 7 address into register "
                 "q; for a pair of n8 tiles of B, registers 0 and 1 are k 0-7 and 8-15 of the "
                 "first 8 columns, 2 and 3 the same of the next 8 (b_fragment_coord of b0, b2).",
          true};
    }
  }
  return {};
}

// The last partial tile along K skipped: the result equals the product over k < K - K % T. With
// K < T (K = 1, say) nothing is summed at all.
Finding detect_skipped_k_tail(const Evidence& e) {
  const int K = e.K, N = e.N;
  std::vector<std::pair<int, std::vector<int>>> tails;  // k summed, and the tiles that give it
  for (int T = 8; T <= 256; T *= 2) {
    if (K % T == 0) continue;
    const int kk = K - K % T;
    if (tails.empty() || tails.back().first != kk) tails.push_back({kk, {}});
    tails.back().second.push_back(T);
  }
  const std::size_t rows = std::min<std::size_t>(e.c.rows.size(), 8);
  for (const auto& tail : tails) {
    const int kk = tail.first;
    bool all = true;
    Departure d;
    for (std::size_t ri = 0; ri < rows && all; ++ri) {
      const int i = e.c.rows[ri];
      for (int j = 0; j < N && all; ++j) {
        double acc = 0, abs = 0;
        for (int k = 0; k < kk; ++k) {
          const double v = e.a(i, k) * e.b(k, j);
          acc += v;
          abs += std::fabs(v);
        }
        const double c = e.c0(i, j);
        const double m = e.alpha * acc + e.beta * c;
        all = e.fits(e.got(i, j), m, std::fabs(e.alpha) * abs + std::fabs(e.beta * c));
        d.add(m, e.c.R(ri, j), e.c.bound(ri, j));
      }
    }
    if (!all || !d.differs(e.p.tol)) continue;
    std::vector<std::string> tiles;
    for (int T : tail.second) tiles.push_back(std::to_string(T));
    std::ostringstream o;
    Diagnosis found;
    if (kk == 0) {
      o << "nothing is summed along K: K = " << K << " is less than one tile (of "
        << tail.second.front()
        << " or more), and the last partial tile along K is skipped (k >= 0 never summed); a "
           "value taken from past M or N (a fragment stored in the wrong place) reads 0 too";
      found.could_also_be = {"displaced_values"};
    } else {
      o << "the last partial tile along K is skipped (k >= " << kk << " never summed; a tile of "
        << join(tiles, ", ", " or ") << " fits)";
    }
    found.seen = o.str();
    found.fix = "loop over ceil(K / TILE) = (K + TILE - 1) / TILE tiles and zero-fill past K.";
    found.exact = true;
    return found;
  }
  return {};
}

Finding detect_alpha_beta(const Evidence& e) {
  const double a = e.alpha, b = e.beta;
  struct Model {
    const char* what;
    std::function<double(std::size_t, int, int)> f;
  };
  const MatD& P = e.c.P;
  const std::vector<Model> models = {
      {"alpha*A*B + C: beta is ignored (taken as 1)",
       [&](std::size_t ri, int i, int j) { return a * P(ri, j) + e.c0(i, j); }},
      {"alpha*A*B: the beta*C term is missing",
       [&](std::size_t ri, int, int j) { return a * P(ri, j); }},
      {"A*B + beta*C: alpha is ignored (taken as 1)",
       [&](std::size_t ri, int i, int j) { return P(ri, j) + b * e.c0(i, j); }},
      {"A*B: alpha and beta are both ignored",
       [&](std::size_t ri, int, int j) { return P(ri, j); }},
      {"A*B + C: alpha and beta are both ignored",
       [&](std::size_t ri, int i, int j) { return P(ri, j) + e.c0(i, j); }},
      {"beta*A*B + alpha*C: alpha and beta are swapped",
       [&](std::size_t ri, int i, int j) { return b * P(ri, j) + a * e.c0(i, j); }},
  };
  for (const Model& m : models) {
    if (explains(e, m.f)) {
      return Diagnosis{std::string("alpha/beta: the result equals ") + m.what,
                       "C = alpha * (A*B) + beta * C, with C read only when beta != 0.", true};
    }
  }
  return {};
}

Finding detect_scale_factor(const Evidence& e) {
  if (e.c.rows.size() * static_cast<std::size_t>(e.N) < 4) return {};  // one factor fits anything
  double gr = 0, rr = 0;
  for (std::size_t ri = 0; ri < e.c.rows.size(); ++ri)
    for (int j = 0; j < e.N; ++j) {
      gr += e.got(e.c.rows[ri], j) * e.c.R(ri, j);
      rr += e.c.R(ri, j) * e.c.R(ri, j);
    }
  if (!(rr > 0) || !std::isfinite(gr)) return {};
  const double f = gr / rr;
  if (std::fabs(f - 1.0) <= 1e-3 || std::fabs(f) <= 1e-3) return {};
  if (!explains(e, [&](std::size_t ri, int, int j) { return f * e.c.R(ri, j); })) return {};
  return Diagnosis{"everything is off by a factor of " + num(f),
                   "alpha or beta applied twice, or a scale missing.", true};
}

// Elements that hold no product at all (alpha * 0 + beta * C0) while the rest is right. A value
// moved onto them from a place past M or N (a fragment or 8 x 8 block in the wrong place, reading
// the zeros of a padded tile) and a sum that never ran for them look alike; a larger shape, where
// the moved values come from inside C, tells them apart.
Finding detect_zero_products(const Evidence& e) {
  long zeros = 0;
  int r0 = e.M, r1 = -1, c0 = e.N, c1 = -1;
  for (std::size_t ri = 0; ri < e.c.rows.size(); ++ri) {
    const int i = e.c.rows[ri];
    for (int j = 0; j < e.N; ++j) {
      const double c = e.c0(i, j), size = std::fabs(e.alpha) * e.c.absP(ri, j);
      const bool zero = e.fits(e.got(i, j), e.beta * c, std::fabs(e.beta * c)) &&
                        e.nonzero(e.alpha * e.c.P(ri, j), size + std::fabs(e.beta * c));
      if (!zero) {
        if (e.bad[ri * e.N + j]) return {};
        continue;
      }
      ++zeros;
      r0 = std::min(r0, i), r1 = std::max(r1, i), c0 = std::min(c0, j), c1 = std::max(c1, j);
    }
  }
  if (zeros == 0) return {};
  std::ostringstream o;
  o << zeros << " element(s) hold no product at all (alpha * 0 + beta * C), within rows " << r0
    << ".." << r1 << " and columns " << c0 << ".." << c1 << "; the rest is right";
  Diagnosis d{o.str(),
              "either values moved onto them from past M or N (a fragment or 8 x 8 block stored "
              "in the wrong place, its source a zero-filled part of a tile) or their sums never "
              "ran (a loop bound, an early return)",
              false};
  d.could_also_be = {"displaced_values"};
  return d;
}

// Only the ragged edge wrong: the last partial tile of rows or columns.
Finding detect_ragged_edge(const Evidence& e) {
  const int M = e.M, N = e.N;
  for (int T = 8; T <= 256; T *= 2) {
    const int rm = M - M % T, cn = N - N % T;
    if ((M % T == 0 && N % T == 0) || rm == 0 || cn == 0) continue;
    bool edge_only = true, any = false;
    for (std::size_t ri = 0; ri < e.c.rows.size() && edge_only; ++ri)
      for (int j = 0; j < N && edge_only; ++j)
        if (e.bad[ri * N + j]) {
          any = true;
          if (e.c.rows[ri] < rm && j < cn) edge_only = false;
        }
    if (any && edge_only) {
      std::ostringstream o;
      o << "only the ragged edge is wrong (";
      if (M % T) o << "rows >= " << rm << (N % T ? ", " : "");
      if (N % T) o << "columns >= " << cn;
      o << ": the last partial " << T << "-wide tile)";
      return Diagnosis{
          o.str(), "a missing or off-by-one bounds guard where the tile runs past M or N.", false};
    }
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
    {"quad_shuffle_source", detect_quad_shuffle_source},
    {"displaced_values", detect_displaced_values},
    {"operand_block_exchange", detect_operand_block_exchange},
    {"skipped_k_tail", detect_skipped_k_tail},
    {"alpha_beta", detect_alpha_beta},
    {"scale_factor", detect_scale_factor},
    {"zero_products", detect_zero_products},
    {"ragged_edge", detect_ragged_edge},
    {"unwritten_elements", detect_unwritten_elements},
    {"scattered_errors", detect_scattered_errors},
};

struct Cause {
  std::string text, id;
  std::vector<std::string> candidates;
  bool model = false;
};

Cause likely_cause(const Evidence& e) {
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

VerifyReport verify_core(const Problem& p, VerifyReport r, const VerifyOptions& o) {
  const GemmShape& s = p.s;
  const int M = s.M, N = s.N, K = s.K;
  const std::size_t MN = static_cast<std::size_t>(M) * N;
  r.shape = s;
  r.label = o.label;
  r.frobenius_limit = p.tol.frobenius;

  for (std::size_t e = 0; e < MN; ++e) {
    const float g = p.got[e];
    const std::uint32_t bits = bits_of(g);
    if (!std::isfinite(g)) ++r.nonfinite;
    if (s.beta == 0.0f ? bits == p.poison : (p.C0 != nullptr && bits == bits_of(p.C0[e])))
      ++r.unwritten;
  }

  Compared c;
  c.rows = rows_to_check(s, o, r.sampled);
  const int nr = static_cast<int>(c.rows.size());
  MatD As(nr, K);
  for (int ri = 0; ri < nr; ++ri)
    for (int k = 0; k < K; ++k) As(ri, k) = p.A[static_cast<std::size_t>(c.rows[ri]) * K + k];
  c.B = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
            p.B, K, N)
            .cast<double>();
  c.absB = c.B.cwiseAbs();
  c.P.noalias() = As * c.B;
  c.absP.noalias() = As.cwiseAbs() * c.absB;
  c.R.resize(nr, N);
  c.bound.resize(nr, N);
  const double floor = p.tol.element * 1e-30;
  for (int ri = 0; ri < nr; ++ri) {
    for (int j = 0; j < N; ++j) {
      const double c0 =
          (s.beta != 0.0f && p.C0) ? p.C0[static_cast<std::size_t>(c.rows[ri]) * N + j] : 0.0;
      c.R(ri, j) = s.alpha * c.P(ri, j) + s.beta * c0;
      c.bound(ri, j) =
          p.tol.element * (std::fabs(s.alpha) * c.absP(ri, j) + std::fabs(s.beta * c0)) + floor;
    }
  }

  std::vector<char> bad(static_cast<std::size_t>(nr) * N, 0), unw(bad.size(), 0),
      nonf(bad.size(), 0);
  double err2 = 0, ref2 = 0;
  for (int ri = 0; ri < nr; ++ri) {
    for (int j = 0; j < N; ++j) {
      const std::size_t g = static_cast<std::size_t>(c.rows[ri]) * N + j;
      const std::size_t e = static_cast<std::size_t>(ri) * N + j;
      const double got = p.got[g], want = c.R(ri, j);
      ++r.checked;
      const std::uint32_t bits = bits_of(p.got[g]);
      unw[e] = s.beta == 0.0f ? bits == p.poison : (p.C0 != nullptr && bits == bits_of(p.C0[g]));
      nonf[e] = !std::isfinite(got);
      const double diff = std::fabs(got - want);
      err2 += std::isfinite(got) ? diff * diff : INFINITY;
      ref2 += want * want;
      const double ratio = std::isfinite(got) ? diff / c.bound(ri, j) : INFINITY;
      r.worst_ratio = std::max(r.worst_ratio, ratio);
      if (!close(got, want, c.bound(ri, j))) {
        bad[e] = 1;
        ++r.wrong;
        if (static_cast<int>(r.mismatches.size()) < o.max_listed)
          r.mismatches.push_back({c.rows[ri], j, got, want, c.bound(ri, j)});
      }
    }
  }
  r.rows_checked = nr;
  r.rel_frobenius = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  r.passed = r.wrong == 0 && r.nonfinite == 0 && r.canary_before == 0 && r.canary_after == 0 &&
             r.rel_frobenius <= p.tol.frobenius;
  if (!r.passed) {
    int tile = 0;
    r.tile_map = tile_map(p, c, bad, unw, nonf, tile);
    const Cause cause = likely_cause(Evidence(p, c, r, bad));
    r.cause = cause.text;
    r.cause_id = cause.id;
    r.candidates = cause.candidates;
    r.cause_is_model = cause.model;
  }
  return r;
}

Tolerance resolve(const VerifyOptions& o, Tolerance fallback) {
  return (o.tolerance.element > 0 && o.tolerance.frobenius > 0) ? o.tolerance : fallback;
}

void check_sizes(const GemmShape& s, std::size_t a, std::size_t b, std::size_t c0,
                 std::size_t guarded) {
  if (s.M < 1 || s.N < 1 || s.K < 1) throw std::invalid_argument("verify: M, N, K must be >= 1");
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N;
  if (a != static_cast<std::size_t>(s.M) * s.K || b != static_cast<std::size_t>(s.K) * s.N ||
      (s.beta != 0.0f && c0 != MN) || guarded != MN + 2 * guard_band(s.M, s.N)) {
    throw std::invalid_argument("verify: buffer sizes do not match " + s.str());
  }
}

}  // namespace

std::size_t guard_band(int M, int N) {
  (void)M;
  // A few tiles of 128 rows past the end, capped so huge problems do not double their memory.
  return std::min<std::size_t>(static_cast<std::size_t>(N) * 256 + 1024, std::size_t(1) << 22);
}

namespace {

template <class P>
std::vector<typename P::Element> guarded_output(const GemmShape& s,
                                                const std::vector<typename P::Element>& C0) {
  using Mark = Marks<typename P::Element>;
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N, band = guard_band(s.M, s.N);
  std::vector<typename P::Element> out(MN + 2 * band, Mark::of(Mark::kCanary));
  for (std::size_t e = 0; e < MN; ++e)
    out[band + e] = s.beta == 0.0f ? Mark::of(Mark::kPoison) : C0.at(e);
  return out;
}

}  // namespace

std::vector<float> make_guarded_output(const GemmShape& s, const std::vector<float>& C0) {
  return guarded_output<Fp32>(s, C0);
}

std::vector<bf16> make_guarded_output(const GemmShape& s, const std::vector<bf16>& C0) {
  return guarded_output<Bf16>(s, C0);
}

const std::vector<std::string>& diagnosis_detectors() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Detector& d : kDetectors) n.push_back(d.name);
    return n;
  }();
  return names;
}

namespace {

// The check of a result of precision P: the canaries, then the core on the problem in float, with
// B as K x N (a B given N x K, as P::kBLayout says, transposed for it).
template <class P>
VerifyReport verify_precision(const GemmShape& s, const std::vector<typename P::Element>& A,
                              const std::vector<typename P::Element>& B,
                              const std::vector<typename P::Element>& C0,
                              const std::vector<typename P::Element>& guarded_out,
                              const VerifyOptions& options) {
  using Mark = Marks<typename P::Element>;
  check_sizes(s, A.size(), B.size(), C0.size(), guarded_out.size());
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N, band = guard_band(s.M, s.N);
  VerifyReport r;
  scan_canaries(guarded_out, MN, band, Mark::kCanary, r);
  std::vector<float> a, b, b_kernel, c0, got;  // the float copies of bf16 inputs
  Problem p;
  p.s = s;
  p.A = floats_of(A.data(), A.size(), a);
  p.B_kernel = floats_of(B.data(), B.size(), b_kernel);
  p.b_n_by_k = P::kBLayout == BLayout::kNByK;
  p.B = p.B_kernel;
  if (p.b_n_by_k) {  // B is N x K; the core wants K x N
    b.resize(B.size());
    for (int n = 0; n < s.N; ++n)
      for (int k = 0; k < s.K; ++k)
        b[static_cast<std::size_t>(k) * s.N + n] =
            p.B_kernel[static_cast<std::size_t>(n) * s.K + k];
    p.B = b.data();
  }
  p.C0 = s.beta != 0.0f ? floats_of(C0.data(), MN, c0) : nullptr;
  p.got = floats_of(guarded_out.data() + band, MN, got);
  p.poison = bits_of(widen(Mark::of(Mark::kPoison)));
  p.tol = resolve(options, P::tolerance(s.K));
  p.after_hit = canary_hits_after(guarded_out, MN, band, Mark::kCanary, r);
  return verify_core(p, r, options);
}

}  // namespace

VerifyReport verify_gemm(const GemmShape& s, const std::vector<float>& A,
                         const std::vector<float>& B, const std::vector<float>& C0,
                         const std::vector<float>& guarded_out, const VerifyOptions& options) {
  return verify_precision<Fp32>(s, A, B, C0, guarded_out, options);
}

VerifyReport verify_gemm(const GemmShape& s, const std::vector<bf16>& A, const std::vector<bf16>& B,
                         const std::vector<bf16>& C0, const std::vector<bf16>& guarded_out,
                         const VerifyOptions& options) {
  return verify_precision<Bf16>(s, A, B, C0, guarded_out, options);
}

std::string VerifyReport::describe() const {
  std::ostringstream o;
  const std::string name = label.empty() ? "gemm" : label;
  if (passed) {
    o << "passed " << name << " " << shape.str() << ": relative error " << sci(rel_frobenius)
      << " (limit " << sci(frobenius_limit) << "), worst element " << sci(worst_ratio)
      << " of its bound, " << checked << " elements compared"
      << (sampled ? " (" + std::to_string(rows_checked) + " sampled rows)" : "") << "\n";
    return o.str();
  }
  o << "FAILED " << name << " " << shape.str() << "\n";
  o << "  compared " << checked << " elements ("
    << (sampled ? std::to_string(rows_checked) + " sampled rows"
                : "all " + std::to_string(rows_checked) + " rows")
    << ") with Eigen in double: " << wrong << " wrong; in all of C: " << nonfinite << " NaN/Inf, "
    << unwritten << " never written\n";
  o << "  canaries around C: ";
  if (canary_before == 0 && canary_after == 0) {
    o << "intact\n";
  } else {
    o << canary_before << " overwritten before C, " << canary_after << " after it\n";
  }
  o << "  relative error |C-R|/|R| = " << sci(rel_frobenius) << " (limit " << sci(frobenius_limit)
    << "); worst element " << sci(worst_ratio) << " x its bound\n";
  if (!mismatches.empty()) {
    o << "  first mismatches (row, col, got, expected):\n";
    for (const Mismatch& m : mismatches) {
      o << "    (" << m.row << ", " << m.col << ", " << num(m.got) << ", " << num(m.expected)
        << ")\n";
    }
  }
  o << tile_map;
  o << "  likely cause: " << cause << "\n";
  return o.str();
}

}  // namespace course
