// The grader of lesson 11 (the TMA pipeline). Linked against the learner's exercise (grade11) and
// against the reference solution (test11).
//
// [cpu] tests: the shared-memory descriptor, field by field; the ring's stage and parities against
//       the mbarrier rules, played on the CPU model with many interleavings, and the model itself
//       catching the classic mistakes; the bytes a stage announces; the empty barrier's count.
//       (The tile order, given code, is checked on the GPU: with more tiles than SMs a missed or
//       repeated tile leaves C wrong.)
//       They never touch the CUDA runtime.
// [gpu] tests (compute capability 9.0): every rung of the ladder on the design's shape grid (K a
//       multiple of 8), problems ragged along one dimension at a time, both epilogues, K not a
//       multiple of the 64-wide k-block, and the precondition messages.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "ring_model.hpp"
#include "tma_pipeline.hpp"

#include "common/buffers.hpp"

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

TEST_CASE("make_smem_descriptor: each field where the PTX ISA puts it", "[cpu][task1]") {
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

TEST_CASE("consumer_slot and producer_slot: stages and parities", "[cpu][task2]") {
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

TEST_CASE("the ring plays through on the CPU model, every ring and interleaving", "[cpu][task2]") {
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
          "[cpu][task2]") {
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

TEST_CASE("stage_tx_bytes and empty_barrier_arrivals", "[cpu][task2]") {
  CHECK(lesson11::compiled::stage_tx_bytes(128, 256, 64) == (128 * 64 + 256 * 64) * 2);
  CHECK(lesson11::compiled::stage_tx_bytes(64, 128, 64) == 24576);
  CHECK(lesson11::compiled::stage_tx_bytes(1, 1, 8) == 32);
  const lesson11::RingProtocol ring = lesson11::compiled::ring_protocol();
  CHECK(ring.empty_barrier_arrivals(8) == 8);
  CHECK(ring.empty_barrier_arrivals(4) == 4);
}

namespace {
// The ladder and the variants the chapter measures: all of them ship, all of them are checked.
std::vector<lesson11::Rung> all_kernels() {
  std::vector<lesson11::Rung> all = lesson11::rungs();
  for (const lesson11::Rung& r : lesson11::variants()) all.push_back(r);
  return all;
}
}  // namespace

TEST_CASE("every rung on the shape grid", "[gpu]") {
  for (const lesson11::Rung& r : all_kernels()) {
    course_test::check_bf16_on_shapes(r.fn, r.name, course::bf16_shape_grid());
  }
}

TEST_CASE("every rung on problems ragged in one dimension at a time", "[gpu]") {
  const std::vector<course_test::EdgeCase> cases = {
      {{129, 256, 128, 1.0f, 0.0f}, "M one row past a 128-row tile: the zero-filled rows of A"},
      {{128, 257, 128, 1.0f, 0.0f}, "N one column past a tile, odd N: the register epilogue"},
      {{128, 264, 128, 1.0f, 0.0f}, "N past a tile, N % 8 == 0: the TMA store clips it"},
      {{128, 256, 72, 1.0f, 0.0f}, "K one 8-wide piece past a k-block: TMA zero-fills the rest"},
      {{256, 512, 8, 1.0f, 0.0f}, "K = 8: a single, mostly empty, k-block"},
      {{300, 520, 1000, 0.5f, 1.5f}, "beta != 0: C is read back in the epilogue"},
      {{1000, 1000, 1024, 1.0f, 0.0f}, "the sanitizer's ragged size"},
      {{2048, 2048, 4096, 1.0f, 0.0f}, "more tiles than SMs: several tiles per persistent block"},
  };
  for (const lesson11::Rung& r : all_kernels()) {
    course_test::check_bf16_on_cases(r.fn, r.name, cases);
  }
}

TEST_CASE("the launchers check K, the sizes and alignment before launching", "[gpu]") {
  course::DeviceBuffer<course::bf16> A(64 * 64), B(64 * 64), C(64 * 64);
  for (const lesson11::Rung& r : lesson11::rungs()) {
    INFO(r.name);
    // The valid neighbour of the refused problems runs and is right: refusing is not all a
    // launcher does (and a stub fails here, as everywhere, with NOT IMPLEMENTED).
    course_test::check_bf16_on_shapes(r.fn, r.name, {{64, 64, 64, 1.0f, 0.0f}});
    CHECK(course_test::throws_invalid_argument(
        [&] { r.fn(64, 64, 60, 1.0f, A.data(), B.data(), 0.0f, C.data()); }));  // K % 8 != 0
    CHECK(course_test::throws_invalid_argument(
        [&] { r.fn(0, 64, 64, 1.0f, A.data(), B.data(), 0.0f, C.data()); }));
    CHECK(course_test::throws_invalid_argument(
        [&] { r.fn(8, 8, 8, 1.0f, A.data() + 1, B.data(), 0.0f, C.data()); }));  // misaligned
  }
}
