// The grader of lesson 11 (the TMA pipeline). Linked against the learner's exercise (grade11) and
// against the reference solution (test11).
//
// [cpu] tests: the shared-memory descriptor, field by field; the ring's stage and parities against
//       the mbarrier rules, played on the CPU model with many interleavings, and the model itself
//       catching the classic mistakes; the bytes a stage announces; the empty barrier's count.
//       They never touch the CUDA runtime.
// [gpu] tests (compute capability 9.0 or newer): every rung this GPU runs (all of them on Hopper,
//       the portable rung elsewhere) on the design's shape grid (K a multiple of 8), up to the
//       first failure, problems ragged along one dimension at a time, both epilogues, K not a
//       multiple of the 64-wide k-block, and the precondition messages.
//       Given code that runs on the CPU is checked there too, before the kernels that use it: the
//       bands visit every tile of many grids exactly once, stmatrix's lanes address the rows the
//       staging layout wants, and the headline picks its tile for a shape as the chapter says.
//       (It is given code: a [cpu] test of it alone would pass for an untouched exercise, which
//       must read "not started".) The lab's plans and orders are checked by its own test
//       (lab/test_lab.cpp).
#include "cases.hpp"
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "ring_diagnosis.hpp"  // the lesson's words for a failed check
#include "ring_model.hpp"
#include "staging_layout.hpp"
#include "tile_source.hpp"
#include "tma_pipeline.hpp"

#include "common/buffers.hpp"

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

std::uint64_t field(std::uint64_t desc, int first_bit, int bits) {
  return (desc >> first_bit) & ((std::uint64_t{1} << bits) - 1);
}

}  // namespace

TEST_CASE("make_smem_descriptor (wgmma's, rungs 1 to 6): each field where the PTX ISA puts it",
          "[cpu][task_1]") {
  for (std::uint32_t address : {0u, 1024u, 0x4000u, 0x1A420u, 0x37FE0u}) {
    const std::uint64_t d = lesson11::compiled::make_smem_descriptor(address);
    INFO("shared address 0x" << std::hex << address << ", descriptor 0x" << d);
    CHECK(field(d, 0, 14) == address >> 4);  // start address, >> 4
    CHECK(field(d, 16, 14) == 1);            // leading byte offset: unused here, 16 >> 4
    CHECK(field(d, 32, 14) == 1024 >> 4);    // stride byte offset: 8 rows of 128 bytes
    CHECK(field(d, 49, 3) == 0);             // base offset: tiles are 1024-byte aligned
    CHECK(field(d, 62, 2) == 1);             // 128-byte swizzle
    // Nothing else set: the bits between the fields are reserved.
    const std::uint64_t known =
        (0x3FFFull) | (0x3FFFull << 16) | (0x3FFFull << 32) | (0x7ull << 49) | (0x3ull << 62);
    CHECK((d & ~known) == 0);
  }
  // A k-step of 16 bf16 inside a tile is 32 bytes further: the start field moves by 2.
  CHECK(lesson11::compiled::make_smem_descriptor(0x4020) -
            lesson11::compiled::make_smem_descriptor(0x4000) ==
        2);
}

TEST_CASE("consumer_slot and producer_slot: stages and parities", "[cpu][task_2]") {
  const int stages = 4;
  const lesson11::RingProtocol ring = lesson11::compiled::ring_protocol();
  for (int it = 0; it < 20; ++it) {
    const lesson11::RingSlot c = ring.consumer_slot(it, stages);
    const lesson11::RingSlot p = ring.producer_slot(it, stages);
    INFO("k-block " << it << " in a ring of " << stages << " stages");
    CHECK(c.stage == it % stages);
    CHECK(p.stage == it % stages);
    // Pass 0 waits for phase 0 of "full"; pass 1 for phase 1; ...
    CHECK(c.parity == static_cast<std::uint32_t>((it / stages) % 2));
    // ...and the producer waits for the consumers' release one pass earlier.
    CHECK(p.parity == (c.parity ^ 1u));
  }
}

TEST_CASE("the ring plays through on the CPU model, every ring and interleaving", "[cpu][task_2]") {
  for (int stages : {1, 2, 3, 4, 5, 7}) {
    for (int warps : {4, 8}) {
      const std::string why = lesson11::check_ring_protocol(lesson11::compiled::ring_protocol(),
                                                            stages, warps, 6 * stages + 5, 32);
      INFO(stages << " stages, " << warps << " consumer warps: " << why);
      CHECK(why.empty());
    }
  }
}

TEST_CASE("the CPU model passes your ring and catches the classic protocol mistakes",
          "[cpu][task_2]") {
  using lesson11::RingSlot;
  // Yours first: the model below is the one your ring is held to.
  CHECK(lesson11::check_ring_protocol(lesson11::compiled::ring_protocol(), 4, 8, 30).empty());

  lesson11::ModelBarrier b;
  b.expected = 2;
  CHECK(b.passed(1));  // a fresh barrier: the phase "before" phase 0 counts as completed
  CHECK_FALSE(b.passed(0));
  b.arrive();
  CHECK_FALSE(b.passed(0));  // one arrival of two: not yet
  b.arrive();
  CHECK(b.passed(0));
  CHECK_FALSE(b.passed(1));

  // The grader's own protocols: the right one, and one mistake at a time.
  auto right_consumer = [](int it, int s) {
    return RingSlot{it % s, static_cast<std::uint32_t>((it / s) & 1)};
  };
  auto right_producer = [](int it, int s) {
    return RingSlot{it % s, static_cast<std::uint32_t>(((it / s) & 1) ^ 1)};
  };
  auto per_warp = [](int warps) { return static_cast<std::uint32_t>(warps); };
  CHECK(
      lesson11::check_ring_protocol({right_producer, right_consumer, per_warp}, 4, 8, 30).empty());
  const std::string same_parity = lesson11::check_ring_protocol(
      {right_consumer, right_consumer, per_warp}, 4, 8, 30);  // producer waits for parity 0
  INFO(same_parity);
  CHECK(same_parity.find("deadlock") != std::string::npos);
  const std::string early_consumer = lesson11::check_ring_protocol(
      {right_producer, right_producer, per_warp}, 4, 8, 30);  // consumers wait for parity 1
  INFO(early_consumer);
  CHECK(early_consumer.find("before the data landed") != std::string::npos);
  const std::string one_arrival = lesson11::check_ring_protocol(
      {right_producer, right_consumer, [](int) { return 1u; }}, 4, 8, 30);
  INFO(one_arrival);
  CHECK(one_arrival.find("arrival count") != std::string::npos);
  const std::string too_many = lesson11::check_ring_protocol(
      {right_producer, right_consumer, [](int w) { return static_cast<std::uint32_t>(2 * w); }}, 4,
      8, 30);
  INFO(too_many);
  CHECK(too_many.find("arrival count") != std::string::npos);
}

TEST_CASE("stage_tx_bytes and empty_barrier_arrivals", "[cpu][task_2]") {
  CHECK(lesson11::compiled::stage_tx_bytes(128, 256, 64) == (128 * 64 + 256 * 64) * 2);
  CHECK(lesson11::compiled::stage_tx_bytes(64, 128, 64) == 24576);
  CHECK(lesson11::compiled::stage_tx_bytes(1, 1, 8) == 32);
  const lesson11::RingProtocol ring = lesson11::compiled::ring_protocol();
  CHECK(ring.empty_barrier_arrivals(8) == 8);
  CHECK(ring.empty_barrier_arrivals(4) == 4);
}

namespace {

// "" when the bands of `group` visit each tile of a tiles_m x tiles_n grid exactly once, else the
// first fault.
std::string tile_order_fault(int group, int tiles_m, int tiles_n) {
  std::vector<int> seen(static_cast<std::size_t>(tiles_m) * tiles_n, -1);
  for (int t = 0; t < tiles_m * tiles_n; ++t) {
    const lesson11::TileCoord c = lesson11::grouped_tile(t, tiles_m, tiles_n, group);
    const std::string where = "tile number " + std::to_string(t) + " of a " +
                              std::to_string(tiles_m) + " x " + std::to_string(tiles_n) + " grid";
    if (c.m < 0 || c.m >= tiles_m || c.n < 0 || c.n >= tiles_n) {
      return where + " is (" + std::to_string(c.m) + ", " + std::to_string(c.n) + "), outside it";
    }
    int& first = seen[static_cast<std::size_t>(c.m) * tiles_n + c.n];
    if (first >= 0) {
      return where + " is (" + std::to_string(c.m) + ", " + std::to_string(c.n) +
             "), already visited as number " + std::to_string(first);
    }
    first = t;
  }
  return "";  // as many tiles as cells, none twice: every cell once
}

// The given code on the CPU: the tile order, the stmatrix addresses of the staging layout and the
// headline's choice of a tile.
void check_given_orders_and_layouts() {
  std::vector<std::pair<int, int>> grids;
  for (int m = 1; m <= 24; ++m) {
    for (int n = 1; n <= 24; ++n) grids.emplace_back(m, n);
  }
  for (auto g : {std::pair<int, int>{32, 16}, {64, 32}, {128, 128}, {4, 64}, {63, 65}, {33, 129}}) {
    grids.push_back(g);
  }
  for (const auto& [m, n] : grids) {
    for (int group : {1, 3, 8, 16}) {
      const std::string fault = tile_order_fault(group, m, n);
      INFO("bands of " << group << ": " << fault);
      REQUIRE(fault.empty());
    }
  }
  // stmatrix: register k of lane l holds row l / 4 (+ 8 for k odd) and columns 2 (l % 4), + 1 of
  // column group 2 pair + k / 2; it lands at the address that lane 8 k + l / 4 gives, plus its
  // place in the row. That must be where staging_offset puts the element.
  // The same for the 160-wide tile's slices of 32 columns (pairs 0 and 1): the same 128-byte rows,
  // their first half.
  for (const int slice : {64, 32}) {
    for (int pair = 0; pair < slice / 16; ++pair) {
      for (int lane = 0; lane < 32; ++lane) {
        for (int k = 0; k < 4; ++k) {
          for (int e = 0; e < 2; ++e) {
            const int row = lane / 4 + 8 * (k % 2),
                      col = 16 * pair + 8 * (k / 2) + 2 * (lane % 4) + e;
            const int giver = 8 * k + lane / 4;
            const int at = lesson11::staging_offset(lesson11::stmatrix_row(giver),
                                                    lesson11::stmatrix_col(giver, pair)) +
                           2 * (2 * (lane % 4) + e);
            INFO("slices of " << slice << " columns, stmatrix pair " << pair << ", lane " << lane
                              << ", register " << k);
            REQUIRE(at == lesson11::staging_offset(row, col));
          }
        }
      }
    }
  }
  // The headline's tile for a shape: 192 x 160 only where it saves a wave's worth of padding.
  using lesson11::HeadlineTile;
  struct Shape {
    int m, n;
    HeadlineTile tile;
  };
  for (const Shape& e :
       {Shape{4000, 4000, HeadlineTile::k192x160},  // 525 tiles: 4 waves, not 512
        Shape{4096, 4096, HeadlineTile::k128x256},  // 512 tiles: 4 waves, not 5
        Shape{8192, 8192, HeadlineTile::k128x256}, Shape{16384, 16384, HeadlineTile::k128x256},
        Shape{2048, 2048, HeadlineTile::k128x256},  // one wave, not two
        Shape{512, 8192, HeadlineTile::k128x256}, Shape{8192, 7168, HeadlineTile::k128x256},
        Shape{257, 255, HeadlineTile::k192x160}}) {  // one wave of a smaller tile
    INFO(e.m << " x " << e.n << " on 132 SMs");
    CHECK(lesson11::headline_tile_for(e.m, e.n, 132) == e.tile);
  }
}

}  // namespace

TEST_CASE("every rung on the shape grid", "[gpu][task_2]") {
  check_given_orders_and_layouts();
  check_until_first_failure(lesson11::rungs(), grid_cases());
}

TEST_CASE("every rung on problems ragged in one dimension at a time", "[gpu][task_2]") {
  check_until_first_failure(lesson11::rungs(), ragged_cases());
}

TEST_CASE("the launchers check K, the sizes and alignment before launching", "[gpu][task_2]") {
  course::DeviceBuffer<course::bf16> A(64 * 64), B(64 * 64), C(64 * 64);
  for (const lesson11::Rung& r : lesson11::rungs()) {
    if (!course::fits_current_device(r)) continue;  // a wgmma rung on a GPU without wgmma
    INFO(r.name);
    // The valid neighbour of the refused problems runs and is right: refusing is not all a
    // launcher does (and a stub fails here, as everywhere, with NOT IMPLEMENTED).
    course_test::check_on_shapes(r.run, r.name, {{64, 64, 64, 1.0f, 0.0f}});
    CHECK(course_test::throws_invalid_argument(
        [&] { r.run(64, 64, 60, 1.0f, A.data(), B.data(), 0.0f, C.data()); }));  // K % 8 != 0
    CHECK(course_test::throws_invalid_argument(
        [&] { r.run(0, 64, 64, 1.0f, A.data(), B.data(), 0.0f, C.data()); }));
    CHECK(course_test::throws_invalid_argument(
        [&] { r.run(8, 8, 8, 1.0f, A.data() + 1, B.data(), 0.0f, C.data()); }));  // misaligned
  }
}
