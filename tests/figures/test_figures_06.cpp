// Lesson 06's figures held to the functions they draw: the bar marked as the limit is
// occupancy()'s limit with its blocks per SM, in every frame, and the waves drawn are waves()'s.
#include "catch_compat.hpp"

#include "lessons/06-occupancy/figures.hpp"

#include <string>

using namespace lesson06;

TEST_CASE("06 occupancy: the bar marked is occupancy()'s limit, every frame", "[cpu][figures]") {
  const SmLimits sm = h100_limits();
  for (int threads : figure_threads()) {
    for (int regs : figure_registers()) {
      for (int kib : figure_smem_kib()) {
        KernelUsage k;
        k.threads_per_block = threads;
        k.regs_per_thread = regs;
        k.static_smem_bytes = static_cast<std::size_t>(kib) * 1024;
        const Occupancy o = occupancy(sm, k);
        const course::svg::Scene s = occupancy_scene(sm, k);
        INFO(threads << " threads, " << regs << " registers, " << kib << " KiB");
        CHECK(s.count("bar") == 3);  // the three that are not the limit
        CHECK(s.count("bar limit " + limit_name(o.limit) + " " + std::to_string(o.blocks_per_sm)) ==
              1);
        CHECK(s.count("warp") == o.active_warps);
        CHECK_NOTHROW(s.str());
      }
    }
  }
  // The chapter's worked cases: registers bind at 256 x 64, shared memory at 128 x 32 with 48 KiB.
  KernelUsage k{256, 64, 0, 0, -1};
  CHECK(occupancy_scene(sm, k).count("bar limit registers 4") == 1);
  k = KernelUsage{128, 32, 48 * 1024, 0, -1};
  CHECK(occupancy_scene(sm, k).count("bar limit shared memory 4") == 1);
}

TEST_CASE("06 waves: the waves, blocks and idle slots drawn are waves()'s", "[cpu][figures]") {
  for (int per_sm : {1, 2, 3}) {
    for (long long grid = 1; grid <= 20; ++grid) {
      const Waves w = waves(4, per_sm, grid);
      const course::svg::Scene s = waves_scene(4, per_sm, grid);
      INFO(per_sm << " blocks per SM, " << grid << " blocks");
      CHECK(s.count("wave") == w.waves);
      CHECK(s.count("block") + s.count("tail") == grid);
      CHECK(s.count("tail") == w.tail_blocks);
      CHECK(s.count("idle") == w.waves * w.blocks_per_wave - grid);
      CHECK_NOTHROW(s.str());
    }
  }
  // One block past a full wave: a second wave holding that one block.
  CHECK(waves_scene(4, 2, 9).count("wave") == 2);
  CHECK(waves_scene(4, 2, 9).count("idle") == 7);
}
