// The grader of lesson 09, its tests of your index functions: compiled with each library's
// swizzle_parts.cuh (yours, or the reference's), calling them by their names.
//
// [cpu] the padded index; the three swizzle modes (values, a bijection, conflict-free rows and
//       columns); the swizzled A tile's index (values, a bijection on every tile the kernels use).
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "bank_reference.hpp"
#include "smem_swizzle.hpp"
#include "swizzle_parts.cuh"  // yours, or the reference's

#include <cstdint>
#include <set>
#include <sstream>
#include <string>

namespace {

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

}  // namespace

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
