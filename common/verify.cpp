#include "common/verify.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <sstream>

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
  std::memcpy(&h, &u, sizeof h);
  return h;
}
// bf16 is the top half of a float: widening is a shift, exact, and keeps NaN payloads.
float widen(bf16 h) {
  return float_of(static_cast<std::uint32_t>(bits_of(h)) << 16);
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

// Everything the checks need, in float (bf16 inputs are widened exactly).
struct Problem {
  GemmShape s;
  const float* A;    // M x K
  const float* B;    // K x N
  const float* C0;   // M x N (nullptr when beta == 0)
  const float* got;  // M x N
  std::uint32_t poison;
  Tolerance tol;
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

// Does `model(i, j)` explain every compared element within its bound (and differ from R)?
bool explains(const Problem& p, const Compared& c,
              const std::function<double(std::size_t, int, int)>& model) {
  bool differs = false;
  for (std::size_t ri = 0; ri < c.rows.size(); ++ri) {
    for (int j = 0; j < p.s.N; ++j) {
      const double m = model(ri, c.rows[ri], j);
      const double got = p.got[static_cast<std::size_t>(c.rows[ri]) * p.s.N + j];
      const double bound = c.bound(ri, j) + p.tol.element * std::fabs(m);
      if (!close(got, m, bound)) return false;
      if (!close(m, c.R(ri, j), c.bound(ri, j))) differs = true;
    }
  }
  return differs;
}

std::string likely_cause(const Problem& p, const Compared& c, const VerifyReport& r,
                         const std::vector<char>& bad) {
  const GemmShape& s = p.s;
  const int M = s.M, N = s.N;
  const std::size_t MN = static_cast<std::size_t>(M) * N;

  if (r.canary_after > 0 || r.canary_before > 0) {
    std::ostringstream o;
    o << "out-of-bounds write: " << r.canary_after << " value(s) written past the end of C";
    if (r.canary_before > 0) o << " and " << r.canary_before << " before its start";
    if (r.first_after >= 0) {
      o << " (the first at row " << M + r.first_after / N << ", column " << r.first_after % N
        << " if C went on)";
    }
    o << " -> a missing bounds guard: threads whose row >= M or column >= N must not write.";
    return o.str();
  }

  // Untouched elements, over the whole of C.
  if (r.unwritten == static_cast<long>(MN)) {
    return "nothing was written to C: did the kernel launch at all (a launch error ignored, a grid "
           "of zero blocks) and does it store to C?";
  }
  std::vector<char> untouched(MN, 0);
  for (std::size_t e = 0; e < MN; ++e) {
    const std::uint32_t b = bits_of(p.got[e]);
    untouched[e] = (s.beta == 0.0f) ? b == p.poison : (p.C0 != nullptr && b == bits_of(p.C0[e]));
  }
  if (s.beta == 0.0f && r.nonfinite > 0 && r.unwritten < r.nonfinite) {
    if (r.nonfinite - r.unwritten == static_cast<long>(MN) - r.unwritten) {
      return "every written element is NaN and beta == 0: the kernel reads C, which the check "
             "filled with NaN (with beta == 0, BLAS never reads C), and beta*C = 0*NaN = NaN. "
             "Skip the read of C when beta == 0.";
    }
  }
  if (r.unwritten > 0) {
    // Is the unwritten part a band of last rows and/or last columns (a grid that is too small)?
    int r0 = M, c0 = N;
    while (r0 > 0) {
      bool all = true;
      for (int j = 0; j < N && all; ++j) all = untouched[static_cast<std::size_t>(r0 - 1) * N + j];
      if (!all) break;
      --r0;
    }
    while (c0 > 0) {
      bool all = true;
      for (int i = 0; i < M && all; ++i) all = untouched[static_cast<std::size_t>(i) * N + c0 - 1];
      if (!all) break;
      --c0;
    }
    bool band_only = true;
    for (int i = 0; i < M && band_only; ++i)
      for (int j = 0; j < N && band_only; ++j)
        if (untouched[static_cast<std::size_t>(i) * N + j] && i < r0 && j < c0) band_only = false;
    if (band_only && (r0 < M || c0 < N)) {
      std::ostringstream o;
      o << "grid too small: ";
      if (r0 < M) o << "rows " << r0 << ".." << M - 1 << (c0 < N ? " and " : "");
      if (c0 < N) o << "columns " << c0 << ".." << N - 1;
      o << " were never written, so the grid covers only " << r0 << " x " << c0
        << " -> round the block count up: (M + rows_per_block - 1) / rows_per_block.";
      return o.str();
    }
  }

  if (r.nonfinite > r.unwritten) {
    return "the kernel produced NaN or Inf: it reads memory nothing wrote (shared memory of a "
           "ragged tile not zero-filled, an uninitialised accumulator) or reads past A or B.";
  }

  // A transposed result: C(i, j) written at (j, i), or C written column-major.
  auto transposed = [&](bool col_major) {
    for (std::size_t ri = 0; ri < c.rows.size(); ++ri) {
      const int i = c.rows[ri];
      for (int j = 0; j < N; ++j) {
        const std::size_t e =
            col_major ? static_cast<std::size_t>(j) * M + i : static_cast<std::size_t>(j) * N + i;
        if (!close(p.got[e], c.R(ri, j), c.bound(ri, j))) return false;
      }
    }
    return true;
  };
  if ((M == N && transposed(false)) || (M != N && transposed(true))) {
    return "the result is transposed: C(row, col) landed at (col, row) -> row and column (y and "
           "x) are swapped in the index of C.";
  }

  // alpha and beta.
  const double a = s.alpha, b = s.beta;
  auto C0 = [&](int i, int j) {
    return p.C0 ? double(p.C0[static_cast<std::size_t>(i) * N + j]) : 0.0;
  };
  struct Model {
    const char* what;
    std::function<double(std::size_t, int, int)> f;
  };
  std::vector<Model> models = {
      {"alpha*A*B + C: beta is ignored (taken as 1)",
       [&](std::size_t ri, int i, int j) { return a * c.P(ri, j) + C0(i, j); }},
      {"alpha*A*B: the beta*C term is missing",
       [&](std::size_t ri, int, int j) { return a * c.P(ri, j); }},
      {"A*B + beta*C: alpha is ignored (taken as 1)",
       [&](std::size_t ri, int i, int j) { return c.P(ri, j) + b * C0(i, j); }},
      {"A*B: alpha and beta are both ignored",
       [&](std::size_t ri, int, int j) { return c.P(ri, j); }},
      {"A*B + C: alpha and beta are both ignored",
       [&](std::size_t ri, int i, int j) { return c.P(ri, j) + C0(i, j); }},
      {"beta*A*B + alpha*C: alpha and beta are swapped",
       [&](std::size_t ri, int i, int j) { return b * c.P(ri, j) + a * C0(i, j); }},
  };
  for (const Model& m : models) {
    if (explains(p, c, m.f)) return std::string("alpha/beta: the result equals ") + m.what + ".";
  }
  double gr = 0, rr = 0;
  for (std::size_t ri = 0; ri < c.rows.size(); ++ri)
    for (int j = 0; j < N; ++j) {
      gr += p.got[static_cast<std::size_t>(c.rows[ri]) * N + j] * c.R(ri, j);
      rr += c.R(ri, j) * c.R(ri, j);
    }
  if (rr > 0 && std::isfinite(gr)) {
    const double f = gr / rr;
    if (std::fabs(f - 1.0) > 1e-3 &&
        explains(p, c, [&](std::size_t ri, int, int j) { return f * c.R(ri, j); })) {
      return "everything is off by a factor of " + num(f) +
             " -> alpha or beta applied twice, or a scale missing.";
    }
  }

  // Only the ragged edge wrong: the last partial tile of rows or columns.
  for (int T = 8; T <= 256; T *= 2) {
    const int rm = M - M % T, cn = N - N % T;
    if ((M % T == 0 && N % T == 0) || rm == 0 || cn == 0) continue;
    bool edge_only = true, any = false;
    for (std::size_t ri = 0; ri < c.rows.size() && edge_only; ++ri)
      for (int j = 0; j < N && edge_only; ++j)
        if (bad[ri * N + j]) {
          any = true;
          if (c.rows[ri] < rm && j < cn) edge_only = false;
        }
    if (any && edge_only) {
      std::ostringstream o;
      o << "only the ragged edge is wrong (";
      if (M % T) o << "rows >= " << rm << (N % T ? ", " : "");
      if (N % T) o << "columns >= " << cn;
      o << ": the last partial " << T << "-wide tile) -> a missing or off-by-one bounds guard "
        << "where the tile runs past M or N.";
      return o.str();
    }
  }

  // The last partial tile along K skipped.
  for (int T = 8; T <= 256; T *= 2) {
    const int kk = s.K - s.K % T;
    if (s.K % T == 0 || kk == 0) continue;
    const std::size_t rows = std::min<std::size_t>(c.rows.size(), 8);
    bool all = true, differs = false;
    for (std::size_t ri = 0; ri < rows && all; ++ri) {
      const int i = c.rows[ri];
      for (int j = 0; j < N && all; ++j) {
        double acc = 0;
        for (int k = 0; k < kk; ++k)
          acc += double(p.A[static_cast<std::size_t>(i) * s.K + k]) *
                 p.B[static_cast<std::size_t>(k) * N + j];
        const double m = a * acc + b * C0(i, j);
        const double got = p.got[static_cast<std::size_t>(i) * N + j];
        all = close(got, m, c.bound(ri, j));
        if (!close(m, c.R(ri, j), c.bound(ri, j))) differs = true;
      }
    }
    if (all && differs) {
      return "the last partial tile along K is skipped (k >= " + std::to_string(kk) +
             "): loop over ceil(K / " + std::to_string(T) + ") tiles and zero-fill past K.";
    }
  }

  if (r.unwritten > 0) {
    return std::to_string(r.unwritten) +
           " element(s) were never written ('U' on the map): some threads return early or the "
           "index never reaches them.";
  }
  if (r.wrong * 20 < r.checked) {
    return "a few scattered wrong values: if they move from run to run it is a race (a missing "
           "__syncthreads() between filling and reading shared memory); otherwise look at the "
           "map and the first mismatches.";
  }
  return "wrong values without a pattern the checker knows: look at the map and the first "
         "mismatches, and compare one element by hand.";
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
  MatD Bd = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                p.B, K, N)
                .cast<double>();
  c.P.noalias() = As * Bd;
  c.absP.noalias() = As.cwiseAbs() * Bd.cwiseAbs();
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
    r.cause = likely_cause(p, c, r, bad);
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

std::string GemmShape::str() const {
  std::ostringstream o;
  o << "M=" << M << " N=" << N << " K=" << K << " alpha=" << alpha << " beta=" << beta;
  return o.str();
}

Tolerance Tolerance::fp32(int K) {
  const double t = 1e-5 * std::sqrt(static_cast<double>(std::max(K, 1)));
  return {t, t};
}
Tolerance Tolerance::bf16() {
  return {1e-2, 1e-2};
}

std::size_t guard_band(int M, int N) {
  (void)M;
  // A few tiles of 128 rows past the end, capped so huge problems do not double their memory.
  return std::min<std::size_t>(static_cast<std::size_t>(N) * 256 + 1024, std::size_t(1) << 22);
}

std::vector<float> make_guarded_output(const GemmShape& s, const std::vector<float>& C0) {
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N, band = guard_band(s.M, s.N);
  std::vector<float> out(MN + 2 * band, float_of(kCanaryF32));
  for (std::size_t e = 0; e < MN; ++e)
    out[band + e] = s.beta == 0.0f ? float_of(kPoisonF32) : C0.at(e);
  return out;
}

std::vector<bf16> make_guarded_output_bf16(const GemmShape& s, const std::vector<bf16>& C0) {
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N, band = guard_band(s.M, s.N);
  std::vector<bf16> out(MN + 2 * band, bf16_of(kCanaryBf16));
  for (std::size_t e = 0; e < MN; ++e)
    out[band + e] = s.beta == 0.0f ? bf16_of(kPoisonBf16) : C0.at(e);
  return out;
}

VerifyReport verify_sgemm(const GemmShape& s, const std::vector<float>& A,
                          const std::vector<float>& B, const std::vector<float>& C0,
                          const std::vector<float>& guarded_out, const VerifyOptions& options) {
  check_sizes(s, A.size(), B.size(), C0.size(), guarded_out.size());
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N, band = guard_band(s.M, s.N);
  VerifyReport r;
  scan_canaries(guarded_out, MN, band, kCanaryF32, r);
  Problem p{s,
            A.data(),
            B.data(),
            s.beta != 0.0f ? C0.data() : nullptr,
            guarded_out.data() + band,
            kPoisonF32,
            resolve(options, Tolerance::fp32(s.K))};
  return verify_core(p, r, options);
}

VerifyReport verify_bf16_gemm(const GemmShape& s, const std::vector<bf16>& A,
                              const std::vector<bf16>& B, const std::vector<bf16>& C0,
                              const std::vector<bf16>& guarded_out, const VerifyOptions& options) {
  check_sizes(s, A.size(), B.size(), C0.size(), guarded_out.size());
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N, band = guard_band(s.M, s.N);
  VerifyReport r;
  scan_canaries(guarded_out, MN, band, kCanaryBf16, r);
  std::vector<float> a(A.size()), b(B.size()), c0(s.beta != 0.0f ? MN : 0), got(MN);
  for (std::size_t i = 0; i < A.size(); ++i) a[i] = widen(A[i]);
  for (int n = 0; n < s.N; ++n)  // B is N x K; the core wants K x N
    for (int k = 0; k < s.K; ++k)
      b[static_cast<std::size_t>(k) * s.N + n] = widen(B[static_cast<std::size_t>(n) * s.K + k]);
  for (std::size_t e = 0; e < c0.size(); ++e) c0[e] = widen(C0[e]);
  for (std::size_t e = 0; e < MN; ++e) got[e] = widen(guarded_out[band + e]);
  Problem p{s,
            a.data(),
            b.data(),
            c0.empty() ? nullptr : c0.data(),
            got.data(),
            static_cast<std::uint32_t>(kPoisonBf16) << 16,
            resolve(options, Tolerance::bf16())};
  return verify_core(p, r, options);
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
