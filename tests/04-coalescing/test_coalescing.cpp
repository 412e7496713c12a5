// The grader of lesson 04 (coalescing). Linked against the learner's exercise (grade04) and
// against the reference solution (test04).
//
// [cpu] task 1: warp_access on worked cases, and the warp traces of the three mappings. No CUDA.
// [gpu] tasks 2 and 3: coalesced_sgemm and transposed_b_sgemm on the course's shape grid, with C
//       poisoned and guarded by canaries, against Eigen (course::check_gemm). transposed_b_sgemm
//       takes Bt (N x K): the check goes through transposed_b_for_checking(), which transposes B
//       on the host before calling it.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "coalesced_sgemm.hpp"
#include "warp_access.hpp"

#include "common/gemm_check.hpp"
#include "lessons/03-naive/causes.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace lesson04;
using course_test::throws_invalid_argument;

namespace {

// Byte offsets of 32 lanes reading floats `stride` floats apart, the first at `first` bytes.
std::vector<long long> lanes(long long first, long long stride, int count = kWarpSize) {
  std::vector<long long> v;
  for (int lane = 0; lane < count; ++lane) v.push_back(first + lane * stride * 4);
  return v;
}

std::string show(const std::vector<long long>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size() && i < 6; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() > 6 ? ", ... (" + std::to_string(v.size()) + " lanes)}" : "}");
}

// Shapes beyond the course's grid: tall and wide ones catch a grid with x and y swapped (x must
// cover the N columns), and 31/32/33 put the edge of C around a block edge.
const std::vector<course::GemmShape> kEdgeShapes = {
    {1000, 1, 7, 1.0f, 0.0f},   {1, 1000, 7, 1.0f, 0.0f},  {32, 32, 32, 1.0f, 0.0f},
    {31, 33, 1, 1.0f, 0.5f},    {33, 31, 2, -2.0f, 0.0f},  {64, 96, 3, 1.0f, -1.0f},
    {40, 2050, 9, 0.5f, 0.25f}, {2050, 40, 9, 1.0f, 0.0f}, {97, 65, 1, 1.0f, 0.0f},
};

void check_on_shapes(const course::GemmFn<course::Fp32>& fn, const char* label) {
  std::vector<course::GemmShape> shapes = course::shape_grid<course::Fp32>();
  shapes.insert(shapes.end(), kEdgeShapes.begin(), kEdgeShapes.end());
  course_test::check_on_shapes(fn, label, shapes);
}

}  // namespace

// ---- Task 1: what a warp-wide access costs ------------------------------------------------------

// What a wrong count of warp_access means, from the counts a usual mistake gives.
std::string access_words(const std::vector<long long>& offsets, const WarpAccess& got,
                         const WarpAccess& want) {
  auto distinct = [&](long long bytes) {
    std::vector<long long> v;
    for (long long o : offsets) v.push_back(o / bytes);
    std::sort(v.begin(), v.end());
    return static_cast<int>(std::unique(v.begin(), v.end()) - v.begin());
  };
  std::ostringstream o;
  o << "warp_access: " << got.sectors << " sectors, " << got.lines << " lines where "
    << want.sectors << " and " << want.lines << " belong: ";
  const int lanes = static_cast<int>(offsets.size());
  if (got.sectors == lanes && want.sectors != lanes)
    o << "one sector a lane, but lanes in the same sector share it (count distinct offset / 32)";
  else if (got.sectors == distinct(kLineBytes) && want.sectors != got.sectors)
    o << "the sectors counted with the line's 128 bytes (a sector is offset / 32)";
  else if (got.lines == distinct(kSectorBytes) && want.lines != got.lines)
    o << "the lines counted with the sector's 32 bytes (a line is offset / 128)";
  else if (got.lines == lanes && want.lines != lanes)
    o << "one line a lane, but lanes in the same line share it (count distinct offset / 128)";
  else
    o << "each distinct offset / 32 is a sector, each distinct offset / 128 a line";
  return o.str();
}

TEST_CASE("warp_access: worked cases", "[cpu][task_1]") {
  struct Case {
    const char* what;
    std::vector<long long> addresses;
    int sectors, lines;
  };
  const Case cases[] = {
      {"32 consecutive floats from a line start", lanes(0, 1), 4, 1},
      {"32 consecutive floats, the next line", lanes(128, 1), 4, 1},
      {"32 consecutive floats, one float off a line start", lanes(4, 1), 5, 2},
      {"32 consecutive floats starting mid-line (byte 64)", lanes(64, 1), 4, 2},
      {"a broadcast: every lane the same float", lanes(12, 0), 1, 1},
      {"a broadcast far into the matrix", lanes(4096 * 4 * 7 + 40, 0), 1, 1},
      {"floats 2 apart (every other column)", lanes(0, 2), 8, 2},
      {"floats 8 apart: one per sector", lanes(0, 8), 32, 8},
      {"floats 32 apart: one per line", lanes(0, 32), 32, 32},
      {"floats 4096 apart: a column of a 4096-wide matrix", lanes(0, 4096), 32, 32},
      {"floats 3 apart: lines and sectors not aligned to the lanes", lanes(0, 3), 12, 3},
      {"one lane", {100}, 1, 1},
      {"16 lanes, consecutive (a half-filled warp)", lanes(0, 1, 16), 2, 1},
      {"two lanes in one sector, at its two ends", {32, 60}, 1, 1},
      {"two lanes across a sector boundary", {28, 32}, 2, 1},
      {"two lanes across a line boundary", {124, 128}, 2, 2},
      {"lanes in reverse order", {124, 120, 8, 4, 0}, 2, 1},
  };
  for (const Case& c : cases) {
    const WarpAccess got = warp_access(c.addresses);
    INFO(access_words(c.addresses, got, {c.sectors, c.lines}));
    INFO(c.what << ": byte offsets " << show(c.addresses) << "\n  got " << got.sectors
                << " sectors, " << got.lines << " lines; expected " << c.sectors << " sectors, "
                << c.lines << " lines (sector = offset / " << kSectorBytes << ", line = offset / "
                << kLineBytes << ", each counted once)");
    CHECK(got.sectors == c.sectors);
    CHECK(got.lines == c.lines);
  }
}

TEST_CASE("warp traces of the three mappings at 4096^3", "[cpu][task_1]") {
  const int n = 4096;
  struct Case {
    Mapping mapping;
    const char* name;
    WarpAccess a, b, c;
  };
  // Lesson 03: lanes on 32 rows. A: 32 rows 16 KiB apart; B: one float for all; C: 32 rows.
  // Lesson 04: lanes on 32 columns. A: one float for all; B and C: one line each.
  // The contrast: lanes on 32 columns, reading 32 rows of Bt, 16 KiB apart.
  const Case cases[] = {
      {Mapping::kNaive, "naive (x down the rows)", {32, 32}, {1, 1}, {32, 32}},
      {Mapping::kCoalesced, "coalesced (x along the columns)", {1, 1}, {4, 1}, {4, 1}},
      {Mapping::kTransposedB, "transposed B (x along the columns, Bt)", {1, 1}, {32, 32}, {4, 1}},
  };
  for (const Case& c : cases) {
    for (int k : {0, 1, 7, 4095}) {
      const WarpAddresses w = first_warp_addresses(c.mapping, n, n, n, k);
      const WarpAccess a = warp_access(w.a), b = warp_access(w.b), st = warp_access(w.c);
      INFO(c.name << ", k = " << k << ": A " << a.sectors << "/" << a.lines << ", B " << b.sectors
                  << "/" << b.lines << ", C " << st.sectors << "/" << st.lines
                  << " (sectors/lines); expected A " << c.a.sectors << "/" << c.a.lines << ", B "
                  << c.b.sectors << "/" << c.b.lines << ", C " << c.c.sectors << "/" << c.c.lines);
      CHECK(a.sectors == c.a.sectors);
      CHECK(a.lines == c.a.lines);
      CHECK(b.sectors == c.b.sectors);
      CHECK(b.lines == c.b.lines);
      CHECK(st.sectors == c.c.sectors);
      CHECK(st.lines == c.c.lines);
    }
  }
  // A small K packs the strided rows closer: K = 4 puts two lanes' floats in each sector of A.
  const WarpAccess small = warp_access(first_warp_addresses(Mapping::kNaive, 64, 64, 4).a);
  INFO("naive mapping, K = 4: rows of A are 16 bytes apart, so 2 lanes share each sector");
  CHECK(small.sectors == 16);
  CHECK(small.lines == 4);
}

// ---- Task 2: the coalesced SGEMM ---------------------------------------------------------------

TEST_CASE("coalesced_sgemm matches Eigen on the shape grid", "[gpu][task_2]") {
  check_on_shapes(coalesced_sgemm, "coalesced_sgemm");
  float* none = nullptr;
  INFO("coalesced_sgemm must throw std::invalid_argument for a dimension below 1");
  CHECK(throws_invalid_argument([&] { coalesced_sgemm(0, 4, 4, 1, none, none, 0, none); }));
  CHECK(throws_invalid_argument([&] { coalesced_sgemm(4, 0, 4, 1, none, none, 0, none); }));
  CHECK(throws_invalid_argument([&] { coalesced_sgemm(4, 4, 0, 1, none, none, 0, none); }));
}

// ---- Task 3: the transposed-B contrast ---------------------------------------------------------

TEST_CASE("transposed_b_sgemm (given Bt) matches Eigen on the shape grid", "[gpu][task_3]") {
  check_on_shapes(transposed_b_for_checking(), "transposed_b_sgemm");
  float* none = nullptr;
  INFO("transposed_b_sgemm must throw std::invalid_argument for a dimension below 1");
  CHECK(throws_invalid_argument([&] { transposed_b_sgemm(0, 4, 4, 1, none, none, 0, none); }));
  CHECK(throws_invalid_argument([&] { transposed_b_sgemm(4, 4, -3, 1, none, none, 0, none); }));
}
