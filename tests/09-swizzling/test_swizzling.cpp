// The grader of lesson 09 (swizzling). Linked against the learner's exercise (grade09) and against
// the reference solution (test09).
//
// [cpu] tests: the bank-conflict counter against worked cases and an independent reference count;
//       the padded index; the three swizzle modes (values, a bijection, conflict-free rows and
//       columns); the swizzled A tile of the kernel (values, a bijection, every shared-memory
//       access of the final kernel conflict-free). They never touch the CUDA runtime.
// [gpu] tests: the padded, swizzled and final kernels on the design's shape grid, problems ragged
//       along one dimension at a time, the one-float-at-a-time path (N not a multiple of 4, B not
//       16-byte aligned), every compiled configuration, and the shape checks.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "bank_conflicts.hpp"
#include "smem_swizzle.hpp"
#include "swizzle_parts.cuh"  // yours, or the reference's
#include "swizzled_sgemm.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm_check.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using lesson09::WarpAddresses;

// The grader's own count of extra wavefronts, written independently of the exercise: per phase,
// the most distinct 4-byte words any bank holds, minus one.
int reference_conflicts(const WarpAddresses& a, int bytes) {
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

std::string show(const WarpAddresses& a) {
  std::ostringstream o;
  for (int t = 0; t < 32; ++t) o << (t ? " " : "") << a[t];
  return o.str();
}

WarpAddresses addresses(std::uint32_t (*f)(int)) {
  WarpAddresses a{};
  for (int t = 0; t < 32; ++t) a[t] = f(t);
  return a;
}

// One worked case of the counter.
struct Case {
  const char* what;
  int bytes;
  WarpAddresses addr;
  int expected;
};

template <class Swz>
std::uint32_t swz(std::uint32_t offset) {
  return Swz{}(offset);
}

// A 16-byte column of a swizzle mode's tile: thread t of quarter-warp q reads chunk `first + q` of
// row t % 8 (rows of `row_bytes`), through the swizzle or not. One quarter-warp, one column.
template <class Swz>
WarpAddresses column_access(int row_bytes, int first, bool swizzled) {
  WarpAddresses a{};
  for (int t = 0; t < 32; ++t) {
    const std::uint32_t off =
        static_cast<std::uint32_t>((t % 8) * row_bytes + 16 * (first + t / 8));
    a[t] = swizzled ? Swz{}(off) : off;
  }
  return a;
}

// Rows of a mode's tile, read as 16-byte chunks in order: 32 consecutive chunks.
template <class Swz>
WarpAddresses row_access(int first_chunk) {
  WarpAddresses a{};
  for (int t = 0; t < 32; ++t) a[t] = Swz{}(static_cast<std::uint32_t>(16 * (first_chunk + t)));
  return a;
}

template <class Swz>
void check_mode(const char* name, int row_bytes, int unswizzled_extra_per_phase) {
  INFO("mode " << name << ": rows of " << row_bytes << " bytes");
  // A bijection, its own inverse, 16-byte chunks kept whole, on several periods of the pattern.
  const std::uint32_t period = 1u << (Swz::kBits + Swz::kBase + Swz::kShift);
  std::set<std::uint32_t> seen;
  for (std::uint32_t off = 0; off < 4 * period; ++off) {
    const std::uint32_t s = Swz{}(off);
    INFO("offset " << off << " -> " << s);
    REQUIRE(s / period == off / period);  // stays in its block of the pattern
    REQUIRE(s % 16 == off % 16);          // a 16-byte chunk moves as a whole
    REQUIRE(Swz{}(s) == off);             // XOR twice with the same row bits: back
    seen.insert(s);
  }
  CHECK(seen.size() == 4 * period);
  // Columns: 8 rows of one 16-byte chunk, for every chunk of the row (four per warp, one per
  // quarter-warp; in the 32-byte mode chunks 2 and 3 are those of rows 1 to 8).
  for (int first = 0; first < std::max(4, row_bytes / 16); first += 4) {
    const WarpAddresses sw = column_access<Swz>(row_bytes, first, true);
    INFO("16-byte column reads of chunks " << first << ".." << first + 3 << " of rows 0-7, "
                                           << "swizzled: " << show(sw));
    CHECK(reference_conflicts(sw, 16) == 0);
    const WarpAddresses plain = column_access<Swz>(row_bytes, first, false);
    CHECK(reference_conflicts(plain, 16) == 4 * unswizzled_extra_per_phase);
  }
  // Rows: 32 consecutive chunks, four quarter-warps of 128 bytes.
  for (int first = 0; first < 64; first += 32) {
    const WarpAddresses r = row_access<Swz>(first);
    INFO("16-byte reads of chunks " << first << ".." << first + 31 << ": " << show(r));
    CHECK(reference_conflicts(r, 16) == 0);
  }
}

// What a wrong bank_conflicts answer means: per phase (32, 16 or 8 threads for 4-, 8- or 16-byte
// accesses), the most distinct 4-byte words one bank holds, minus one.
std::string conflict_words(const WarpAddresses& a, int bytes, int got, int want) {
  std::ostringstream o;
  o << "bank_conflicts = " << got << ", expected " << want << ": ";
  const std::set<std::uint32_t> distinct(a.begin(), a.end());
  if (got == want + bytes / 4) {
    o << "that counts every wavefront; conflicts are the extra ones, wavefronts - 1 per phase";
  } else if (got > want && distinct.size() < 32) {
    o << "threads that read the same word share one wavefront (a broadcast): count distinct words";
  } else if (got > want && bytes > 4) {
    o << "a " << bytes << "-byte access is served in phases of " << 128 / bytes
      << " threads: count each phase alone";
  } else if (got < want) {
    o << "distinct words in one bank (bank = word % 32) each take a wavefront";
  } else {
    o << "per phase, the most distinct words one bank holds, minus one";
  }
  return o.str();
}

// What a wrong Swizzle<B, M, S>{}(offset) means: the B bits from M + S up (the row) are XORed onto
// the B bits from M up (the 16-byte chunk); nothing else changes.
template <class Swz>
std::string swizzle_words(const char* name, std::uint32_t off) {
  const std::uint32_t got = Swz{}(off);
  const std::uint32_t chunk_bits = ((1u << Swz::kBits) - 1u) << Swz::kBase;
  const std::uint32_t row = (off >> (Swz::kBase + Swz::kShift)) & ((1u << Swz::kBits) - 1u);
  std::ostringstream o;
  o << name << "(0x" << std::hex << off << ") = 0x" << got << std::dec << ": ";
  if ((got & ~chunk_bits) != (off & ~chunk_bits)) {
    o << "bits outside the chunk changed; only bits " << Swz::kBase << ".."
      << Swz::kBase + Swz::kBits - 1 << " (the 16-byte chunk) may move";
  } else if (got == off && row != 0) {
    o << "nothing moved, but row bits " << row << " must flip the chunk";
  } else {
    o << "chunk " << ((got & chunk_bits) >> Swz::kBase) << ": wrong steering bits";
  }
  o << "; chunk ^= bits " << Swz::kBase + Swz::kShift << ".."
    << Swz::kBase + Swz::kShift + Swz::kBits - 1 << " (the row, here " << row << ")";
  return o.str();
}

// What a wrong padded_index means: rows of row_length + pad elements.
std::string padded_words(int row, int col, int row_length, int pad, int got) {
  std::ostringstream o;
  o << "padded_index(" << row << ", " << col << ", " << row_length << ", " << pad << ") = " << got
    << ": ";
  if (got == row * row_length + col && pad != 0) {
    o << "the pad is missing: each row is row_length + pad long";
  } else if (got == row * row_length + col + pad) {
    o << "the pad added once, not once per row";
  } else if (got == col * (row_length + pad) + row) {
    o << "row and col swapped";
  } else {
    o << "the rule";
  }
  o << "; row * (row_length + pad) + col = " << row * (row_length + pad) + col;
  return o.str();
}

// What a wrong swizzled_a_index(k, m, bk) means: panel m / 32 is a bk x 32 row-major array, its
// byte offsets through Swizzle<3, 4, 3>.
std::string a_index_words(int k, int m, int bk, int got) {
  const int panel = m / 32, plain = panel * bk * 32 + k * 32 + m % 32;
  std::ostringstream o;
  o << "swizzled_a_index(" << k << ", " << m << ", " << bk << ") = " << got << ": ";
  const int bytes = 4 * (k * 32 + m % 32);
  if (got == panel * bk * 32 +
                 static_cast<int>(lesson09::Swizzle128B{}(static_cast<std::uint32_t>(bytes)))) {
    o << "a byte offset where a float index belongs: the swizzled byte offset must be divided "
         "by 4 (>> 2)";
  } else if (got == plain) {
    o << "not swizzled";
  } else if (got / (bk * 32) != panel) {
    o << "panel " << got / (bk * 32) << ", but m / 32 = " << panel << " (panels of bk x 32)";
  } else if (got == panel * bk * 32 + static_cast<int>(lesson09::Swizzle128B{}(
                                          static_cast<std::uint32_t>(k * 32 + m % 32)))) {
    o << "the swizzle applied to a float index; it works on byte offsets (x 4, then / 4)";
  } else {
    o << "the rule";
  }
  o << "; panel m / 32, then Swizzle<3, 4, 3> of the byte offset 4 (k * 32 + m % 32), / 4";
  return o.str();
}

using course_test::said;

// A problem that is ragged along at most one dimension, and what its failure would mean.
using course_test::EdgeCase;

std::vector<EdgeCase> edge_cases() {
  return {
      {{256, 256, 256, 1.0f, 0.0f},
       "whole tiles only: if this fails, the layout of the A tile is wrong (check_layout accepted "
       "it, so look at the A reads) or a configuration is broken"},
      {{256, 256, 100, 1.0f, 0.0f},
       "only K is ragged: the last stage must hold zeros past K in both tiles"},
      {{250, 256, 256, 1.0f, 0.5f}, "only M is ragged: rows of A past M must be zeros"},
      {{256, 252, 256, 1.0f, 0.5f},
       "only N is ragged (still a multiple of 4): whole float4 quads past N must be zeros"},
      {{256, 255, 256, 1.0f, 0.0f},
       "N is not a multiple of 4: B is copied and C written one float at a time"},
      {{256, 256, 256, 2.0f, -1.5f}, "beta != 0: C must be read and scaled"},
  };
}

void check_edges(const course::GemmFn<course::Fp32>& fn, const std::string& label) {
  course_test::check_on_cases(fn, label, edge_cases());
}

}  // namespace

// ---- Task 1 ------------------------------------------------------------------------------------

TEST_CASE("bank_conflicts: worked cases", "[cpu][task_1]") {
  std::vector<Case> cases = {
      {"thread t reads word t (32 banks, a word each)", 4, addresses([](int t) { return 4u * t; }),
       0},
      {"every thread reads address 0 (one word, broadcast)", 4, addresses([](int) { return 0u; }),
       0},
      {"a column of a 32 x 32 float tile: word 32 t (32 words, all in bank 0)", 4,
       addresses([](int t) { return 128u * t; }), 31},
      {"a stride of 2 words: banks 0, 2, .., 30 hold two words each", 4,
       addresses([](int t) { return 8u * t; }), 1},
      {"threads 0-15 read word 0, threads 16-31 read word 32 (two words in bank 0)", 4,
       addresses([](int t) { return t < 16 ? 0u : 128u; }), 1},
      {"a column of a 33-wide (padded) tile: word 33 t, 32 different banks", 4,
       addresses([](int t) { return 132u * t; }), 0},
      {"8-byte: thread t reads bytes 8t..8t+7 (each half-warp 128 contiguous bytes)", 8,
       addresses([](int t) { return 8u * t; }), 0},
      {"8-byte at a stride of 16 bytes: in each half-warp, two words in every bank used", 8,
       addresses([](int t) { return 16u * t; }), 2},
      {"16-byte: thread t reads bytes 16t..16t+15 (each quarter-warp 128 contiguous bytes)", 16,
       addresses([](int t) { return 16u * t; }), 0},
      {"16-byte: every thread reads bytes 0..15 (broadcast)", 16, addresses([](int) { return 0u; }),
       0},
      {"16-byte: a column of float4s 128 bytes apart (8 words in each of banks 0-3, per phase)", 16,
       addresses([](int t) { return 128u * t; }), 28},
      {"16-byte: a column of float4s 144 bytes apart (padded by one float4: no conflict)", 16,
       addresses([](int t) { return 144u * t; }), 0},
      {"16-byte: quarter-warps read the same 128 bytes (phases are counted separately)", 16,
       addresses([](int t) { return 16u * (t % 8); }), 0},
  };
  for (const Case& c : cases) {
    INFO(c.what << " (" << c.bytes << "-byte accesses); addresses: " << show(c.addr));
    INFO(said([&] {
      return conflict_words(c.addr, c.bytes, lesson09::bank_conflicts(c.addr, c.bytes), c.expected);
    }));
    CHECK(lesson09::bank_conflicts(c.addr, c.bytes) == c.expected);
  }
  INFO("shared_wavefronts = access_bytes / 4 + bank_conflicts");
  CHECK(lesson09::shared_wavefronts(addresses([](int t) { return 128u * t; }), 4) == 32);
}

TEST_CASE("bank_conflicts: random accesses against the grader's own count", "[cpu][task_1]") {
  std::mt19937 rng(9);
  for (int bytes : {4, 8, 16}) {
    for (int trial = 0; trial < 300; ++trial) {
      // Addresses from a small range, so that words collide in banks (and sometimes coincide).
      const std::uint32_t range = 64u << (trial % 5);
      WarpAddresses a{};
      for (auto& x : a) x = (rng() % range) * static_cast<std::uint32_t>(bytes);
      INFO(bytes << "-byte accesses at " << show(a));
      INFO(said([&] {
        return conflict_words(a, bytes, lesson09::bank_conflicts(a, bytes),
                              reference_conflicts(a, bytes));
      }));
      REQUIRE(lesson09::bank_conflicts(a, bytes) == reference_conflicts(a, bytes));
    }
  }
}

TEST_CASE("bank_conflicts: rejects sizes and misaligned addresses", "[cpu][task_1]") {
  // A correct count first: a stub fails here with NOT IMPLEMENTED.
  REQUIRE(lesson09::bank_conflicts(addresses([](int t) { return 4u * t; }), 4) == 0);
  const WarpAddresses a = addresses([](int t) { return 16u * t; });
  CHECK(course_test::throws_invalid_argument([&] { lesson09::bank_conflicts(a, 3); }));
  CHECK(course_test::throws_invalid_argument([&] { lesson09::bank_conflicts(a, 32); }));
  WarpAddresses odd = a;
  odd[5] = 84;  // not a multiple of 16
  CHECK(course_test::throws_invalid_argument([&] { lesson09::bank_conflicts(odd, 16); }));
}

// ---- Task 2 ------------------------------------------------------------------------------------

TEST_CASE("padded_index: rows of row_length + pad", "[cpu][task_2]") {
  INFO("padded_index(row, col, row_length, pad) = row * (row_length + pad) + col");
  {
    INFO(said([] { return padded_words(0, 0, 32, 1, lesson09::padded_index(0, 0, 32, 1)); }));
    CHECK(lesson09::padded_index(0, 0, 32, 1) == 0);
  }
  {
    INFO(said([] { return padded_words(2, 3, 32, 1, lesson09::padded_index(2, 3, 32, 1)); }));
    CHECK(lesson09::padded_index(2, 3, 32, 1) == 69);
  }
  {
    INFO(said([] { return padded_words(2, 3, 32, 0, lesson09::padded_index(2, 3, 32, 0)); }));
    CHECK(lesson09::padded_index(2, 3, 32, 0) == 67);
  }
  {
    INFO(said([] { return padded_words(7, 127, 128, 4, lesson09::padded_index(7, 127, 128, 4)); }));
    CHECK(lesson09::padded_index(7, 127, 128, 4) == 7 * 132 + 127);
  }
  // A column of a 32 x 32 float tile: 31 extra wavefronts plain, none with one float of padding.
  WarpAddresses plain{}, padded{};
  for (int t = 0; t < 32; ++t) {
    plain[t] = 4u * static_cast<std::uint32_t>(lesson09::padded_index(t, 5, 32, 0));
    padded[t] = 4u * static_cast<std::uint32_t>(lesson09::padded_index(t, 5, 32, 1));
  }
  INFO("column 5 of a 32 x 32 tile, pad 0: " << show(plain) << "; pad 1: " << show(padded));
  CHECK(reference_conflicts(plain, 4) == 31);
  CHECK(reference_conflicts(padded, 4) == 0);
  // The kernel pads each row of its A tile by one float4: rows stay 16-byte aligned.
  for (int row = 0; row < 16; ++row) {
    INFO("row " << row << " of a 128-wide tile padded by 4 starts 16-byte aligned");
    CHECK((4 * lesson09::padded_index(row, 0, 128, 4)) % 16 == 0);
  }
}

TEST_CASE("the padded A tile: the final kernel's shared-memory accesses are conflict-free",
          "[cpu][task_2]") {
  for (const lesson09::SharedAccess& a :
       lesson09::final_kernel_shared_accesses(lesson09::ALayout::kPadded)) {
    for (std::size_t w = 0; w < a.warps.size(); ++w) {
      INFO("padded A tile, " << a.what << ", warp instruction " << w << ": " << show(a.warps[w]));
      REQUIRE(reference_conflicts(a.warps[w], a.access_bytes) == 0);
    }
  }
}

// ---- Task 3 ------------------------------------------------------------------------------------

TEST_CASE("Swizzle<B, M, S>: worked values of the 128-byte mode", "[cpu][task_3]") {
  const lesson09::Swizzle128B s;
  INFO("Swizzle<3, 4, 3>: bits 4-6 (the 16-byte chunk) ^= bits 7-9 (the 128-byte row, mod 8)");
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x000u); }));
    CHECK(s(0x000u) == 0x000u);
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x004u); }));
    CHECK(s(0x004u) == 0x004u);  // byte 4 of chunk 0 of row 0: row 0 moves nothing
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x070u); }));
    CHECK(s(0x070u) == 0x070u);  // chunk 7 of row 0
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x080u); }));
    CHECK(s(0x080u) == 0x090u);  // row 1, chunk 0 -> chunk 1
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x090u); }));
    CHECK(s(0x090u) == 0x080u);  // row 1, chunk 1 -> chunk 0
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x3F4u); }));
    CHECK(s(0x3F4u) == 0x384u);  // row 7, chunk 7, byte 4 -> chunk 0, byte 4
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x400u); }));
    CHECK(s(0x400u) == 0x400u);  // row 8 is row 0 again
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle128B>("Swizzle<3, 4, 3>", 0x4A8u); }));
    CHECK(s(0x4A8u) == 0x4B8u);  // row 9 (1), chunk 2 -> 3, byte 8
  }
  INFO("Swizzle<2, 4, 3>: bits 4-5 ^= bits 7-8");
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle64B>("Swizzle<2, 4, 3>", 0x080u); }));
    CHECK(lesson09::Swizzle64B{}(0x080u) == 0x090u);
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle64B>("Swizzle<2, 4, 3>", 0x3F0u); }));
    CHECK(lesson09::Swizzle64B{}(0x3F0u) == 0x3C0u);  // bits 7-8 = 3: chunk bits 4-5 of 3 -> 0
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle64B>("Swizzle<2, 4, 3>", 0x200u); }));
    CHECK(lesson09::Swizzle64B{}(0x200u) == 0x200u);  // bit 9 does not steer in this mode
  }
  INFO("Swizzle<1, 4, 3>: bit 4 ^= bit 7");
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle32B>("Swizzle<1, 4, 3>", 0x080u); }));
    CHECK(lesson09::Swizzle32B{}(0x080u) == 0x090u);
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle32B>("Swizzle<1, 4, 3>", 0x0A0u); }));
    CHECK(lesson09::Swizzle32B{}(0x0A0u) == 0x0B0u);
  }
  {
    INFO(said([] { return swizzle_words<lesson09::Swizzle32B>("Swizzle<1, 4, 3>", 0x100u); }));
    CHECK(lesson09::Swizzle32B{}(0x100u) == 0x100u);
  }
}

TEST_CASE("Swizzle<B, M, S>: bijective, and conflict-free rows and columns in every mode",
          "[cpu][task_3]") {
  // Tiles of 8 rows of 32, 64 or 128 bytes; a 16-byte column of 8 rows unswizzled is a 2-, 4- or
  // 8-way conflict (1, 3 or 7 extra wavefronts per quarter-warp).
  check_mode<lesson09::Swizzle32B>("32B (Swizzle<1, 4, 3>)", 32, 1);
  check_mode<lesson09::Swizzle64B>("64B (Swizzle<2, 4, 3>)", 64, 3);
  check_mode<lesson09::Swizzle128B>("128B (Swizzle<3, 4, 3>)", 128, 7);
  // The kernel's use: 32 threads write the four words of one 16-byte column of 8 rows of 128 bytes.
  WarpAddresses a{};
  for (int t = 0; t < 32; ++t) a[t] = lesson09::Swizzle128B{}(128u * (t / 4) + 4u * (t % 4) + 48u);
  INFO("4-byte writes of column chunk 3 of rows 0-7, 128-byte swizzle: " << show(a));
  CHECK(reference_conflicts(a, 4) == 0);
}

// ---- Task 4 ------------------------------------------------------------------------------------

TEST_CASE("swizzled_a_index: values, and a bijection on every tile the kernels use",
          "[cpu][task_4]") {
  // Each sentence says the rule: panels of 32 columns of m, each a bk x 32 row-major array
  // through Swizzle<3, 4, 3>.
  {
    INFO(said([] { return a_index_words(0, 0, 16, lesson09::swizzled_a_index(0, 0, 16)); }));
    CHECK(lesson09::swizzled_a_index(0, 0, 16) == 0);
  }
  {
    INFO(said([] { return a_index_words(1, 0, 16, lesson09::swizzled_a_index(1, 0, 16)); }));
    CHECK(lesson09::swizzled_a_index(1, 0, 16) == 36);
  }
  {
    INFO(said([] { return a_index_words(3, 37, 16, lesson09::swizzled_a_index(3, 37, 16)); }));
    CHECK(lesson09::swizzled_a_index(3, 37, 16) == 617);
  }
  {
    INFO(said([] { return a_index_words(0, 32, 8, lesson09::swizzled_a_index(0, 32, 8)); }));
    CHECK(lesson09::swizzled_a_index(0, 32, 8) == 256);  // panel 1 starts after 8 rows of 32
  }
  {
    INFO(said([] { return a_index_words(9, 5, 16, lesson09::swizzled_a_index(9, 5, 16)); }));
    CHECK(lesson09::swizzled_a_index(9, 5, 16) == 9 * 32 + 4 * (1 ^ 1) + 1);  // row 9 is row 1
  }
  for (int bk : {8, 16, 32}) {
    for (int bm : {64, 128, 256}) {
      std::vector<int> owner(bk * bm, -1);
      for (int k = 0; k < bk; ++k) {
        for (int m = 0; m < bm; ++m) {
          const int idx = lesson09::swizzled_a_index(k, m, bk);
          INFO("tile " << bk << " x " << bm << ": (k, m) = (" << k << ", " << m << ") -> " << idx);
          REQUIRE(idx >= 0);
          REQUIRE(idx < bk * bm);
          REQUIRE(owner[idx] == -1);  // no two elements in one place
          owner[idx] = k * bm + m;
          if (m % 4 == 0) {
            REQUIRE(idx % 4 == 0);  // a float4 of four consecutive m stays whole and aligned
            for (int j = 1; j < 4; ++j)
              REQUIRE(lesson09::swizzled_a_index(k, m + j, bk) == idx + j);
          }
        }
      }
    }
  }
}

TEST_CASE("the swizzled A tile: the final kernel's shared-memory accesses are conflict-free",
          "[cpu][task_4]") {
  long plain_conflicts = 0;
  for (const lesson09::SharedAccess& a :
       lesson09::final_kernel_shared_accesses(lesson09::ALayout::kSwizzled)) {
    for (std::size_t w = 0; w < a.warps.size(); ++w) {
      INFO("swizzled A tile, " << a.what << ", warp instruction " << w << ": " << show(a.warps[w]));
      REQUIRE(reference_conflicts(a.warps[w], a.access_bytes) == 0);
    }
  }
  // The reason for it all: the same kernel with a plain A tile has conflicts on its A stores.
  for (const lesson09::SharedAccess& a :
       lesson09::final_kernel_shared_accesses(lesson09::ALayout::kPlain)) {
    for (const WarpAddresses& w : a.warps)
      plain_conflicts += reference_conflicts(w, a.access_bytes);
  }
  CHECK(plain_conflicts > 0);
}

// ---- The kernels (task 4 on the GPU) -----------------------------------------------------------

TEST_CASE("padded_sgemm is right on the shape grid", "[gpu][task_2]") {
  course_test::check_on_shapes(&lesson09::padded_sgemm, "padded_sgemm",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("swizzled_sgemm is right on the shape grid", "[gpu][task_4]") {
  course_test::check_on_shapes(&lesson09::swizzled_sgemm, "swizzled_sgemm",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("final_sgemm is right on the shape grid", "[gpu][task_4]") {
  course_test::check_on_shapes(&lesson09::final_sgemm, "final_sgemm",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("ragged along one dimension at a time, and the one-float path", "[gpu][task_4]") {
  check_edges(&lesson09::swizzled_sgemm, "swizzled_sgemm");
  check_edges(&lesson09::padded_sgemm, "padded_sgemm");
  // B one float past a 16-byte boundary: the launcher must take the one-float-at-a-time path.
  const course::GemmFn<course::Fp32> misaligned_b = [](int M, int N, int K, float alpha,
                                                       const float* A, const float* B, float beta,
                                                       float* C) {
    course::DeviceBuffer<float> shifted(static_cast<std::size_t>(K) * N + 1);
    CUDA_CHECK(cudaMemcpy(shifted.data() + 1, B, sizeof(float) * K * N, cudaMemcpyDeviceToDevice));
    lesson09::swizzled_sgemm(M, N, K, alpha, A, shifted.data() + 1, beta, C);
    course::wait_for_gpu("swizzled_sgemm");  // before `shifted` is freed
  };
  course::VerifyOptions options;
  options.label = "swizzled_sgemm, B not 16-byte aligned";
  const course::VerifyReport r =
      course::check_gemm(misaligned_b, {200, 256, 96, 1.0f, 0.5f}, options);
  INFO("B starts 4 bytes past a 16-byte boundary: copies of B must be 4 bytes each");
  INFO(r.describe());
  CHECK(r.passed);
}

TEST_CASE("every compiled configuration is right", "[gpu][task_4]") {
  // The layouts first: a stub fails here with NOT IMPLEMENTED.
  REQUIRE(course::check_gemm(&lesson09::swizzled_sgemm, {33, 65, 17, 1.0f, 0.0f}).passed);
  course_test::check_every_configuration(
      lesson09::sgemm_configs(), "final_sgemm", &lesson09::final_config_for,
      [](int i) -> course::GemmFn<course::Fp32> {
        return [i](int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                   float* C) { lesson09::config_sgemm(i, M, N, K, alpha, A, B, beta, C); };
      },
      {{257, 255, 300, 1.25f, -0.75f}, {300, 512, 64, 1.0f, 0.0f}, {1, 7, 1, 1.0f, 0.0f}});
}

TEST_CASE("the launchers reject bad shapes before launching", "[gpu][task_4]") {
  REQUIRE(course::check_gemm(&lesson09::final_sgemm, {3, 5, 7, 1.0f, 0.0f}).passed);
  float* none = nullptr;
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::final_sgemm(0, 4, 4, 1.0f, none, none, 0.0f, none); }));
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::swizzled_sgemm(4, 0, 4, 1.0f, none, none, 0.0f, none); }));
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::padded_sgemm(4, 4, -1, 1.0f, none, none, 0.0f, none); }));
  CHECK(course_test::throws_invalid_argument(
      [&] { lesson09::config_sgemm(-1, 4, 4, 4, 1.0f, none, none, 0.0f, none); }));
}
