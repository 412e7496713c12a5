#include "common/verify.hpp"

#include "common/bits.hpp"
#include "common/diagnosis.hpp"
#include "common/precision.hpp"
#include "common/verify_detail.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace course {

std::string GemmShape::str() const {
  std::ostringstream o;
  o << "M=" << M << " N=" << N << " K=" << K << " alpha=" << alpha << " beta=" << beta;
  return o.str();
}

namespace {

using verify_detail::close;
using verify_detail::Compared;
using verify_detail::MatD;
using verify_detail::Problem;
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
    const verify_detail::Result result(p, c, r, bad);
    Evidence evidence(result, o.kernel);
    explain(evidence, r, o.lesson);
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
  o << "  likely cause: " << cause << "\n";  // first: what a learner reads before the evidence
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
  return o.str();
}

CpuSgemm time_cpu_sgemm(int n, int runs) {
  CpuSgemm r;
  r.n = n;
  r.threads = Eigen::nbThreads();
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Mat A = Mat::Random(n, n), B = Mat::Random(n, n);
  Mat C(n, n);
  C.noalias() = A * B;  // untimed: the first touch of C's pages
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    C.noalias() = A * B;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (i == 0 || ms < r.ms) r.ms = ms;
  }
  // Read C, so the product cannot be left out.
  if (!std::isfinite(C(n - 1, n - 1))) r.ms = 0;
  return r;
}

}  // namespace course
