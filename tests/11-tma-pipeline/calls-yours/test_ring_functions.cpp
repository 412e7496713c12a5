// The grader of lesson 11, its tests of your functions: compiled with each library's
// pipeline_exercises.cuh (yours, or the reference's), calling them by their names.
//
// [cpu] the shared-memory descriptor, field by field; the ring's stage and parities against the
//       mbarrier rules, played on the CPU model with many interleavings, and the model itself
//       catching the classic mistakes; the bytes a stage announces; the empty barrier's count.
//       They never touch the CUDA runtime.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "ring_model.hpp"
#include "your_ring.hpp"  // your functions (or the reference's), ring_protocol

#include <cstdint>
#include <sstream>
#include <string>

namespace {

std::uint64_t field(std::uint64_t desc, int first_bit, int bits) {
  return (desc >> first_bit) & ((std::uint64_t{1} << bits) - 1);
}

using course_test::said;

// What a wrong field of make_smem_descriptor means: its rule, and a byte count left unshifted.
std::string field_words(std::uint32_t address, std::uint64_t desc, const char* field,
                        std::uint64_t got, std::uint64_t want, const char* rule) {
  std::ostringstream o;
  o << "make_smem_descriptor(0x" << std::hex << address << ") = 0x" << desc << std::dec << ": "
    << field << " is " << got << ", expected " << want << ": " << rule;
  if (want != 0 && got == want << 4) o << "; got the bytes: a byte count is stored >> 4";
  return o.str();
}

// The wgmma swizzle modes by their code in bits 62-63.
const char* swizzle_name(std::uint64_t mode) {
  switch (mode) {
    case 0:
      return "0 is no swizzle";
    case 1:
      return "1 is the 128-byte swizzle";
    case 2:
      return "2 is the 64-byte swizzle";
    default:
      return "3 is the 32-byte swizzle";
  }
}

// What a wrong stage of k-block `it` means; the rule: stage = it % stages.
std::string stage_words(const char* fn, int it, int stages, int got) {
  std::ostringstream o;
  o << fn << "(it = " << it << ", stages = " << stages << "): stage " << got;
  if (got < 0) {
    o << " is negative: `%` of a negative number (it - stages on the first pass) is negative in "
         "C++;";
  } else if (got >= stages) {
    o << " is past the ring's last stage, " << stages - 1 << ";";
  } else if (got == (it + 1) % stages) {
    o << " is one stage ahead;";
  } else if (got == (it + stages - 1) % stages) {
    o << " is one stage behind (the previous k-block's);";
  } else {
    o << " is another k-block's;";
  }
  o << " the stage is it % stages = " << it % stages;
  return o.str();
}

// What a wrong parity means. The consumers wait on `full` for (it / stages) % 2, the producer on
// `empty` for the opposite: the release one pass earlier (parity 1, at once, on pass 0).
std::string parity_words(bool producer, int it, int stages, std::uint32_t got) {
  const std::uint32_t pass = static_cast<std::uint32_t>(it / stages);
  const std::uint32_t want = producer ? (pass % 2) ^ 1u : pass % 2;
  std::ostringstream o;
  o << (producer ? "producer_slot" : "consumer_slot") << "(it = " << it << ", stages = " << stages
    << "): parity " << got << " on pass " << pass << ": ";
  if (got > 1) {
    o << "a parity is 0 or 1; ";
  } else if (got == static_cast<std::uint32_t>(it % 2) && got != want) {
    o << "it flips every k-block, but a stage's barrier completes one phase per pass; ";
  } else if (!producer && pass == 0) {
    o << "a fresh full barrier passes parity 1 at once: the consumers would read before TMA "
         "delivered; ";
  } else if (producer && pass == 0) {
    o << "parity 0 of a fresh empty barrier waits for a release that never comes (a deadlock); ";
  } else {
    o << "one pass off; ";
  }
  o << (producer ? "the producer waits on empty for ((it / stages) % 2) ^ 1 = "
                 : "the consumers wait on full for (it / stages) % 2 = ")
    << want;
  return o.str();
}

// What a wrong stage_tx_bytes means: the rule is A's and B's boxes, 2 bytes per bf16.
std::string tx_words(int m, int n, int k, std::uint32_t got) {
  const long long want = (static_cast<long long>(m) + n) * k * 2;
  std::ostringstream o;
  o << "stage_tx_bytes(" << m << ", " << n << ", " << k << ") = " << got << ": ";
  if (got == static_cast<long long>(m + n) * k) {
    o << "that counts values, not bytes (a bf16 is 2 bytes); ";
  } else if (got == 2LL * m * k || got == 2LL * n * k) {
    o << "only one of the two boxes; ";
  } else if (got == 4LL * (m + n) * k) {
    o << "4 bytes a value, but a bf16 is 2; ";
  } else if (got < want) {
    o << "too few: the full barrier's phase never completes (a hang); ";
  } else {
    o << "too many: TMA never delivers them (a hang); ";
  }
  o << "both boxes, (block_m + block_n) * block_k * 2 = " << want;
  return o.str();
}

// What a wrong empty_barrier_arrivals means: lane 0 of each consumer warp arrives once.
std::string arrivals_words(int warps, std::uint32_t got) {
  std::ostringstream o;
  o << "empty_barrier_arrivals(" << warps << ") = " << got << ": ";
  if (got < static_cast<std::uint32_t>(warps)) {
    o << "the stage is released before every consumer warp is done with it; ";
  } else if (got == static_cast<std::uint32_t>(32 * warps)) {
    o << "one arrival a thread, but only lane 0 of each warp arrives; ";
  } else {
    o << "more than ever arrive: the producer waits forever (a hang); ";
  }
  o << "each consumer warp arrives once, so the count is " << warps;
  return o.str();
}

}  // namespace

TEST_CASE("make_smem_descriptor (wgmma's, rungs 1 to 6): each field where the PTX ISA puts it",
          "[cpu][task_1]") {
  for (std::uint32_t address : {0u, 1024u, 0x4000u, 0x1A420u, 0x37FE0u}) {
    const std::uint64_t d = lesson11::make_smem_descriptor(address);
    // Each sentence names the address and the descriptor: the first line a failure shows.
    {
      INFO(field_words(address, d, "bits 0-13 (start address)", field(d, 0, 14), address >> 4,
                       "the shared address >> 4"));
      CHECK(field(d, 0, 14) == address >> 4);  // start address, >> 4
    }
    {
      INFO(field_words(address, d, "bits 16-29 (leading byte offset)", field(d, 16, 14), 1,
                       "unused by K-major tiles with the 128-byte swizzle: 16 >> 4 = 1"));
      CHECK(field(d, 16, 14) == 1);  // leading byte offset: unused here, 16 >> 4
    }
    {
      INFO(field_words(address, d, "bits 32-45 (stride byte offset)", field(d, 32, 14), 1024 >> 4,
                       "two groups of 8 rows of 128 bytes are 1024 bytes apart, >> 4 = 64"));
      CHECK(field(d, 32, 14) == 1024 >> 4);  // stride byte offset: 8 rows of 128 bytes
    }
    {
      INFO(field_words(address, d, "bits 49-51 (base offset)", field(d, 49, 3), 0,
                       "0, every tile starts on a 1024-byte boundary"));
      CHECK(field(d, 49, 3) == 0);  // base offset: tiles are 1024-byte aligned
    }
    {
      INFO(field_words(address, d, "bits 62-63 (swizzle mode)", field(d, 62, 2), 1,
                       swizzle_name(field(d, 62, 2)))
           << "; TMA wrote the tiles with the 128-byte swizzle, mode 1");
      CHECK(field(d, 62, 2) == 1);  // 128-byte swizzle
    }
    // Nothing else set: the bits between the fields are reserved.
    const std::uint64_t known =
        (0x3FFFull) | (0x3FFFull << 16) | (0x3FFFull << 32) | (0x7ull << 49) | (0x3ull << 62);
    INFO("make_smem_descriptor(0x" << std::hex << address << "): bits 0x" << (d & ~known)
                                   << " are set outside the five fields: a field shifted to the "
                                      "wrong bit, or wider than its bits");
    CHECK((d & ~known) == 0);
  }
  // A k-step of 16 bf16 inside a tile is 32 bytes further: the start field moves by 2.
  INFO(
      "make_smem_descriptor(0x4020) - make_smem_descriptor(0x4000): 32 bytes further must move "
      "the start field (address >> 4) by 2");
  CHECK(lesson11::make_smem_descriptor(0x4020) - lesson11::make_smem_descriptor(0x4000) == 2);
}

TEST_CASE("consumer_slot and producer_slot: stages and parities", "[cpu][task_2]") {
  const int stages = 4;
  const lesson11::RingProtocol ring = lesson11::ring_protocol();
  for (int it = 0; it < 20; ++it) {
    const lesson11::RingSlot c = ring.consumer_slot(it, stages);
    const lesson11::RingSlot p = ring.producer_slot(it, stages);
    // Each sentence names the k-block and the ring: the first line a failure shows says why.
    {
      INFO(stage_words("consumer_slot", it, stages, c.stage));
      CHECK(c.stage == it % stages);
    }
    {
      INFO(stage_words("producer_slot", it, stages, p.stage));
      CHECK(p.stage == it % stages);
    }
    // Pass 0 waits for phase 0 of "full"; pass 1 for phase 1; ...
    {
      INFO(parity_words(false, it, stages, c.parity));
      CHECK(c.parity == static_cast<std::uint32_t>((it / stages) % 2));
    }
    // ...and the producer waits for the consumers' release one pass earlier.
    {
      INFO(parity_words(true, it, stages, p.parity)
           << " (the opposite of consumer_slot's " << c.parity << ")");
      CHECK(p.parity == (c.parity ^ 1u));
    }
  }
}

TEST_CASE("stage_tx_bytes and empty_barrier_arrivals", "[cpu][task_2]") {
  {
    INFO(said([] { return tx_words(128, 256, 64, lesson11::stage_tx_bytes(128, 256, 64)); }));
    CHECK(lesson11::stage_tx_bytes(128, 256, 64) == (128 * 64 + 256 * 64) * 2);
  }
  {
    INFO(said([] { return tx_words(64, 128, 64, lesson11::stage_tx_bytes(64, 128, 64)); }));
    CHECK(lesson11::stage_tx_bytes(64, 128, 64) == 24576);
  }
  {
    INFO(said([] { return tx_words(1, 1, 8, lesson11::stage_tx_bytes(1, 1, 8)); }));
    CHECK(lesson11::stage_tx_bytes(1, 1, 8) == 32);
  }
  const lesson11::RingProtocol ring = lesson11::ring_protocol();
  {
    INFO(said([&] { return arrivals_words(8, ring.empty_barrier_arrivals(8)); }));
    CHECK(ring.empty_barrier_arrivals(8) == 8);
  }
  {
    INFO(said([&] { return arrivals_words(4, ring.empty_barrier_arrivals(4)); }));
    CHECK(ring.empty_barrier_arrivals(4) == 4);
  }
}

TEST_CASE("the ring plays through on the CPU model, every ring and interleaving", "[cpu][task_2]") {
  for (int stages : {1, 2, 3, 4, 5, 7}) {
    for (int warps : {4, 8}) {
      const std::string why = lesson11::check_ring_protocol(lesson11::ring_protocol(), stages,
                                                            warps, 6 * stages + 5, 32);
      INFO(stages << " stages, " << warps << " consumer warps: " << why);
      CHECK(why.empty());
    }
  }
}

TEST_CASE("the CPU model passes your ring and catches the classic protocol mistakes",
          "[cpu][task_2]") {
  using lesson11::RingSlot;
  // Yours first: the model below is the one your ring is held to.
  {
    const std::string yours = lesson11::check_ring_protocol(lesson11::ring_protocol(), 4, 8, 30);
    INFO(
        "your consumer_slot, producer_slot and empty_barrier_arrivals on the CPU model, 4 stages, "
        "8 consumer warps: "
        << yours);
    CHECK(yours.empty());
  }

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
