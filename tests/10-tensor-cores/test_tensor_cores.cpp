// The grader of lesson 10 (tensor cores). Linked against the learner's exercise (grade10) and
// against the reference solution (test10).
//
// [cpu] tests: the three fragment mappings of mma.sync.m16n8k16 (every element owned exactly once,
//       the entries of the PTX ISA's figures, the whole layout against the grader's own formula);
//       the kernel's shared-memory tiles (lesson 09's swizzle, and every cp.async and ldmatrix of
//       a stage conflict-free, counted over the kernel's own addresses); the picture. They never
//       touch the CUDA runtime.
// [gpu] tests (compute capability 8.0): mma_sync_gemm on the design's shape grid; the large tile
//       on problems ragged along one dimension at a time, K not a multiple of the stage, K smaller
//       than the pipeline, an odd N, beta != 0; every compiled configuration; the given
//       wmma_gemm; the precondition messages.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "causes.hpp"  // the lesson's rules in the table of causes
#include "fragment_svg.hpp"
#include "mma_fragment.hpp"
#include "mma_sync_parts.cuh"  // yours, or the reference's
#include "mma_sync_gemm.hpp"
#include "smem_tile.hpp"
#include "wmma_gemm.hpp"

#include "lessons/09-swizzling/bank_conflicts.hpp"  // lesson 09

#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm_check.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using lesson10::FragmentCoord;

// The grader's own statement of the PTX ISA's layout (groupID = lane >> 2, threadID_in_group =
// lane % 4), written independently of the exercise.
FragmentCoord ptx_a(int lane, int i) {
  const int g = lane / 4, t = lane % 4;
  const int row = (i == 2 || i == 3 || i == 6 || i == 7) ? g + 8 : g;
  const int col = t * 2 + i % 2 + (i >= 4 ? 8 : 0);
  return {row, col};
}
FragmentCoord ptx_b(int lane, int i) {
  const int g = lane / 4, t = lane % 4;
  return {t * 2 + i % 2 + (i >= 2 ? 8 : 0), g};
}
FragmentCoord ptx_c(int lane, int i) {
  const int g = lane / 4, t = lane % 4;
  return {i < 2 ? g : g + 8, t * 2 + i % 2};
}

std::string show(FragmentCoord p) {
  return "(" + std::to_string(p.row) + ", " + std::to_string(p.col) + ")";
}

// What a wrong fragment coordinate means, against the PTX ISA's: groupID = lane / 4 picks A's and
// C's row and B's column, threadID_in_group = lane % 4 the pair of columns (A, C) or of k (B);
// register i's bits pick the halves (+ 8) and which of the pair (i % 2).
std::string fragment_words(const char* m, int lane, int i, FragmentCoord got, FragmentCoord want) {
  std::ostringstream o;
  o << m << "_fragment_coord(lane " << lane << ", " << m << i << ") = " << show(got) << ": ";
  const int g = lane / 4, t = lane % 4;
  const bool b = m[0] == 'b';
  const int grp = b ? got.col : got.row, pair = b ? got.row : got.col;  // groupID's, the pair's
  const int want_grp = b ? want.col : want.row, want_pair = b ? want.row : want.col;
  const char* grp_name = b ? "column" : "row";
  const char* pair_name = b ? "k" : "column";
  if (got.row == want.col && got.col == want.row && want.row != want.col) {
    o << "row and column swapped";
  } else if (pair == want_pair && (grp == want_grp + 8 || grp == want_grp - 8)) {
    o << grp_name << " off by 8: the wrong bit of i picks the half";
  } else if (grp == want_grp && (pair == want_pair + 8 || pair == want_pair - 8)) {
    o << pair_name << " off by 8: the wrong bit of i picks the half";
  } else if (grp == want_grp && (pair == want_pair + 1 || pair == want_pair - 1)) {
    o << pair_name << " off by one: a register holds a pair, 2 * (lane % 4) + i % 2";
  } else if (g != t && grp == want_grp - g + t) {
    o << "lane % 4 used for the " << grp_name << ": groupID = lane / 4 gives it";
  } else {
    // Another register's place, or another lane's.
    FragmentCoord (*ref)(int, int) = m[0] == 'a' ? ptx_a : b ? ptx_b : ptx_c;
    const int registers = m[0] == 'a' ? 8 : 4;
    int other_i = -1, other_lane = -1;
    for (int j = 0; j < registers; ++j) {
      if (j != i && ref(lane, j).row == got.row && ref(lane, j).col == got.col) other_i = j;
    }
    for (int l = 0; l < 32; ++l) {
      if (l != lane && ref(l, i).row == got.row && ref(l, i).col == got.col) other_lane = l;
    }
    if (other_i >= 0) {
      o << "the place of this lane's " << m << other_i
        << ": bit 0 of i picks one of the pair, the other bits the + 8 halves";
    } else if (other_lane >= 0) {
      o << "lane " << other_lane << "'s place: groupID = lane / 4, threadID_in_group = lane % 4";
    } else {
      o << "not the PTX ISA's layout";
    }
  }
  o << "; it is " << show(want);
  return o.str();
}

// Every element of the rows x cols matrix held by exactly one (lane, element).
template <typename F>
void check_owned_once(const char* m, int rows, int cols, int elements, F f) {
  std::vector<int> owner(rows * cols, -1);
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < elements; ++i) {
      const FragmentCoord p = f(lane, i);
      INFO("lane " << lane << " " << m << i << " -> " << show(p) << " in the " << rows << " x "
                   << cols << " matrix");
      {
        INFO(m << "_fragment_coord: a coordinate outside the " << rows << " x " << cols
               << " matrix: the + 8 half taken twice, or lane / 4 and lane % 4 mixed up");
        REQUIRE(p.row >= 0);
        REQUIRE(p.row < rows);
        REQUIRE(p.col >= 0);
        REQUIRE(p.col < cols);
      }
      INFO("that element is already held by lane " << owner[p.row * cols + p.col] / elements
                                                   << " as " << m
                                                   << owner[p.row * cols + p.col] % elements);
      REQUIRE(owner[p.row * cols + p.col] == -1);
      owner[p.row * cols + p.col] = lane * elements + i;
    }
  }
  CHECK(std::count(owner.begin(), owner.end(), -1) == 0);
}

// A known entry: lane, element, where the PTX figure puts it.
struct Known {
  int lane, i;
  FragmentCoord at;
};

template <typename F>
void check_known(const char* m, F f, const std::vector<Known>& known) {
  for (const Known& k : known) {
    const FragmentCoord p = f(k.lane, k.i);
    INFO("lane " << k.lane << " " << m << k.i << ": the PTX ISA's figure says " << show(k.at)
                 << ", the mapping says " << show(p));
    INFO(fragment_words(m, k.lane, k.i, p, k.at));
    CHECK(p.row == k.at.row);
    CHECK(p.col == k.at.col);
  }
}

template <typename F, typename G>
void check_against(const char* m, int elements, F f, G reference) {
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < elements; ++i) {
      const FragmentCoord p = f(lane, i), want = reference(lane, i);
      INFO("lane " << lane << " (group " << lane / 4 << ", thread_in_group " << lane % 4 << ") "
                   << m << i << ": expected " << show(want) << ", got " << show(p));
      INFO(fragment_words(m, lane, i, p, want));
      REQUIRE(p.row == want.row);
      REQUIRE(p.col == want.col);
    }
  }
}

// The grader's own count of extra wavefronts (lesson 09's model), per phase of 8 lanes for
// 16-byte accesses: the most distinct words any bank holds, minus one.
int reference_conflicts(const lesson09::WarpAddresses& a, int bytes) {
  const int words = bytes / 4, per_phase = 32 / words;
  int extra = 0;
  for (int p = 0; p < words; ++p) {
    std::vector<std::set<std::uint32_t>> bank(32);
    for (int t = p * per_phase; t < (p + 1) * per_phase; ++t)
      for (int w = 0; w < words; ++w) bank[(a[t] / 4 + w) % 32].insert(a[t] / 4 + w);
    std::size_t most = 1;
    for (const auto& b : bank) most = std::max(most, b.size());
    extra += static_cast<int>(most) - 1;
  }
  return extra;
}

std::string show(const lesson09::WarpAddresses& a) {
  std::ostringstream o;
  for (int t = 0; t < 32; ++t) o << (t ? " " : "") << a[t];
  return o.str();
}

// The message of the std::invalid_argument `f` throws; "" when it throws nothing or else.
template <typename F>
std::string invalid_argument_message(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  } catch (...) {
    return "(threw something other than std::invalid_argument)";
  }
  return "(threw nothing)";
}

course::GemmFn<course::Bf16> config_fn(int index) {
  return [index](int M, int N, int K, float alpha, const course::bf16* A, const course::bf16* B,
                 float beta,
                 course::bf16* C) { lesson10::config_gemm(index, M, N, K, alpha, A, B, beta, C); };
}

}  // namespace

// ---- The fragments (CPU) -----------------------------------------------------------------------

TEST_CASE("the A fragment: every element held once, where the PTX ISA puts it", "[cpu][task_1]") {
  check_known("a", lesson10::a_fragment_coord,
              {{0, 0, {0, 0}},
               {0, 1, {0, 1}},
               {0, 2, {8, 0}},
               {0, 3, {8, 1}},
               {0, 4, {0, 8}},
               {0, 5, {0, 9}},
               {0, 6, {8, 8}},
               {0, 7, {8, 9}},
               {5, 0, {1, 2}},
               {5, 3, {9, 3}},
               {5, 4, {1, 10}},
               {31, 0, {7, 6}},
               {31, 7, {15, 15}}});
  check_owned_once("a", 16, 16, lesson10::kAFragment, lesson10::a_fragment_coord);
  check_against("a", lesson10::kAFragment, lesson10::a_fragment_coord, ptx_a);
}

TEST_CASE("the B fragment: every element held once, where the PTX ISA puts it", "[cpu][task_1]") {
  check_known("b", lesson10::b_fragment_coord,
              {{0, 0, {0, 0}},
               {0, 1, {1, 0}},
               {0, 2, {8, 0}},
               {0, 3, {9, 0}},
               {5, 0, {2, 1}},
               {5, 3, {11, 1}},
               {31, 3, {15, 7}}});
  check_owned_once("b", 16, 8, lesson10::kBFragment, lesson10::b_fragment_coord);
  check_against("b", lesson10::kBFragment, lesson10::b_fragment_coord, ptx_b);
}

TEST_CASE("the C fragment: every element held once, where the PTX ISA puts it", "[cpu][task_1]") {
  check_known("c", lesson10::c_fragment_coord,
              {{0, 0, {0, 0}},
               {0, 1, {0, 1}},
               {0, 2, {8, 0}},
               {0, 3, {8, 1}},
               {5, 0, {1, 2}},
               {5, 3, {9, 3}},
               {31, 3, {15, 7}}});
  check_owned_once("c", 16, 8, lesson10::kCFragment, lesson10::c_fragment_coord);
  check_against("c", lesson10::kCFragment, lesson10::c_fragment_coord, ptx_c);
}

TEST_CASE("ldmatrix.x4 delivers the A and B fragments", "[cpu][task_1]") {
  // ldmatrix gives register q of lane L row L / 4 of matrix q, values 2 (L % 4) and 2 (L % 4) + 1.
  // For A the matrices are the four 8 x 8 quarters in the order top left, bottom left, top right,
  // bottom right; for B (as k x n) the top and bottom halves.
  for (int lane = 0; lane < 32; ++lane) {
    for (int q = 0; q < 4; ++q) {
      for (int h = 0; h < 2; ++h) {
        const FragmentCoord a = lesson10::a_fragment_coord(lane, 2 * q + h);
        INFO("lane " << lane << " a" << 2 * q + h << " at " << show(a) << " should be row "
                     << lane / 4 << " + 8 (" << q % 2 << "), column " << 2 * (lane % 4) + h
                     << " + 8 (" << q / 2 << ") of A");
        CHECK(a.row == lane / 4 + 8 * (q % 2));
        CHECK(a.col == 2 * (lane % 4) + h + 8 * (q / 2));
      }
    }
    for (int q = 0; q < 2; ++q) {
      for (int h = 0; h < 2; ++h) {
        const FragmentCoord b = lesson10::b_fragment_coord(lane, 2 * q + h);
        INFO("lane " << lane << " b" << 2 * q + h << " at " << show(b) << " should be k "
                     << 2 * (lane % 4) + h << " + 8 (" << q << "), column n " << lane / 4
                     << ": ldmatrix.x4 of B gives register q rows k of half q");
        CHECK(b.col == lane / 4);
        CHECK(b.row == 2 * (lane % 4) + h + 8 * q);
      }
    }
  }
}

TEST_CASE("the picture of the fragments", "[cpu][task_1]") {
  const std::string svg = lesson10::fragment_svg();
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  // Every cell claimed exactly once: no "?" and no "×" cells, nothing outside.
  CHECK(svg.find(">?</text>") == std::string::npos);
  CHECK(svg.find(">×") == std::string::npos);
  CHECK(svg.find("outside their matrix") == std::string::npos);
  // 256 + 128 + 128 cells labelled with a lane; lane 31 holds a7, b3 and c3.
  std::size_t labels = 0;
  for (std::size_t at = svg.find("class=\"lane\""); at != std::string::npos;
       at = svg.find("class=\"lane\"", at + 1))
    ++labels;
  CHECK(labels == 16 * 16 + 16 * 8 + 16 * 8);
  CHECK(svg.find(">T31</text>") != std::string::npos);
  CHECK(svg.find(">a7</text>") != std::string::npos);
}

// ---- The tiles in shared memory (CPU)
// ------------------------------------------------------------

TEST_CASE("the kernel's tiles: lesson 09's swizzle, and no bank conflicts", "[cpu][task_1]") {
  // The kernel's own addresses for one stage of its large tile (your A and B mappings give the
  // ldmatrix rows), plain and swizzled.
  const auto swizzled = lesson10::config_shared_accesses(lesson10::headline_config_index(true));
  const auto plain = lesson10::config_shared_accesses(lesson10::headline_config_index(false));
  for (const lesson09::SharedAccess& a : swizzled) {
    for (std::size_t w = 0; w < a.warps.size(); ++w) {
      INFO("swizzled tiles, " << a.what << ", warp instruction " << w << ": " << show(a.warps[w]));
      REQUIRE(reference_conflicts(a.warps[w], a.access_bytes) == 0);
    }
  }
  // Without the swizzle, each phase of an ldmatrix reads the same chunk of 8 consecutive rows:
  // with rows of 128 bytes all 8 chunks sit in the same 4 banks (8 wavefronts instead of 1, 7
  // extra a phase, 28 an instruction); with rows of 64 bytes in two sets of 4 banks (3 extra a
  // phase, 12 an instruction).
  long plain_ldmatrix = 0, instructions = 0;
  for (const lesson09::SharedAccess& a : plain) {
    if (a.what.find("ldmatrix") == std::string::npos) continue;
    for (const lesson09::WarpAddresses& w : a.warps) {
      plain_ldmatrix += reference_conflicts(w, a.access_bytes);
      ++instructions;
    }
  }
  const int row_bytes = 2 * lesson10::mma_configs()[lesson10::headline_config_index(false)].bk;
  CHECK(plain_ldmatrix == (row_bytes == 128 ? 28 : 12) * instructions);

  // tile_offset is lesson 09's Swizzle<3, 4, 3> (rows of 128 bytes) and Swizzle<2, 4, 3> (64):
  // the B bits from M up are XORed with the B bits from M + S up.
  const auto swizzle = [](int bits, std::uint32_t off) {
    const std::uint32_t steer = ((1u << bits) - 1u) << (4 + 3);
    return off ^ ((off & steer) >> 3);
  };
  for (int row = 0; row < 64; ++row) {
    for (int chunk = 0; chunk < 8; ++chunk) {
      const std::uint32_t off = row * 128 + chunk * 16;
      INFO("row " << row << ", chunk " << chunk);
      CHECK(lesson10::tile_offset<128, true>(row, chunk) == swizzle(3, off));
      CHECK(lesson10::tile_offset<128, false>(row, chunk) == off);
      if (chunk < 4) {
        CHECK(lesson10::tile_offset<64, true>(row, chunk) == swizzle(2, row * 64 + chunk * 16));
      }
    }
  }
}

// ---- The kernels (GPU)
// ---------------------------------------------------------------------------

TEST_CASE("mma_sync_gemm is right on the shape grid", "[gpu][task_2]") {
  course_test::check_on_shapes(&lesson10::mma_sync_gemm, "mma_sync_gemm",
                               course::shape_grid<course::Bf16>(true));
}

TEST_CASE("the large tile: ragged along one dimension at a time, K, beta", "[gpu][task_2]") {
  // The 128 x 128 x 64 tile that mma_sync_gemm uses for large problems, called directly: on small
  // problems mma_sync_gemm would pick a smaller tile.
  const int large = lesson10::headline_config_index(true);
  const std::vector<course_test::EdgeCase> cases = {
      {{256, 512, 256, 1.0f, 0.0f}, "whole tiles everywhere (if only this fails: the main loop)"},
      {{300, 512, 256, 1.0f, 0.0f}, "M ragged: the last row of blocks is partial"},
      {{256, 300, 256, 1.0f, 0.0f}, "N ragged: the last column of blocks is partial"},
      {{256, 301, 64, 1.0f, 0.0f}, "N odd: C's rows are not 16-byte aligned, one value a time"},
      {{256, 512, 72, 1.0f, 0.0f}, "K = 72, not a multiple of the stage's 64: zeros past K"},
      {{130, 260, 8, 1.0f, 0.0f}, "K = 8: one stage, shorter than the pipeline"},
      {{140, 270, 136, 1.0f, 0.0f}, "K = 136: two whole stages and a partial third"},
      {{257, 255, 264, 0.5f, -1.5f}, "beta != 0: C is read, scaled and added"},
      {{129, 257, 1024, -1.0f, 0.25f}, "many stages, ragged M and N, negative alpha"},
  };
  course_test::check_on_cases(config_fn(large), "mma_sync_gemm (large tile)", cases);
}

TEST_CASE("every compiled configuration is right", "[gpu][task_2]") {
  // Your code first: a stub fails here with NOT IMPLEMENTED.
  REQUIRE(course::check_gemm(&lesson10::mma_sync_gemm, {33, 65, 24, 1.0f, 0.0f}).passed);
  course_test::check_every_configuration(
      lesson10::mma_configs(), "mma_sync_gemm", &lesson10::mma_config_for, config_fn,
      {{257, 255, 264, 1.25f, -0.75f}, {300, 512, 72, 1.0f, 0.0f}, {1, 7, 8, 1.0f, 0.0f}});
}

TEST_CASE("wmma_gemm (given) is right on the shape grid", "[gpu][task_2]") {
  // Given code, graded once your mma.sync kernel runs, so that an untouched lesson reads as not
  // started rather than half done.
  REQUIRE(course::check_gemm(&lesson10::mma_sync_gemm, {7, 13, 8, 1.0f, 0.0f}).passed);
  course_test::check_on_shapes(&lesson10::wmma_gemm, "wmma_gemm",
                               course::shape_grid<course::Bf16>(true));
}

TEST_CASE("the launchers reject bad shapes before launching", "[gpu][task_2]") {
  REQUIRE(course::check_gemm(&lesson10::mma_sync_gemm, {3, 5, 8, 1.0f, 0.0f}).passed);
  course::bf16* none = nullptr;
  const std::string k_msg = "K must be a multiple of 8";
  const std::string dim_msg = "every dimension must be at least 1";
  std::string m = invalid_argument_message(
      [&] { lesson10::mma_sync_gemm(64, 64, 12, 1, none, none, 0, none); });
  INFO("mma_sync_gemm with K = 12 said: " << m);
  CHECK(m.find(k_msg) != std::string::npos);
  CHECK(m.rfind("mma_sync_gemm", 0) == 0);
  m = invalid_argument_message([&] { lesson10::mma_sync_gemm(0, 64, 64, 1, none, none, 0, none); });
  INFO("mma_sync_gemm with M = 0 said: " << m);
  CHECK(m.find(dim_msg) != std::string::npos);
  m = invalid_argument_message([&] { lesson10::wmma_gemm(64, 64, 12, 1, none, none, 0, none); });
  INFO("wmma_gemm with K = 12 said: " << m);
  CHECK(m.find(k_msg) != std::string::npos);
  m = invalid_argument_message([&] { lesson10::wmma_gemm(0, 64, 64, 1, none, none, 0, none); });
  INFO("wmma_gemm with M = 0 said: " << m);
  CHECK(m.find(dim_msg) != std::string::npos);
  m = invalid_argument_message(
      [&] { lesson10::config_gemm(0, 64, 64, 4, 1, none, none, 0, none); });
  INFO("config_gemm with K = 4 said: " << m);
  CHECK(m.find(k_msg) != std::string::npos);
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson10::config_gemm(-1, 64, 64, 64, 1, none, none, 0, none); }));
}
