/// \file causes.hpp
/// \brief Lesson 08's rules in the table of causes (common/diagnosis.hpp): a quad whose lanes take
/// their operands from the wrong lanes (quad_a_source(), quad_b_source()). Registered by including
/// this header: the lesson's grader does.
#pragma once

#include "common/diagnosis.hpp"

#include <set>
#include <sstream>
#include <utility>
#include <string>

namespace lesson08 {

/// When every element of C multiplied A and B from its own 2 x 2 quad block, but some quad lane
/// took them from the wrong lanes, the same ones in every quad: which lane, and what it took.
/// "" otherwise.
inline std::string quad_sources(course::Evidence& e) {
  const course::ProbeFindings* f = e.probes();
  if (f == nullptr || f->primary().k0() < 0) return "";
  const course::ProbeReading& r = f->primary();
  const course::ProbeReading::AtK& at = r.at_k0;
  int a_src[4] = {-1, -1, -1, -1}, b_src[4] = {-1, -1, -1, -1};
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t e = r.at(i, j);
      if (at.a_row[e] < 0 || at.b_col[e] < 0) continue;
      if (at.a_k[e] != at.k || at.b_row_k[e] != at.k) return "";
      const int da = at.a_row[e] - (i & ~1), db = at.b_col[e] - (j & ~1);
      if (da < 0 || da > 1 || db < 0 || db > 1) return "";
      const int q = 2 * (i % 2) + j % 2;
      if ((a_src[q] >= 0 && a_src[q] != da) || (b_src[q] >= 0 && b_src[q] != db)) return "";
      a_src[q] = da, b_src[q] = db;
    }
  std::ostringstream o;
  int wrong = 0;
  for (int q = 0; q < 4; ++q) {
    if (a_src[q] < 0 || (a_src[q] == q / 2 && b_src[q] == q % 2)) continue;
    o << (wrong++ ? "; " : "") << "lane " << q << " (C[r0" << (q / 2 ? " + 1" : "") << "][c0"
      << (q % 2 ? " + 1" : "") << "]) multiplies A[r0" << (a_src[q] ? " + 1" : "") << "][k] (lane "
      << a_src[q] << "'s) by B[k][c0" << (b_src[q] ? " + 1" : "") << "] (lane " << 2 + b_src[q]
      << "'s)";
  }
  if (wrong == 0) return "";
  return "wrong shuffle source in a quad (the 4 lanes that compute one 2 x 2 block of C): " +
         o.str() +
         " -> quad lane q takes A from lane q / 2 and B from lane 2 + q % 2 (quad_a_source, "
         "quad_b_source)";
}

/// When most quads multiply the operands of another quad, and a few quads' blocks serve all of C
/// (each warp's quads all read one quad): the shuffle's source lane taken in the whole warp.
inline std::string quad_width(course::Evidence& e) {
  const course::ProbeFindings* f = e.probes();
  if (f == nullptr || f->primary().k0() < 0) return "";
  const course::ProbeReading& r = f->primary();
  const course::ProbeReading::AtK& at = r.at_k0;
  std::set<std::pair<int, int>> blocks;  // the 2 x 2 blocks of A rows and B columns read
  long known = 0, moved = 0, example = -1;
  for (int i = 0; i < r.s.M; ++i)
    for (int j = 0; j < r.s.N; ++j) {
      const std::size_t x = r.at(i, j);
      if (at.a_row[x] < 0 || at.b_col[x] < 0 || at.a_row[x] % 2 != i % 2 ||
          at.b_col[x] % 2 != j % 2)
        continue;
      ++known;
      blocks.insert({at.a_row[x] / 2, at.b_col[x] / 2});
      if (at.a_row[x] != i || at.b_col[x] != j) ++moved, example = example < 0 ? long(x) : example;
    }
  if (known == 0 || moved * 2 < known || blocks.size() * 16 > static_cast<std::size_t>(known))
    return "";
  const int i = static_cast<int>(example / r.s.N), j = static_cast<int>(example % r.s.N);
  std::ostringstream o;
  o << "the quads of a warp multiply the operands of one quad: C(" << i << ", " << j
    << ") uses A row " << at.a_row[example] << " and B column " << at.b_col[example] << ", and "
    << blocks.size() << " quads' blocks serve all " << known / 4
    << " -> __shfl_sync takes its source lane in the whole warp unless its width is 4: "
       "quad_a_source(q) then names a lane of quad 0; pass the width, "
       "__shfl_sync(mask, v, quad_a_source(q), 4)";
  return o.str();
}

/// Registered once, by every program that includes this header.
inline const bool kQuadRule =
    course::register_rule({"quad_source", "08", 800, false, quad_sources});
inline const bool kWidthRule = course::register_rule({"quad_width", "08", 801, false, quad_width});

/// The warp-tiled kernel's float4 path (N a multiple of 4), its scalar one, and edge block tiles.
inline const bool kPaths =
    course::declare_path({"08", "float4 loads and stores: N a multiple of 4", false,
                          [](const course::GemmShape& s) { return s.N % 4 == 0; }}) &&
    course::declare_path({"08", "scalar loads and stores: N not a multiple of 4", false,
                          [](const course::GemmShape& s) { return s.N % 4 != 0; }}) &&
    course::declare_path({"08", "edge block tiles of 128 x 256 beside whole ones", false,
                          [](const course::GemmShape& s) {
                            return s.M > 128 && s.M % 128 != 0 && s.N > 256 && s.N % 256 != 0;
                          }});

}  // namespace lesson08
