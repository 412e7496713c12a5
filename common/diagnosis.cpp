#include "common/diagnosis.hpp"

#include "common/bits.hpp"
#include "common/random.hpp"
#include "common/verify_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
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

  void go(GemmJob& g) {
    run(g);
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
      // A all ones: the counts say which rows of B are summed, whatever A's indices do (the
      // code probes below read those).
      GemmJob g = all_ones(r.s, 1.0f, 0.0f, kUnwritten, 0.0f);
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

  // A job with A all ones and B all `b`, C filled with `fill`.
  GemmJob all_ones(const GemmShape& s, float alpha, float beta, float fill, float b = 1.0f) {
    GemmJob g = blank(s, bf16, fill);
    g.s.alpha = alpha, g.s.beta = beta;
    for (int i = 0; i < s.M; ++i)
      for (int k = 0; k < s.K; ++k) A_at(g, i, k) = 1.0f;
    for (int k = 0; k < s.K; ++k)
      for (int j = 0; j < s.N; ++j) B_at(g, k, j) = b;
    return g;
  }

  // A ones, B all `b`, C filled with `fill`: got / (b K) when every element holds the same, else
  // NaN.
  double ones(const GemmShape& s, float alpha, float beta, float fill, float b = 1.0f) {
    GemmJob g = all_ones(s, alpha, beta, fill, b);
    go(g);
    const double first = C_of(g, 0);
    for (std::size_t e = 0; e < static_cast<std::size_t>(s.M) * s.N; ++e)
      if (C_of(g, e) != first) return NAN;
    return first / (b * s.K);
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

void scalars(Prober& p, ProbeReading& f) {
  const ProbeReading& r = f;
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
    // Products of 5/16: sums that are not whole (K = 40 gives 12.5), exact in bf16 too.
    f.fraction_scale = p.ones(r.s, 1.0f, 0.0f, kUnwritten, 0.3125f);
  }
  const int k0 = r.k0();
  const GemmShape& s = r.s;
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N;
  // Only the elements whose term k0 lands right tell the scalars.
  std::vector<std::size_t> right;
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j)
      if (k0 >= 0 && r.at_k0.a_row[r.at(i, j)] == i && r.at_k0.b_col[r.at(i, j)] == j)
        right.push_back(r.at(i, j));
  auto measure = [&](float alpha, float beta, double& x, double& y) {
    // A one on k0 only, B's row k0 1, 2, 3, ...; C small codes.
    GemmJob g = blank(s, p.bf16, kUnwritten);
    g.s.alpha = alpha, g.s.beta = beta;
    for (int i = 0; i < s.M; ++i) A_at(g, i, k0) = 1.0f;
    for (int j = 0; j < s.N; ++j) B_at(g, k0, j) = static_cast<float>(1 + j % 3);
    for (std::size_t e = 0; e < MN; ++e) g.out[g.c_at + e] = static_cast<float>(1 + e % 7);
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
  f.x20 = f.x23 = f.y23 = NAN;
  if (right.size() < 8) return;
  measure(2.0f, 0.0f, f.x20, unused);
  measure(2.0f, 3.0f, f.x23, f.y23);
}

ProbeReading read_shape(Prober& p, const GemmShape& shape, bool whole) {
  ProbeReading r;
  r.s = shape;
  r.whole = whole;
  const long hits_before = p.hits;
  p.counts(r);
  const std::size_t MN = static_cast<std::size_t>(shape.M) * shape.N;
  const int K = shape.K;
  r.a_index.assign(MN, kUnknown), r.b_index.assign(MN, kUnknown);
  r.b_n_by_k = p.bf16;
  r.wrong.assign(MN, 0);
  for (std::size_t e = 0; e < MN; ++e) {
    if (r.unwritten[e]) r.wrong[e] = 1;
    for (int k = 0; k < K; ++k)
      if (r.count[e * K + k] != 1) r.wrong[e] = 1;
  }
  if (!whole) {
    r.canaries_hit = p.hits - hits_before;
    return r;
  }
  int k0 = good_k(r);
  r.a_sums_right = p.sums_right(shape, true);
  r.b_sums_right = p.sums_right(shape, false);
  // B alone read wrong: its code probe (through A, read right) is clearest at a k whose row of
  // B is not summed once.
  if (r.a_sums_right && !r.b_sums_right) k0 = good_k(r, false);
  r.at_k0 = decode(p, r, k0, &r.a_index, &r.b_index);
  const ProbeReading::AtK& at = r.at_k0;
  for (int i = 0; i < shape.M; ++i)
    for (int j = 0; j < shape.N; ++j) {
      const std::size_t e = r.at(i, j);
      if (at.a_row[e] != i || at.a_k[e] != k0 || at.b_col[e] != j || at.b_row_k[e] != k0)
        r.wrong[e] = 1;
    }
  scalars(p, r);
  r.canaries_hit = p.hits - hits_before;
  return r;
}

}  // namespace

// Each set: odd N (the scalar paths), N and K multiples of 4 with the edges moved (the vector
// paths; an edge error follows the edge), K over several k-tiles and larger than M and N, and
// K over more k-tiles than a ring has stages (its second lap; term counts only); each with
// interior and edge tiles.
std::vector<std::vector<GemmShape>> probe_sets() {
  return {{{197, 283, 44}, {148, 332, 24}, {23, 37, 88}, {23, 37, 328}},
          {{256, 256, 64}, {384, 512, 32}, {128, 128, 192}, {128, 128, 512}}};
}

namespace {

// Fresh random inputs at s, seeded from the run seed and the shape, as check_gemm() lays them out:
// C random (beta != 0) or poisoned, canaries around it.
GemmJob random_job(const GemmShape& s, bool bf16) {
  GemmJob g;
  g.s = s;
  g.bf16 = g.b_n_by_k = bf16;
  auto draw = [&](const char* what, int rows, int cols) {
    std::vector<float> v = random_matrix<float>(rows, cols, derive_seed(what + (" " + s.str())));
    if (bf16)
      for (float& x : v) x = GemmJob::round_bf16(x);
    return v;
  };
  g.A = draw("A", s.M, s.K);
  g.B = bf16 ? draw("B", s.N, s.K) : draw("B", s.K, s.N);
  const std::vector<float> C0 = draw("C", s.M, s.N);
  g.c_at = guard_band(s.M, s.N);
  if (!bf16) {
    g.out = make_guarded_output(s, C0);
    return g;
  }
  std::vector<bf16_t> C(C0.size());
  for (std::size_t x = 0; x < C.size(); ++x) C[x] = narrow(C0[x]);
  for (const bf16_t& x : make_guarded_output(s, C)) g.out.push_back(widen(x));
  return g;
}

// A probe shape as a kernel of its precision takes it: K a multiple of 8 in bf16 (16-byte rows).
GemmShape for_kernel(GemmShape s, bool bf16) {
  if (bf16) s.K = (s.K + 7) / 8 * 8;
  return s;
}

// The probes of one kernel, at the first set of shapes it accepts.
std::shared_ptr<ProbeFindings> take_probes(const Kernel& kernel) {
  Prober p{kernel.run, kernel.bf16};
  for (const std::vector<GemmShape>& set : probe_sets()) {
    try {
      auto f = std::make_shared<ProbeFindings>();
      for (const GemmShape& s : set)  // the last, a ring's second lap, when a rule asks
        if (&s != &set.back())
          f->readings.push_back(read_shape(p, for_kernel(s, kernel.bf16), true));
      f->laps = for_kernel(set.back(), kernel.bf16);
      return f;
    } catch (const std::invalid_argument&) {
      continue;  // a precondition of the kernel: stricter shapes
    }
  }
  return nullptr;
}

// The kernel once on fresh random inputs at `s`, checked with the kernel at hand: the report.
VerifyReport check_random(const GemmRun& run, const GemmShape& s, bool bf16,
                          const VerifyOptions& options, const void* id);

}  // namespace

bool ProbeReading::any_wrong() const {
  return std::find(wrong.begin(), wrong.end(), 1) != wrong.end();
}

bool ProbeReading::shows_wrong() const {
  auto off = [](double v, double want) { return std::isfinite(v) && std::fabs(v - want) > 1e-3; };
  return any_wrong() || reads_c_when_beta0 || c_added_when_beta0 || off(x20, 2) || off(y23, 3) ||
         off(ones_scale, 1) || off(fraction_scale, 1);
}

const ProbeReading& ProbeFindings::primary() const {
  for (const ProbeReading& r : readings)
    if (r.any_wrong()) return r;
  return readings.front();
}

// ---- The evidence ------------------------------------------------------------------------------

Evidence::Evidence(const verify_detail::Result& result, const Kernel* kernel)
    : result_(result), kernel_(kernel) {}

const ProbeFindings* Evidence::probes() {
  if (probed_ || kernel_ == nullptr) return probes_.get();
  probed_ = true;
  // The probes do not depend on the failing shape: one kernel is probed once per program.
  static std::map<const void*, std::shared_ptr<ProbeFindings>> taken;
  if (kernel_->id != nullptr)
    if (const auto it = taken.find(kernel_->id); it != taken.end())
      return (probes_ = it->second).get();
  try {
    probes_ = take_probes(*kernel_);
  } catch (const std::exception& e) {
    probe_error_ = e.what();
  }
  if (probes_ && kernel_->id != nullptr) taken[kernel_->id] = probes_;
  return probes_.get();
}

const ProbeFindings* Evidence::probes_laps() {
  const ProbeFindings* f = probes();
  if (f == nullptr || f->readings.size() > 3 || f->laps.K == 0) return f;
  Prober p{kernel_->run, kernel_->bf16};
  try {
    probes_->readings.push_back(read_shape(p, f->laps, false));
  } catch (const std::exception& e) {
    probe_error_ = e.what();
  }
  return f;
}

const ProbeFindings* Evidence::probes_every_k() {
  const ProbeFindings* f = probes();
  if (f == nullptr || every_k_) return f;
  every_k_ = true;
  ProbeReading& r = probes_->readings[static_cast<std::size_t>(&f->primary() - f->readings.data())];
  if (!r.tile_k.empty() || r.k0() < 0) return f;
  Prober p{kernel_->run, kernel_->bf16};
  try {
    for (int k = r.k0() & ~15; k < std::min(r.s.K, (r.k0() & ~15) + 16); ++k)
      if (k != r.k0()) r.tile_k.push_back(decode(p, r, k, nullptr, nullptr));
  } catch (const std::exception& e) {
    probe_error_ = e.what();
  }
  return f;
}

namespace {
// The elements of C at `s` that change when the kernel runs twice on the same random inputs, with a
// run on other inputs between (empty when it refuses the shape).
std::vector<char> changes_at(const Kernel& kernel, GemmShape s) {
  s = for_kernel(s, kernel.bf16);
  GemmShape t = s;
  t.alpha += 1.0f;  // other seeds
  GemmJob g = random_job(s, kernel.bf16), first = g, other = random_job(t, kernel.bf16);
  try {
    kernel.run(first);
    kernel.run(other);
    kernel.run(g);
  } catch (const std::invalid_argument&) {
    return {};
  }
  std::vector<char> changed(static_cast<std::size_t>(s.M) * s.N, 0);
  for (std::size_t e = 0; e < changed.size(); ++e)
    changed[e] = bits_of(C_of(first, e)) != bits_of(C_of(g, e));
  return changed;
}
bool any(const std::vector<char>& v) {
  return std::find(v.begin(), v.end(), 1) != v.end();
}
}  // namespace

const std::vector<char>& Evidence::unstable() {
  if (ran_again_ || kernel_ == nullptr || !kernel_->again) return unstable_;
  ran_again_ = true;
  const std::size_t MN = static_cast<std::size_t>(result_.M) * result_.N;
  unstable_.assign(MN, 0);
  unstable_shape_ = result_.p.s;
  // Twice at most: a race may give the same wrong values two runs in a row.
  for (int run = 0; run < 2 && !any(unstable_); ++run) {
    const std::vector<float> again = kernel_->again();
    for (std::size_t e = 0; e < MN && e < again.size(); ++e) {
      const float a = again[e], b = result_.p.got[e];
      if (!(std::isnan(a) && std::isnan(b)) && bits_of(a) != bits_of(b)) unstable_[e] = 1;
    }
  }
  // A shape too small for the race (one k-tile: a second buffer never used): the main probe shape.
  if (!any(unstable_))
    if (std::vector<char> at = changes_at(*kernel_, probe_sets().front().front()); any(at)) {
      unstable_ = std::move(at);
      unstable_shape_ = for_kernel(probe_sets().front().front(), kernel_->bf16);
    }
  return unstable_;
}

long Evidence::unstable_count() {
  const std::vector<char>& u = unstable();
  return static_cast<long>(std::count(u.begin(), u.end(), 1));
}

int edge_tile(const std::vector<char>& where, int M, int N) {
  for (int T : {8, 16, 32, 64, 128, 256}) {
    const int rm = M / T * T, cn = N / T * T;
    if (rm == 0 || cn == 0 || (rm == M && cn == N)) continue;
    bool inside = false, any = false;
    for (int i = 0; i < M && !inside; ++i)
      for (int j = 0; j < N && !inside; ++j)
        if (where[static_cast<std::size_t>(i) * N + j]) (i < rm && j < cn ? inside : any) = true;
    if (any && !inside) return T;
  }
  return 0;
}

int Evidence::unstable_edge_tile() {
  if (unstable_count() == 0) return 0;
  const int T = edge_tile(unstable_, unstable_shape_.M, unstable_shape_.N);
  const GemmShape s = for_kernel(probe_sets().front().front(), kernel_->bf16);
  if (T == 0 || (unstable_shape_.M == s.M && unstable_shape_.N == s.N)) return T;
  // On a tiny shape the edge is most of C: the main probe shape confirms.
  const std::vector<char> changed = changes_at(*kernel_, s);
  return any(changed) ? edge_tile(changed, s.M, s.N) : T;
}

// ---- The table and its walk --------------------------------------------------------------------

namespace {
std::vector<Rule>& lesson_rules() {
  static std::vector<Rule> rules;
  return rules;
}
}  // namespace

namespace {
std::vector<KernelPath>& paths() {
  static std::vector<KernelPath> declared;
  return declared;
}
}  // namespace

bool declare_path(KernelPath path) {
  paths().push_back(std::move(path));
  return true;
}

const std::vector<KernelPath>& kernel_paths() {
  return paths();
}

bool register_rule(Rule rule) {
  lesson_rules().push_back(std::move(rule));
  return true;
}

const std::vector<Rule>& cause_rules() {
  static std::vector<Rule> table;
  static std::size_t merged = ~std::size_t(0);
  if (merged != lesson_rules().size()) {
    table = verify_detail::course_rules();
    table.insert(table.end(), lesson_rules().begin(), lesson_rules().end());
    std::stable_sort(table.begin(), table.end(),
                     [](const Rule& a, const Rule& b) { return a.rank < b.rank; });
    merged = lesson_rules().size();
  }
  return table;
}

namespace {
// A cause the probes show only at their vector-path shape says so, before its fix.
std::string with_path(const std::string& text, const ProbeFindings* f) {
  if (f == nullptr || f->readings.size() < 2 || f->readings[0].shows_wrong() ||
      !f->readings[1].shows_wrong() || text.find(" -> ") == std::string::npos)
    return text;
  const GemmShape& s = f->readings[1].s;
  const std::size_t cut = text.find(" -> ");
  return text.substr(0, cut) + " (only at " + std::to_string(s.M) + " x " + std::to_string(s.N) +
         " x " + std::to_string(s.K) + ", where N and K are multiples of 4: the vector path)" +
         text.substr(cut);
}
}  // namespace

void explain(Evidence& e, VerifyReport& report, const std::string& lesson) {
  const std::vector<Rule>& table = cause_rules();
  e.lesson = lesson;
  auto speaks = [&](const Rule& rule) {
    return lesson.empty() || rule.lesson.empty() || rule.lesson == lesson;
  };
  report.cause =
      "wrong values without a pattern the checker knows: look at the map and the first "
      "mismatches, and compare one element by hand.";
  report.cause_id.clear();
  report.candidates.clear();
  for (std::size_t n = 0; n < table.size(); ++n) {
    if (!speaks(table[n])) continue;
    std::string text;
    try {
      text = table[n].says(e);
    } catch (const std::exception& x) {  // a kernel that fails when run again: the result alone
      e.kernel_failed(x.what());
    }
    if (text.empty()) continue;
    report.cause = with_path(text, e.taken_probes()) + (text.back() == '.' ? "" : ".");
    report.cause_id = table[n].id;
    if (!table[n].model) break;
    // A model: on a tiny shape, later ones may fit the same numbers.
    std::vector<std::string> texts = {text};
    for (std::size_t o = n + 1; o < table.size(); ++o) {
      if (!table[o].model || !speaks(table[o])) continue;
      if (const std::string t = table[o].says(e); !t.empty()) {
        if (report.candidates.empty()) report.candidates.push_back(table[n].id);
        report.candidates.push_back(table[o].id);
        texts.push_back(t);
      }
    }
    if (texts.size() == 1) break;
    // A larger, ragged shape tells them apart, when the kernel is at hand.
    static int depth = 0;
    if (const Kernel* k = e.kernel(); k != nullptr && depth == 0) {
      GemmShape s = for_kernel(probe_sets().front().front(), k->bf16);
      s.alpha = 1.25f, s.beta = -0.5f;
      VerifyOptions o;
      o.lesson = lesson;
      VerifyReport at;
      ++depth;
      try {
        at = check_random(k->run, s, k->bf16, o, k->id);
      } catch (const std::exception& x) {
        e.kernel_failed(x.what());
      }
      --depth;
      if (!at.passed && !at.ambiguous() && !at.cause_id.empty()) {
        report.cause = at.cause, report.cause_id = at.cause_id, report.candidates.clear();
        break;
      }
    }
    std::ostringstream t;
    t << "at this size it could be " << (texts.size() == 2 ? "either" : "any") << " of "
      << texts.size() << " causes (a larger, ragged shape tells them apart):";
    for (std::size_t k = 0; k < texts.size(); ++k) {
      std::string x = texts[k];
      if (!x.empty() && x.back() == '.') x.pop_back();
      t << (k == 0 ? " " : "; or ") << "(" << k + 1 << ") " << x;
    }
    report.cause = t.str() + ".";
    break;
  }
  if (!e.probe_error().empty())
    report.cause += "\n    (the probes could not run: " + e.probe_error() + ")";
}

namespace {

// The kernel once on fresh random inputs, checked: the report, with the kernel at hand.
VerifyReport check_random(const GemmRun& run, const GemmShape& s, bool bf16,
                          const VerifyOptions& options, const void* id) {
  GemmJob g = random_job(s, bf16);
  const std::size_t MN = static_cast<std::size_t>(s.M) * s.N;
  auto c_of = [MN](const GemmJob& j) {
    return std::vector<float>(j.out.begin() + static_cast<long>(j.c_at),
                              j.out.begin() + static_cast<long>(j.c_at + MN));
  };
  const std::vector<float> C0 = s.beta != 0.0f ? c_of(g) : std::vector<float>{};
  const GemmJob input = g;
  Kernel kernel{run, bf16,
                [&] {
                  // A run on other inputs first: shared memory that the kernel reads before it
                  // writes it then holds other values, and so does what it computes from them.
                  GemmShape t = s;
                  t.alpha += 1.0f;  // other seeds
                  GemmJob other = random_job(t, bf16), h = input;
                  run(other);
                  run(h);
                  return c_of(h);
                },
                id};
  VerifyOptions o = options;
  o.kernel = &kernel;
  run(g);
  if (!bf16) return verify_gemm(s, g.A, g.B, C0, g.out, o);
  auto narrowed = [](const std::vector<float>& v) {
    std::vector<bf16_t> h(v.size());
    for (std::size_t x = 0; x < v.size(); ++x) h[x] = narrow(v[x]);
    return h;
  };
  return verify_gemm(s, narrowed(g.A), narrowed(g.B), narrowed(C0), narrowed(g.out), o);
}

}  // namespace

VerifyReport check_gemm_run(const GemmRun& run, const GemmShape& s, bool bf16,
                            const VerifyOptions& options, const void* kernel) {
  return check_random(run, s, bf16, options, kernel);
}

}  // namespace course
