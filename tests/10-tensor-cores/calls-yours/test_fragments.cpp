// The grader of lesson 10, its tests of your fragment mappings: compiled with each library's
// mma_sync_parts.cuh (yours, or the reference's), calling them by their names.
//
// [cpu] the three fragment mappings of mma.sync.m16n8k16: every element owned exactly once, the
//       entries of the PTX ISA's figures, the whole layout against the grader's own formula, and
//       what ldmatrix.x4 delivers.
#include "catch_compat.hpp"

#include "mma_fragment.hpp"
#include "mma_sync_parts.cuh"  // yours, or the reference's

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
