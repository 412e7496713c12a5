// Lesson 09's figures held to the functions they draw: the wavefronts the bank picture draws are
// shared_wavefronts', its conflicts bank_conflicts', for every layout and access width, and its
// 4-byte access is the kernel's own; the swizzle picture is a bijection and is Swizzle's.
#include "catch_compat.hpp"

#include "lessons/09-swizzling/figures.hpp"

#include <set>
#include <string>

using namespace lesson09;

TEST_CASE("09 banks: the wavefronts and conflicts drawn are the functions'", "[cpu][figures]") {
  for (ALayout layout : {ALayout::kPlain, ALayout::kPadded, ALayout::kSwizzled}) {
    for (int bytes : {4, 8, 16}) {
      const WarpAddresses addr = column_access(layout, bytes);
      const course::svg::Scene s = banks_scene(layout, bytes);
      INFO(layout_name(layout) << ", " << bytes << "-byte accesses");
      CHECK(s.count("wavefront") == shared_wavefronts(addr, bytes));
      CHECK(s.count("extra") == bank_conflicts(addr, bytes));
      // Every word the warp asks for, once per phase: here no two lanes share a word.
      std::set<std::uint32_t> words;
      for (std::uint32_t a : addr)
        for (int w = 0; w < bytes / 4; ++w) words.insert(a / 4 + w);
      CHECK(s.count("word") == static_cast<int>(words.size()));
      CHECK_NOTHROW(s.str());
    }
    // At 4 bytes it is the first A copy of warp 0 of the final kernel.
    const std::vector<SharedAccess> kernel = final_kernel_shared_accesses(layout);
    REQUIRE(!kernel.empty());
    CHECK(kernel[0].access_bytes == 4);
    CHECK(kernel[0].warps.at(0) == column_access(layout, 4));
  }
  // What the chapter says: plain, 8 wavefronts for the copy (7 extra); padded and swizzled, one.
  CHECK(banks_scene(ALayout::kPlain, 4).count("extra") == 7);
  CHECK(banks_scene(ALayout::kPlain, 16).count("extra") == 28);
  CHECK(banks_scene(ALayout::kPadded, 4).count("wavefront") == 1);
  CHECK(banks_scene(ALayout::kSwizzled, 16).count("wavefront") == 4);
}

TEST_CASE("09 xor swizzle: the places drawn are Swizzle's, a bijection", "[cpu][figures]") {
  for (int mode : {128, 64, 32}) {
    const int chunks = mode / 16;
    for (int follow = 0; follow < 8; ++follow) {
      const course::svg::Scene s = xor_swizzle_scene(mode, follow);
      INFO(mode << "-byte mode, chunk " << follow);
      CHECK(s.count("clash") == 0);
      CHECK(s.count("hole") == 0);
      CHECK(s.count("moved-row") == 0);
      CHECK(s.count("followed") == 8);
      std::set<std::pair<int, int>> places;
      for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < chunks; ++c) {
          const std::uint32_t out =
              swizzle_of_mode(mode, static_cast<std::uint32_t>(r * mode + c * 16));
          const int r2 = static_cast<int>(out / mode), s2 = static_cast<int>(out % mode / 16);
          CHECK(s.count("swz " + std::to_string(r) + " " + std::to_string(c) + " " +
                        std::to_string(r2) + " " + std::to_string(s2)) == 1);
          places.insert({r2, s2});
        }
      }
      CHECK(static_cast<int>(places.size()) == 8 * chunks);
      CHECK_NOTHROW(s.str());
    }
  }
  // The mode's own functions: Swizzle128B is chunk c ^ (r % 8).
  CHECK(xor_swizzle_scene(128, 0).count("swz 3 5 3 6") == 1);
  CHECK(xor_swizzle_scene(64, 0).count("swz 5 1 5 3") == 1);  // c ^ (floor(5 / 2) mod 4) = 1 ^ 2
  CHECK(xor_swizzle_scene(32, 0).count("swz 4 0 4 1") == 1);  // c ^ floor(4 / 4)
}
