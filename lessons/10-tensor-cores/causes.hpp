/// \file causes.hpp
/// \brief Lesson 10's rules in the table of causes (common/diagnosis.hpp), in terms of the m16n8k16
/// fragments
/// (a_fragment_coord(), b_fragment_coord(), c_fragment_coord(), the ldmatrix register order):
/// 8 x 8 sub-matrices of A in the wrong registers, the two k halves of B's registers exchanged, the
/// accumulator rows or columns stored in the wrong place; and its races. Registered by including
/// this header: the lesson's grader does.
#pragma once

#include "common/diagnosis.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <vector>

namespace lesson10 {

namespace fragment_detail {

// The 8 x 8 block (row half, k half) of every 16 x 16 block of A that register q holds, as the
// reads show it: held[q] = 2 * (k half) + (row half) of what it holds, -1 unknown, -2 not a block.
inline void a_registers(const course::ProbeReading& r, int k, const std::vector<int>& a_row,
                        const std::vector<int>& a_k, int held[4]) {
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if (a_row[e] < 0) continue;
      const int q = (i % 16) / 8 + 2 * ((k % 16) / 8);
      const bool same_block = a_row[e] / 16 == i / 16 && a_k[e] / 16 == k / 16 &&
                              a_row[e] % 8 == i % 8 && a_k[e] % 8 == k % 8;
      const int h = same_block ? (a_row[e] % 16) / 8 + 2 * ((a_k[e] % 16) / 8) : -2;
      if (held[q] == -1)
        held[q] = h;
      else if (held[q] != h)
        held[q] = -2;
    }
}

inline std::string block_name(int q) {
  return std::string("rows ") + (q % 2 ? "8-15" : "0-7") + ", k " + (q / 2 ? "8-15" : "0-7");
}

}  // namespace fragment_detail

/// The fragment mistakes the probes show, in the lesson's terms; "" when none fits.
inline std::string fragments(course::Evidence& e) {
  using namespace fragment_detail;
  const course::ProbeFindings* f = e.probes();
  if (f == nullptr || f->primary().k0() < 0) return "";
  const course::ProbeReading& r = f->primary();
  const course::ProbeReading::AtK& at = r.at_k0;
  // The accumulators stored in the wrong place: rows exchanged within 16 (k right everywhere).
  bool rows_swapped = true, any = false;
  for (int i = 0; i < r.s.M && rows_swapped; ++i)
    for (int j = 0; j < r.s.N && rows_swapped; ++j) {
      const std::size_t e = r.at(i, j);
      if (at.a_row[e] < 0 || at.b_col[e] < 0) continue;
      if (at.a_row[e] == i && at.a_k[e] == at.k) continue;
      any = true;
      rows_swapped = at.a_row[e] == (i ^ 8) && at.a_k[e] == at.k && at.b_col[e] == j;
    }
  if (any && rows_swapped)
    return "rows 0-7 and 8-15 of every 16-row tile are exchanged where the accumulators are "
           "stored: c0, c1 belong at row lane / 4, c2, c3 at row lane / 4 + 8 -> check "
           "c_fragment_coord";
  // The two k halves of a 16-wide k step met crosswise: A's k = B's k ^ 8, rows and columns right.
  bool crossed = false, only_cross = true;
  for (int i = 0; i < r.s.M && only_cross; ++i)
    for (int j = 0; j < r.s.N && only_cross; ++j) {
      const std::size_t e = r.at(i, j);
      if (at.a_row[e] < 0) continue;
      if (at.a_row[e] != i)
        only_cross = false;
      else if (at.a_k[e] == (at.k ^ 8))
        crossed = true;
      else if (at.a_k[e] != at.k)
        only_cross = false;
    }
  if (crossed && only_cross)
    return "k 0-7 and 8-15 of every 16-wide k step meet crosswise (A's k = B's k ^ 8): the two "
           "registers of B's fragment (b0: k 0-7, b1: k 8-15), or A's k halves, are in the wrong "
           "order -> check the ldmatrix addresses of B (b_fragment_coord) against A's";
  // A's registers: the reads at k0 and at k0 ^ 8 cover both k halves.
  int held[4] = {-1, -1, -1, -1};
  a_registers(r, at.k, at.a_row, at.a_k, held);
  // A piece moved at k0: both k halves of the 16-wide k step, the reads at every k of its k-tile.
  if (std::any_of(held, held + 4, [](int h) { return h >= 0; }) &&
      !std::equal(held, held + 4, std::array<int, 4>{0, 1, 2, 3}.begin(),
                  [](int h, int q) { return h < 0 || h == q; }))
    for (const course::ProbeReading::AtK& o : e.probes_every_k()->primary().tile_k)
      a_registers(r, o.k, o.a_row, o.a_k, held);
  bool blocks = true, moved = false;
  for (int q = 0; q < 4; ++q) {
    if (held[q] == -2) blocks = false;
    if (held[q] >= 0 && held[q] != q) moved = true;
  }
  if (blocks && moved) {
    std::ostringstream o;
    o << "the 8 x 8 sub-matrices of A reach the wrong registers of the m16n8k16 fragment "
         "(ldmatrix register pairing), in every 16 x 16 block: ";
    for (int q = 0, n = 0; q < 4; ++q)
      if (held[q] >= 0 && held[q] != q)
        o << (n++ ? "; " : "") << "register " << q << " holds " << block_name(held[q])
          << " (it must hold " << block_name(q) << ")";
    o << " -> register q holds rows 8 * (q % 2) .., k 8 * (q / 2) ..: check the ldmatrix row "
         "addresses (a_fragment_coord)";
    return o.str();
  }
  // Or columns within 8.
  bool cols_moved = true;
  any = false;
  for (int i = 0; i < r.s.M && cols_moved; ++i)
    for (int j = 0; j < r.s.N && cols_moved; ++j) {
      const std::size_t e = r.at(i, j);
      if (at.a_row[e] < 0 || at.b_col[e] < 0 || at.b_col[e] == j) continue;
      any = true;
      cols_moved = at.a_row[e] == i && at.b_col[e] / 8 == j / 8;
    }
  if (any && cols_moved)
    return "within every 8 columns of C the accumulators are stored in the wrong columns: c0, c1 "
           "(and c2, c3) belong at columns 2 * (lane % 4) and 2 * (lane % 4) + 1 -> check "
           "c_fragment_coord";
  return "";
}

/// Whole 8 x 8 blocks of C moved within every T x T tile (T = 16, 32), the accumulators of a
/// fragment stored (or its operands loaded) in the wrong place: which holds which, or "".
inline std::string block_moves(const course::ProbeReading& r) {
  for (int T : {16, 32}) {
    const int nb = T / 8;
    std::vector<int> src(static_cast<std::size_t>(nb * nb), -1);
    bool ok = true, any = false;
    for (int i = 0; i < r.s.M && ok; ++i)
      for (int j = 0; j < r.s.N && ok; ++j) {
        const std::size_t e = r.at(i, j);
        const int si = r.at_k0.a_row[e], sj = r.at_k0.b_col[e];
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

inline std::string block_moves_rule(course::Evidence& e) {
  const course::ProbeFindings* f = e.probes();
  return f != nullptr && f->primary().k0() >= 0 ? block_moves(f->primary()) : "";
}

/// In some 16-row bands, C's groups of 8 columns hold the products of other groups of the same
/// row, mirrored (columns 0-7 hold those of 56-63): the order of B's fragments (a serpentine)
/// not followed by the accumulators.
inline std::string serpentine(course::Evidence& e) {
  const course::ProbeFindings* f = e.probes();
  if (f == nullptr || f->primary().k0() < 0) return "";
  const course::ProbeReading& r = f->primary();
  const course::ProbeReading::AtK& at = r.at_k0;
  long moved = 0, example = -1;
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t x = r.at(i, j);
      const int c = at.b_col[x];
      if (at.a_row[x] < 0 || c < 0 || c == j) continue;
      // Same row, same column within the group, and the two groups each other's mirror.
      if (at.a_row[x] != i || c % 8 != j % 8 || c >= r.s.N) return "";
      if (const int back = at.b_col[r.at(i, c)]; back >= 0 && back != j) return "";
      ++moved, example = example < 0 ? static_cast<long>(x) : example;
    }
  if (moved == 0) return "";
  const int i = static_cast<int>(example / r.s.N), j = static_cast<int>(example % r.s.N);
  std::ostringstream o;
  o << "in some 16-row fragments, C's groups of 8 columns hold the products of the mirrored group "
       "(C("
    << i << ", " << j << ") holds column " << at.b_col[example]
    << "'s) -> the serpentine order of B's fragments must be the accumulators' too: "
       "mma(acc[i][jj], a[i], b[jj])";
  return o.str();
}

/// B read elsewhere inside its own 16 x 16 block, by whole 8 x 8 pieces (k and column each kept
/// within 8): the ldmatrix.x4 registers of B handed to the wrong fragments.
inline std::string b_pieces(course::Evidence& e) {
  const course::ProbeFindings* f = e.probes();
  if (f == nullptr || f->primary().k0() < 0) return "";
  const course::ProbeReading& r = f->primary();
  const course::ProbeReading::AtK& at = r.at_k0;
  const int k = at.k;
  long example = -1;
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t x = r.at(i, j);
      const int rk = at.b_row_k[x], c = at.b_col[x];
      if (c < 0 || (rk == k && c == j)) continue;
      if (at.a_row[x] >= 0 && at.a_row[x] != i) return "";  // A's rows right (its k may not be)
      if (rk / 16 != k / 16 || rk % 8 != k % 8 || c / 16 != j / 16 || c % 8 != j % 8) return "";
      example = example < 0 ? static_cast<long>(x) : example;
    }
  if (example < 0) return "";
  const int i = static_cast<int>(example / r.s.N), j = static_cast<int>(example % r.s.N);
  std::ostringstream o;
  o << "B's 8 x 8 pieces reach the wrong registers: for C(" << i << ", " << j
    << ") the term k = " << k << " reads B(" << at.b_row_k[example] << ", " << at.b_col[example]
    << ") -> ldmatrix.x4 of B gives r[0], r[1] (k 0-7, 8-15) of one 8-column tile and r[2], r[3] "
       "of the next: b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3]";
  return o.str();
}

/// A race in this lesson's terms: the copies into shared memory and the reads of them.
inline std::string race(course::Evidence& e) {
  if (e.unstable_count() == 0 || e.unstable_edge_tile() != 0) return "";
  return course::changes_words(e) +
         ", a race -> a tile is read before "
         "its copy landed (cp.async.wait_group, then __syncthreads(), before the ldmatrix reads) "
         "or overwritten while others still read it (a __syncthreads() before the next copy); "
         "confirm with " +
         course::sanitize_command("10");
}

/// Registered once, by every program that includes this header.
inline const bool kFragmentRule = course::register_rule({"fragments", "10", 800, false, fragments});
inline const bool kRaceRule = course::register_rule({"race", "10", 750, false, race});
/// The mma.sync kernel's partial k-tile of 32 and edge block tiles of 128.
inline const bool kPaths =
    course::declare_path({"10", "a partial k-tile of BK = 32", true,
                          [](const course::GemmShape& s) { return s.K % 32 != 0; }}) &&
    course::declare_path(
        {"10", "edge block tiles of 128 beside whole ones", true, [](const course::GemmShape& s) {
           return s.M > 128 && s.M % 128 != 0 && s.N > 128 && s.N % 128 != 0;
         }});
inline const bool kBPiecesRule = course::register_rule({"b_pieces", "10", 803, false, b_pieces});
inline const bool kSerpentineRule =
    course::register_rule({"serpentine", "10", 802, false, serpentine});
inline const bool kBlocksRule =
    course::register_rule({"fragment_blocks", "10", 1110, false, block_moves_rule});

}  // namespace lesson10
