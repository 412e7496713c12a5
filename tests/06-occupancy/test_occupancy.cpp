// The grader of lesson 06 (occupancy). Linked against the learner's exercise (grade06) and against
// the reference solution (test06).
//
// [cpu] tests check the calculator on worked cases with the H100, A100, CC 8.6 and CC 8.9 limits
//       (each limit on its own, then all four together with the binding one named), the waves of
//       a grid, and the launch planner's rules. They never touch the CUDA runtime.
// [gpu] tests check the limits and kernel usage read from the driver, then that the calculator
//       gives exactly what the CUDA runtime's own calculator,
//       cudaOccupancyMaxActiveBlocksPerMultiprocessor, gives for real kernels: lesson 05's tiled
//       kernels, the tuned ones and a set of deliberately different ones, over block sizes,
//       shared-memory sizes and carve-outs. Last, the tuned SGEMM (and lesson 05's TILE 16/32
//       kernels) on the shape grid.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "occupancy.hpp"
#include "occupancy_probe_kernels.hpp"
#include "occupancy_sgemm.hpp"
#include "lessons/05-tiling/tiled_sgemm.hpp"  // lesson 05's tiled kernel (its solution)

#include "common/check.hpp"
#include "common/gemm_check.hpp"

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using lesson06::KernelUsage;
using lesson06::kNoLimit;
using lesson06::Limit;
using lesson06::SmLimits;

constexpr std::size_t kKiB = 1024;

KernelUsage usage(int threads, int regs, std::size_t static_smem = 0, std::size_t dynamic_smem = 0,
                  int carveout = -1) {
  KernelUsage k;
  k.threads_per_block = threads;
  k.regs_per_thread = regs;
  k.static_smem_bytes = static_smem;
  k.dynamic_smem_bytes = dynamic_smem;
  k.carveout_percent = carveout;
  return k;
}

std::string str(const KernelUsage& k) {
  std::ostringstream s;
  s << k.threads_per_block << " threads x " << k.regs_per_thread << " registers, "
    << k.static_smem_bytes << " B static + " << k.dynamic_smem_bytes << " B dynamic shared memory";
  if (k.carveout_percent >= 0) s << ", carve-out " << k.carveout_percent << "%";
  return s.str();
}

std::string count(int blocks) {
  return blocks == kNoLimit ? std::string("kNoLimit") : std::to_string(blocks);
}

// A worked case: a kernel on an SM, what each limit allows, what fits, and why.
struct Case {
  std::string what;
  SmLimits sm;
  KernelUsage k;
  int by_threads, by_registers, by_shared_memory;
  int blocks;  // blocks per SM
  Limit limit;
  int warps;  // active warps per SM
  std::string why;
};

std::vector<Case> worked_cases() {
  const SmLimits h100 = lesson06::h100_limits(), a100 = lesson06::a100_limits();
  const SmLimits cc86 = lesson06::cc86_limits(), cc89 = lesson06::cc89_limits();
  const SmLimits cc75 = lesson06::sm_limits_for(7, 5);
  return {
      {"256 threads x 64 registers", h100, usage(256, 64), 8, 4, 228, 4, Limit::kRegisters, 32,
       "threads: 64 warp slots / 8 warps = 8. Registers: 64 x 32 = 2048 per warp, a partition "
       "(65536 / 4 = 16384) holds 8 warps, the SM 32, i.e. 4 blocks. Shared memory: only the "
       "1 KiB reserve, 233472 / 1024 = 228."},
      {"256 threads x 64 registers", a100, usage(256, 64), 8, 4, 164, 4, Limit::kRegisters, 32,
       "the same register file as the H100: 4 blocks; shared memory 167936 / 1024 = 164."},
      {"1024 threads x 32 registers", h100, usage(1024, 32), 2, 2, 228, 2, Limit::kThreads, 64,
       "threads: 64 / 32 = 2; registers: 1024 per warp, 16 per partition, 64 per SM, 2 blocks. "
       "A tie: both bind, and the tie is named after the first in the order threads, registers, "
       "shared memory, blocks."},
      {"128 threads x 32 registers, 48 KiB dynamic", h100, usage(128, 32, 0, 48 * kKiB), 16, 16, 4,
       4, Limit::kSharedMemory, 16,
       "shared memory: 48 KiB + the 1 KiB reserve = 50176 bytes per block; 233472 / 50176 = "
       "4.65, so 4."},
      {"128 threads x 32 registers, 48 KiB dynamic", a100, usage(128, 32, 0, 48 * kKiB), 16, 16, 3,
       3, Limit::kSharedMemory, 12, "167936 / 50176 = 3.35, so 3."},
      {"256 threads x 33 registers (not a multiple of 8)", h100, usage(256, 33), 8, 6, 228, 6,
       Limit::kRegisters, 48,
       "33 x 32 = 1056 registers per warp, rounded up to 1280 (a multiple of 256: as if 40 per "
       "thread); 16384 / 1280 = 12 warps per partition, 48 per SM, 6 blocks. Without the "
       "rounding, 65536 / (33 x 256) would say 7."},
      {"96 threads x 40 registers (3 warps per block)", h100, usage(96, 40), 21, 16, 228, 16,
       Limit::kRegisters, 48,
       "1280 registers per warp; 16384 / 1280 = 12 warps per partition (not 12.8), 48 per SM; "
       "48 / 3 = 16 blocks. Dividing the whole file, 65536 / 1280 = 51 warps, would say 17: "
       "each partition holds whole warps."},
      {"255 registers", h100, usage(256, 255), 8, 1, 228, 1, Limit::kRegisters, 8,
       "255 x 32 = 8160 -> 8192 per warp, 2 warps per partition, 8 per SM: one block of 8 warps."},
      {"256 registers (over the maximum)", h100, usage(256, 256), 8, 0, 228, 0, Limit::kRegisters,
       0, "no thread may have more than 255 registers: 0 blocks, the kernel cannot launch."},
      {"1024 threads x 72 registers", h100, usage(1024, 72), 2, 0, 228, 0, Limit::kRegisters, 0,
       "2304 registers per warp x 32 warps = 73728 > 65536 registers per block: cannot launch."},
      {"1025 threads", h100, usage(1025, 16), 0, 3, 228, 0, Limit::kThreads, 0,
       "more than max_threads_per_block (1024): cannot launch."},
      {"57 KiB dynamic: the reserve costs a block", h100, usage(128, 32, 0, 57 * kKiB), 16, 16, 3,
       3, Limit::kSharedMemory, 12,
       "57 KiB + 1 KiB reserve = 59392 bytes; 233472 / 59392 = 3.93, so 3. Without the reserve, "
       "228 / 57 = 4 exactly."},
      {"28.5 KiB static: the reserve costs a block", h100, usage(256, 32, 29184), 8, 8, 7, 7,
       Limit::kSharedMemory, 56,
       "29184 + 1024 = 30208 bytes; 233472 / 30208 = 7.73, so 7 (228 / 28.5 would be 8)."},
      {"41 KiB dynamic: the reserve costs a block", a100, usage(128, 32, 0, 41 * kKiB), 16, 16, 3,
       3, Limit::kSharedMemory, 12,
       "41 KiB + 1 KiB = 43008 bytes; 167936 / 43008 = 3.9, so 3 (164 / 41 would be 4)."},
      {"32 threads, 7000 bytes static: the 128-byte unit", h100, usage(32, 16, 7000), 64, 128, 28,
       28, Limit::kSharedMemory, 28,
       "7000 + 1024 = 8024 bytes, allocated as 8064 (63 units of 128); 233472 / 8064 = 28.95, "
       "so 28 (29 without the rounding)."},
      {"32 threads x 16 registers", h100, usage(32, 16), 64, 128, 228, 32, Limit::kBlocks, 32,
       "tiny blocks: threads allow 64, registers 128, but an SM holds at most 32 blocks: half "
       "the warp slots stay empty."},
      {"227 KiB dynamic (the per-block maximum)", h100, usage(128, 32, 0, 227 * kKiB), 16, 16, 1, 1,
       Limit::kSharedMemory, 4, "227 KiB + 1 KiB = 228 KiB: exactly one block."},
      {"228 KiB dynamic (over the maximum)", h100, usage(128, 32, 0, 228 * kKiB), 16, 16, 0, 0,
       Limit::kSharedMemory, 0, "more than the 227 KiB a block may have (opt-in): cannot launch."},
      {"16 KiB static, carve-out 25%", h100, usage(256, 32, 16 * kKiB, 0, 25), 8, 8, 3, 3,
       Limit::kSharedMemory, 24,
       "25% of 228 KiB = 57 KiB, rounded up to the 64 KiB configuration; 65536 / 17408 = 3.76, "
       "so 3 (with no preference: 233472 / 17408 = 13)."},
      {"16 KiB static, carve-out 0%", h100, usage(256, 32, 16 * kKiB, 0, 0), 8, 8, 1, 1,
       Limit::kSharedMemory, 8,
       "a preference of 0 KiB cannot hold a block of 17 KiB: the SM takes the smallest "
       "configuration that can, 32 KiB, and 32768 / 17408 = 1.88, so 1."},
      {"16 KiB static, no carve-out preference", h100, usage(256, 32, 16 * kKiB), 8, 8, 13, 8,
       Limit::kThreads, 64, "233472 / 17408 = 13.4: shared memory allows 13, threads only 8."},
      {"1024 threads x 32 registers", cc86, usage(1024, 32), 1, 2, 100, 1, Limit::kThreads, 32,
       "CC 8.6 has 48 warp slots: one block of 32 warps, 16 slots idle (occupancy 2/3)."},
      {"512 threads x 32 registers", cc86, usage(512, 32), 3, 4, 100, 3, Limit::kThreads, 48,
       "48 / 16 = 3 blocks fill all 48 warp slots."},
      {"64 threads x 16 registers", cc89, usage(64, 16), 24, 64, 100, 24, Limit::kThreads, 48,
       "CC 8.9: 48 / 2 = 24 blocks, and the block limit is also 24: a tie, named threads."},
      {"256 threads x 32 registers, no shared memory (CC 7.5)", cc75, usage(256, 32), 4, 8,
       kNoLimit, 4, Limit::kThreads, 32,
       "Turing reserves nothing per block, so a kernel without shared memory has no "
       "shared-memory limit at all (kNoLimit); 32 warp slots / 8 = 4."},
  };
}

}  // namespace

// ---- CPU: each limit on its own ---------------------------------------------------------------

TEST_CASE("blocks_limited_by_threads counts warp slots", "[cpu][task_1]") {
  for (const Case& c : worked_cases()) {
    INFO(c.sm.name << ", " << c.what << " (" << str(c.k) << ")\nexpected " << c.by_threads
                   << " blocks by threads: " << c.why);
    CHECK(lesson06::blocks_limited_by_threads(c.sm, c.k) == c.by_threads);
  }
  {
    INFO("a block of 100 threads takes 4 warp slots (the last warp a quarter full): 64 / 4 = 16");
    CHECK(lesson06::blocks_limited_by_threads(lesson06::h100_limits(), usage(100, 16)) == 16);
  }
}

TEST_CASE("blocks_limited_by_registers allocates per warp, per partition", "[cpu][task_2]") {
  for (const Case& c : worked_cases()) {
    INFO(c.sm.name << ", " << c.what << " (" << str(c.k) << ")\nexpected " << c.by_registers
                   << " blocks by registers: " << c.why);
    CHECK(lesson06::blocks_limited_by_registers(c.sm, c.k) == c.by_registers);
  }
  {
    INFO("a kernel that uses no registers is not limited by them: kNoLimit");
    CHECK(lesson06::blocks_limited_by_registers(lesson06::h100_limits(), usage(256, 0)) ==
          kNoLimit);
  }
}

TEST_CASE("blocks_limited_by_shared_memory counts the reserve and the unit", "[cpu][task_3]") {
  for (const Case& c : worked_cases()) {
    INFO(c.sm.name << ", " << c.what << " (" << str(c.k) << ")\nexpected "
                   << count(c.by_shared_memory) << " blocks by shared memory: " << c.why);
    CHECK(lesson06::blocks_limited_by_shared_memory(c.sm, c.k) == c.by_shared_memory);
  }
}

// ---- CPU: all four together ---------------------------------------------------------------------

TEST_CASE("occupancy combines the four limits and names the binding one", "[cpu][task_4]") {
  for (const Case& c : worked_cases()) {
    const lesson06::Occupancy o = lesson06::occupancy(c.sm, c.k);
    INFO(c.sm.name << ", " << c.what << " (" << str(c.k) << ")\nexpected " << c.blocks
                   << " blocks per SM, bound by " << lesson06::limit_name(c.limit) << ", "
                   << c.warps << " warps: " << c.why << "\ngot by_threads " << count(o.by_threads)
                   << ", by_registers " << count(o.by_registers) << ", by_shared_memory "
                   << count(o.by_shared_memory) << ", by_blocks " << count(o.by_blocks) << " -> "
                   << o.blocks_per_sm << " blocks, limit " << lesson06::limit_name(o.limit) << ", "
                   << o.active_warps << " warps");
    {
      INFO("occupancy's by_threads is blocks_limited_by_threads(sm, k) (task 1)");
      CHECK(o.by_threads == c.by_threads);
    }
    {
      INFO("occupancy's by_registers is blocks_limited_by_registers(sm, k) (task 2)");
      CHECK(o.by_registers == c.by_registers);
    }
    {
      INFO("occupancy's by_shared_memory is blocks_limited_by_shared_memory(sm, k) (task 3)");
      CHECK(o.by_shared_memory == c.by_shared_memory);
    }
    {
      INFO("by_blocks is the hardware's limit, max_blocks_per_sm");
      CHECK(o.by_blocks == c.sm.max_blocks_per_sm);
    }
    {
      INFO("blocks_per_sm " << o.blocks_per_sm
                            << ": the least of the four limits (0 when one of them is 0: the "
                               "kernel cannot launch)");
      CHECK(o.blocks_per_sm == c.blocks);
    }
    {
      INFO(
          "the binding limit: the first of threads, registers, shared memory, blocks that gives "
          "blocks_per_sm");
      CHECK(o.limit == c.limit);
    }
    {
      INFO("warps_per_block " << o.warps_per_block
                              << ": threads / 32 rounded up, a partial warp takes a whole slot");
      CHECK(o.warps_per_block == (c.k.threads_per_block + 31) / 32);
    }
    {
      INFO("active_warps " << o.active_warps << ": blocks_per_sm x warps_per_block");
      CHECK(o.active_warps == c.warps);
    }
    {
      INFO("occupancy = active warps / max warps per SM (" << c.sm.max_warps_per_sm << ")");
      CHECK(std::fabs(o.occupancy - static_cast<double>(c.warps) / c.sm.max_warps_per_sm) < 1e-12);
    }
  }
}

TEST_CASE("occupancy refuses a usage that makes no sense", "[cpu][task_4]") {
  const SmLimits h100 = lesson06::h100_limits();
  {
    INFO("a worked case first: 512 threads x 32 registers on an H100 is 4 blocks, 100%");
    const lesson06::Occupancy o = lesson06::occupancy(h100, usage(512, 32));
    CHECK(o.blocks_per_sm == 4);
    CHECK(o.occupancy == 1.0);
    CHECK(o.binds(Limit::kThreads));
    CHECK(o.binds(Limit::kRegisters));
    CHECK_FALSE(o.binds(Limit::kSharedMemory));
    CHECK_FALSE(o.binds(Limit::kBlocks));
  }
  INFO(
      "threads_per_block < 1, negative registers, a carve-out outside -1..100 and limits that "
      "were never filled in all throw std::invalid_argument");
  CHECK_THROWS(lesson06::occupancy(h100, usage(0, 32)));
  CHECK_THROWS(lesson06::occupancy(h100, usage(128, -1)));
  CHECK_THROWS(lesson06::occupancy(h100, usage(128, 32, 0, 0, 101)));
  CHECK_THROWS(lesson06::occupancy(SmLimits{}, usage(128, 32)));
  {
    INFO(
        "the tables of the course: H100 228 KiB per SM, 227 KiB per block, 1 KiB reserved; A100 "
        "164 / 163; CC 8.6 1536 threads and 16 blocks; CC 8.9 1536 threads and 24 blocks; CC 12.0 "
        "1536 threads and 99 KiB per block; CC 7.5 no reserve");
    CHECK(h100.smem_per_sm_bytes == 228 * kKiB);
    CHECK(h100.smem_per_block_optin_bytes == 227 * kKiB);
    CHECK(h100.smem_reserved_per_block_bytes == kKiB);
    CHECK(lesson06::a100_limits().smem_per_sm_bytes == 164 * kKiB);
    CHECK(lesson06::cc86_limits().max_threads_per_sm == 1536);
    CHECK(lesson06::cc86_limits().max_blocks_per_sm == 16);
    CHECK(lesson06::cc89_limits().max_blocks_per_sm == 24);
    CHECK(lesson06::sm_limits_for(12, 0).max_threads_per_sm == 1536);
    CHECK(lesson06::sm_limits_for(12, 0).smem_per_block_optin_bytes == 99 * kKiB);
    CHECK(lesson06::sm_limits_for(7, 5).smem_reserved_per_block_bytes == 0);
    CHECK(h100.regs_per_thread_granularity() == 8);
    CHECK_THROWS(lesson06::sm_limits_for(1, 0));
  }
}

// ---- CPU: waves --------------------------------------------------------------------------------

namespace {

// The rule of each field of waves(sm_count, blocks_per_sm, grid), for the words of a failed check.
std::string wave_rule(const char* field, const lesson06::Waves& w) {
  std::ostringstream o;
  o << "waves(...)." << field << " = ";
  const std::string f = field;
  if (f == "grid_blocks") {
    o << w.grid_blocks << ": the grid as given";
  } else if (f == "blocks_per_wave") {
    o << w.blocks_per_wave << ": one block per slot, sm_count x blocks_per_sm";
  } else if (f == "full_waves") {
    o << w.full_waves << ": grid_blocks / blocks_per_wave, rounded down";
  } else if (f == "waves") {
    o << w.waves << ": grid_blocks / blocks_per_wave, rounded up: a partial wave takes a whole one";
  } else if (f == "tail_blocks") {
    o << w.tail_blocks << ": the blocks of the last wave, 1 .. blocks_per_wave (a full last wave "
      << "counts them all, not 0)";
  } else if (f == "last_wave_fill") {
    o << w.last_wave_fill << ": tail_blocks / blocks_per_wave";
  } else if (f == "efficiency") {
    o << w.efficiency << ": grid_blocks / (waves x blocks_per_wave), the slots used";
  } else {
    o << w.exact << ": grid_blocks / blocks_per_wave, not rounded";
  }
  return o.str();
}

}  // namespace

// The CHECK of one field of a Waves, with its rule in scope.
#define CHECK_WAVE(field, expr) \
  do {                          \
    INFO(wave_rule(#field, w)); \
    CHECK(expr);                \
  } while (false)

TEST_CASE("waves: a full wave, one block more, and a large grid", "[cpu][task_5]") {
  {
    INFO("132 SMs x 2 blocks = 264 slots: a grid of 264 blocks is exactly one full wave");
    const lesson06::Waves w = lesson06::waves(132, 2, 264);
    CHECK_WAVE(grid_blocks, w.grid_blocks == 264);
    CHECK_WAVE(blocks_per_wave, w.blocks_per_wave == 264);
    CHECK_WAVE(full_waves, w.full_waves == 1);
    CHECK_WAVE(waves, w.waves == 1);
    CHECK_WAVE(tail_blocks, w.tail_blocks == 264);
    CHECK_WAVE(last_wave_fill, w.last_wave_fill == 1.0);
    CHECK_WAVE(efficiency, w.efficiency == 1.0);
    CHECK_WAVE(exact, w.exact == 1.0);
  }
  {
    INFO("265 blocks: a second wave for a single block; the time doubles for 0.4% more work");
    const lesson06::Waves w = lesson06::waves(132, 2, 265);
    CHECK_WAVE(blocks_per_wave, w.blocks_per_wave == 264);
    CHECK_WAVE(full_waves, w.full_waves == 1);
    CHECK_WAVE(waves, w.waves == 2);
    CHECK_WAVE(tail_blocks, w.tail_blocks == 1);
    CHECK_WAVE(last_wave_fill, std::fabs(w.last_wave_fill - 1.0 / 264) < 1e-12);
    CHECK_WAVE(efficiency, std::fabs(w.efficiency - 265.0 / 528) < 1e-12);
    CHECK_WAVE(exact, std::fabs(w.exact - 265.0 / 264) < 1e-12);
  }
  {
    INFO(
        "4096 x 4096 in 32 x 32 tiles = 16384 blocks, 4 per SM on 132 SMs = 528 per wave: 31 "
        "full waves and a 32nd with 16 blocks (3% full), efficiency 16384 / (32 x 528) = 0.97");
    const lesson06::Waves w = lesson06::waves(132, 4, 16384);
    CHECK_WAVE(full_waves, w.full_waves == 31);
    CHECK_WAVE(waves, w.waves == 32);
    CHECK_WAVE(tail_blocks, w.tail_blocks == 16);
    CHECK_WAVE(last_wave_fill, std::fabs(w.last_wave_fill - 16.0 / 528) < 1e-12);
    CHECK_WAVE(efficiency, std::fabs(w.efficiency - 16384.0 / (32 * 528)) < 1e-12);
    CHECK_WAVE(exact, std::fabs(w.exact - 16384.0 / 528) < 1e-12);
  }
  {
    INFO("one block on 132 SMs: one wave, nearly empty");
    const lesson06::Waves w = lesson06::waves(132, 8, 1);
    CHECK_WAVE(waves, w.waves == 1);
    CHECK_WAVE(full_waves, w.full_waves == 0);
    CHECK_WAVE(tail_blocks, w.tail_blocks == 1);
  }
  INFO("sm_count, blocks_per_sm and grid_blocks below 1 throw std::invalid_argument");
  CHECK_THROWS(lesson06::waves(0, 2, 264));
  CHECK_THROWS(lesson06::waves(132, 0, 264));
  CHECK_THROWS(lesson06::waves(132, 2, 0));
}

// ---- CPU: the planner --------------------------------------------------------------------------

namespace {

// The tuned kernel family as the compiler builds it for the H100 (32 registers each), plus one
// register-hungry configuration.
std::vector<lesson06::LaunchCandidate> family() {
  return {
      {"64x32, 1024 threads", 64, 32, usage(1024, 32, 12 * kKiB)},
      {"32x32, 512 threads", 32, 32, usage(512, 32, 8 * kKiB)},
      {"16x32, 256 threads", 16, 32, usage(256, 32, 6 * kKiB)},
  };
}

}  // namespace

TEST_CASE("choose_launch: occupancy first, then waves, then the larger tile", "[cpu][task_7]") {
  const SmLimits h100 = lesson06::h100_limits();
  {
    INFO(
        "H100, 132 SMs, 4096 x 4096: all three fill the SM (64 warps) and have the same tail "
        "(31.03 waves, efficiency 0.97): the largest tile, 64x32, wins (index 0)");
    CHECK(lesson06::choose_launch(h100, 132, 4096, 4096, family()) == 0);
  }
  {
    INFO(
        "H100, 4064 x 4096: 64x32 needs 64 x 128 = 8192 blocks in 32 waves of 264 (efficiency "
        "0.970), 32x32 needs 127 x 128 = 16256 in 31 waves of 528 (0.993): more than "
        "kEfficiencyTie apart, so 32x32 (index 1); 16x32 has the same efficiency as 32x32 but the "
        "smaller tile");
    CHECK(lesson06::choose_launch(h100, 132, 4064, 4096, family()) == 1);
  }
  {
    INFO(
        "H100, 2912 x 6304: 64x32 reaches 0.981, 32x32 and 16x32 0.999: within kEfficiencyTie "
        "(0.02), so the largest tile, 64x32, still wins (index 0)");
    CHECK(lesson06::choose_launch(h100, 132, 2912, 6304, family()) == 0);
  }
  {
    std::vector<lesson06::LaunchCandidate> c = family();
    c.insert(c.begin(), {"64x64, 1024 threads, 48 registers", 64, 64, usage(1024, 48, 16 * kKiB)});
    INFO(
        "a 64x64 tile at 48 registers fits one block of 32 warps (50%): a larger tile, but the "
        "others fill all 64 warp slots, and occupancy comes first (64x32, now index 1)");
    CHECK(lesson06::choose_launch(h100, 132, 4096, 4096, c) == 1);
  }
  {
    INFO(
        "CC 8.6 (48 warp slots), 84 SMs, 4096 x 4096: 64x32's 1024-thread block fits once (32 "
        "warps); 32x32 fits 3 times and 16x32 6 times (48 warps each), same efficiency: 32x32 "
        "(index 1)");
    CHECK(lesson06::choose_launch(lesson06::cc86_limits(), 84, 4096, 4096, family()) == 1);
  }
  {
    std::vector<lesson06::LaunchCandidate> c = family();
    c[0].usage.regs_per_thread = 72;  // 1024 x 72 registers cannot launch
    INFO("a candidate that cannot launch (0 blocks) is never chosen, even with the largest tile");
    CHECK(lesson06::choose_launch(h100, 132, 4096, 4096, c) == 1);
  }
  INFO("no candidates, no candidate that can launch, or M, N below 1: std::invalid_argument");
  CHECK_THROWS(lesson06::choose_launch(h100, 132, 4096, 4096, {}));
  CHECK_THROWS(
      lesson06::choose_launch(h100, 132, 4096, 4096, {{"too big", 64, 64, usage(1024, 128)}}));
  CHECK_THROWS(lesson06::choose_launch(h100, 132, 0, 4096, family()));
}

// ---- GPU: the driver's numbers ------------------------------------------------------------------

TEST_CASE("query_sm_limits reports what the driver reports", "[gpu][task_6]") {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const SmLimits s = lesson06::query_sm_limits(dev);
  auto attr = [dev](cudaDeviceAttr a) { return course_test::device_attribute(dev, a); };
  INFO("device " << dev << ": " << s.name);
  CHECK(s.cc_major == attr(cudaDevAttrComputeCapabilityMajor));
  CHECK(s.cc_minor == attr(cudaDevAttrComputeCapabilityMinor));
  CHECK(s.warp_size == attr(cudaDevAttrWarpSize));
  CHECK(s.max_threads_per_block == attr(cudaDevAttrMaxThreadsPerBlock));
  CHECK(s.max_threads_per_sm == attr(cudaDevAttrMaxThreadsPerMultiProcessor));
  CHECK(s.max_warps_per_sm == s.max_threads_per_sm / s.warp_size);
  CHECK(s.max_blocks_per_sm == attr(cudaDevAttrMaxBlocksPerMultiprocessor));
  CHECK(s.regs_per_sm == attr(cudaDevAttrMaxRegistersPerMultiprocessor));
  CHECK(s.max_regs_per_block == attr(cudaDevAttrMaxRegistersPerBlock));
  CHECK(s.smem_per_sm_bytes ==
        static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor)));
  CHECK(s.smem_per_block_optin_bytes ==
        static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin)));
  {
    INFO("the per-block reserve: cudaDevAttrReservedSharedMemoryPerBlock");
    CHECK(s.smem_reserved_per_block_bytes ==
          static_cast<std::size_t>(attr(cudaDevAttrReservedSharedMemoryPerBlock)));
  }
  {
    INFO("the allocation rules (not reported by the driver) come from the table");
    CHECK(s.max_regs_per_thread == 255);
    CHECK(s.reg_alloc_unit == 256);
    CHECK(s.reg_partitions == 4);
  }
  // The course's table must agree with the driver for a GPU it lists.
  const int cc = s.cc_major * 10 + s.cc_minor;
  if (cc == 75 || cc == 80 || cc == 86 || cc == 89 || cc == 90 || cc == 120) {
    const SmLimits t = lesson06::sm_limits_for(s.cc_major, s.cc_minor);
    INFO("lessons' table for CC " << s.cc_major << "." << s.cc_minor << " against this GPU");
    CHECK(t.max_threads_per_sm == s.max_threads_per_sm);
    CHECK(t.max_blocks_per_sm == s.max_blocks_per_sm);
    CHECK(t.regs_per_sm == s.regs_per_sm);
    CHECK(t.smem_per_sm_bytes == s.smem_per_sm_bytes);
    CHECK(t.smem_per_block_optin_bytes == s.smem_per_block_optin_bytes);
    CHECK(t.smem_reserved_per_block_bytes == s.smem_reserved_per_block_bytes);
  }
}

TEST_CASE("kernel_usage reads the compiler's registers and shared memory", "[gpu][task_6]") {
  for (const lesson06::LessonKernel& k : lesson06::lesson_kernels()) {
    cudaFuncAttributes a{};
    CUDA_CHECK(cudaFuncGetAttributes(&a, k.kernel));
    const KernelUsage u = lesson06::kernel_usage(k.kernel, k.threads, 4096);
    INFO(k.name << ": cudaFuncGetAttributes says numRegs " << a.numRegs << ", sharedSizeBytes "
                << a.sharedSizeBytes << ", preferredShmemCarveout " << a.preferredShmemCarveout);
    CHECK(u.threads_per_block == k.threads);
    CHECK(u.regs_per_thread == a.numRegs);
    CHECK(u.static_smem_bytes == a.sharedSizeBytes);
    {
      INFO("the dynamic shared memory is the launch's, passed in");
      CHECK(u.dynamic_smem_bytes == 4096);
    }
    CHECK(u.carveout_percent == a.preferredShmemCarveout);
  }
}

// ---- GPU: the calculator against the CUDA runtime's ---------------------------------------------

namespace {

// Compares the calculator with cudaOccupancyMaxActiveBlocksPerMultiprocessor for one launch.
void compare_with_api(const SmLimits& sm, const std::string& name, const void* kernel, int threads,
                      std::size_t dynamic_smem) {
  const KernelUsage u = lesson06::kernel_usage(kernel, threads, dynamic_smem);
  const lesson06::Occupancy o = lesson06::occupancy(sm, u);
  const int api = lesson06::api_blocks_per_sm(kernel, threads, dynamic_smem);
  INFO(name << " with " << str(u) << " on " << sm.name << ":\n  calculator: by_threads "
            << count(o.by_threads) << ", by_registers " << count(o.by_registers)
            << ", by_shared_memory " << count(o.by_shared_memory) << ", by_blocks "
            << count(o.by_blocks) << " -> " << o.blocks_per_sm << " blocks per SM ("
            << lesson06::limit_name(o.limit)
            << ")\n  cudaOccupancyMaxActiveBlocksPerMultiprocessor: " << api
            << "\n  (more than the runtime: a rounding is missing, e.g. registers to 256 per warp "
               "or whole warps per partition, shared memory's 1 KiB reserve or 128-byte unit; "
               "fewer: a rounding too many, or the carve-out)");
  CHECK(o.blocks_per_sm == api);
}

}  // namespace

TEST_CASE("the calculator equals the CUDA runtime for the lesson's kernels", "[gpu][task_4]") {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const SmLimits sm = lesson06::query_sm_limits(dev);
  lesson06::prepare_tuned_kernels();  // the tuned kernels as they launch: carve-out set
  for (const lesson06::LessonKernel& k : lesson06::lesson_kernels()) {
    compare_with_api(sm, k.name, k.kernel, k.threads, 0);
    // The same kernel with extra dynamic shared memory: fewer blocks fit. (At most 48 KiB in
    // all, the limit of a kernel that has not opted in to more.)
    for (std::size_t pad : {std::size_t{3000}, std::size_t{10000}, std::size_t{30 * kKiB}}) {
      compare_with_api(sm, k.name + " + padding", k.kernel, k.threads, pad);
    }
  }
}

TEST_CASE("the calculator equals the CUDA runtime for deliberately different kernels",
          "[gpu][task_4]") {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const SmLimits sm = lesson06::query_sm_limits(dev);
  const std::vector<int> block_sizes = {32, 64, 96, 128, 160, 256, 384, 512, 640, 768, 1024};
  for (const probe06::ProbeKernel& p : probe06::probe_kernels()) {
    cudaFuncAttributes a{};
    CUDA_CHECK(cudaFuncGetAttributes(&a, p.kernel));
    std::vector<std::size_t> dynamic = {0};
    if (p.dynamic_smem) {
      const std::size_t most = sm.smem_per_block_optin_bytes - a.sharedSizeBytes;
      dynamic = {0, 1000, 7000, 20 * kKiB, 48 * kKiB, 57 * kKiB, 100 * kKiB, most};
    }
    for (int carveout : {-1, 0, 25, 50, 100}) {
      CUDA_CHECK(
          cudaFuncSetAttribute(p.kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
      for (int threads : block_sizes) {
        if (threads > a.maxThreadsPerBlock) continue;  // its __launch_bounds__ forbid it
        for (std::size_t dyn : dynamic) {
          if (dyn + a.sharedSizeBytes > sm.smem_per_block_optin_bytes) continue;
          compare_with_api(sm, p.name, p.kernel, threads, dyn);
        }
      }
    }
    CUDA_CHECK(cudaFuncSetAttribute(p.kernel, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
  }
}

// ---- GPU: the tuned SGEMM
// ------------------------------------------------------------------------

TEST_CASE("tuned_tiled_sgemm (and lesson 05's TILE 16/32 kernels) are right on the shape grid",
          "[gpu][task_7]") {
  const std::vector<std::pair<std::string, course::GemmFn<course::Fp32>>> kernels = {
      {"tuned_tiled_sgemm", &lesson06::tuned_tiled_sgemm},
      {"tiled_sgemm<16> (lesson 05)", &lesson05::tiled_sgemm<16>},
      {"tiled_sgemm<32> (lesson 05)", &lesson05::tiled_sgemm<32>},
  };
  for (const auto& [name, fn] : kernels) {
    course_test::check_on_shapes(fn, name, course::shape_grid<course::Fp32>(true));
  }
  // Each configuration of the family, whichever the planner picks for the grid's shapes.
  for (int i = 0; i < static_cast<int>(lesson06::tuned_configs().size()); ++i) {
    course_test::check_on_shapes(
        [i](int M, int N, int K, float alpha, const float* A, const float* B, float beta,
            float* C) { lesson06::tuned_config_sgemm(i, 0, M, N, K, alpha, A, B, beta, C); },
        lesson06::tuned_configs()[i].name, course::shape_grid<course::Fp32>(false));
  }
  INFO("M, N or K below 1 throws std::invalid_argument");
  CHECK_THROWS(lesson06::tuned_tiled_sgemm(0, 4, 4, 1.0f, nullptr, nullptr, 0.0f, nullptr));
  CHECK_THROWS(lesson06::tuned_tiled_sgemm(4, 4, 0, 1.0f, nullptr, nullptr, 0.0f, nullptr));
}
