// Lesson 04's figures held to the functions they draw: the sectors and lines the warp-step picture
// outlines are the ones warp_access counts, for every mapping, operand and element size.
#include "catch_compat.hpp"

#include "lessons/04-coalescing/figures.hpp"

using namespace lesson04;

TEST_CASE("04 warp step: the sectors and lines drawn are warp_access's", "[cpu][figures]") {
  for (Mapping m : {Mapping::kNaive, Mapping::kCoalesced, Mapping::kTransposedB}) {
    for (Operand op : {Operand::kA, Operand::kB, Operand::kC}) {
      for (int bytes : {4, 8, 16}) {
        const WarpAddresses all = first_warp_addresses(m, 4096, 4096, 4096, 0, bytes);
        const auto& addr = op == Operand::kA ? all.a : op == Operand::kB ? all.b : all.c;
        const WarpAccess cost = warp_access(addr);
        const course::svg::Scene s = warp_step_scene(m, op, bytes);
        INFO("mapping " << static_cast<int>(m) << ", operand " << static_cast<int>(op) << ", "
                        << bytes << "-byte elements");
        CHECK(s.count("sector") == cost.sectors);
        CHECK(s.count("line") == cost.lines);
        CHECK(s.count("lane") == static_cast<int>(addr.size()));
        CHECK_NOTHROW(s.str());  // every label readable in the book
      }
    }
  }
  // The three cases the chapter names.
  CHECK(warp_step_scene(Mapping::kNaive, Operand::kA, 4).count("line") == 32);
  CHECK(warp_step_scene(Mapping::kCoalesced, Operand::kB, 4).count("line") == 1);
  CHECK(warp_step_scene(Mapping::kCoalesced, Operand::kB, 16).count("sector") == 16);
}
