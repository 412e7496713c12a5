// The words of the diagnosis: what the probes' readings (common/diagnosis.cpp) show, in one line
// with its fix, course-wide; the lessons' explainers word it in their own terms.
#include "common/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <utility>

namespace course {
namespace {

constexpr long kUnknown = ProbeReading::kUnknown;

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

}  // namespace

std::string course_wide_cause(const ProbeFindings& f) {
  const ProbeReading& r = f.readings.front();
  const std::size_t MN = static_cast<std::size_t>(r.s.M) * r.s.N;
  if (f.c_added_when_beta0)
    return "beta is ignored: C is added unscaled, even when beta == 0 (acc + C) -> store alpha * "
           "acc + beta * C, and read C only when beta != 0";
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

}  // namespace course
