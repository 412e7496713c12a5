// Lesson 11: a model of the ring on the CPU. It plays the producer and the consumers of the
// kernels, step by step, with mbarriers modelled as the PTX ISA describes them, and uses a ring
// protocol (yours: consumer_slot, producer_slot and empty_barrier_arrivals) to decide who may go
// on. It finds, in
// a second and on the CPU, what on the GPU would be a hang or a silent race:
//   - a wait that can never return (both sides blocked: a deadlock, the GPU would hang);
//   - the producer refilling a stage the consumers have not finished (a race: wrong results);
//   - a consumer reading a stage before its k-block has landed, or the wrong k-block.
// The launchers run it before their first launch; the grader runs it with many interleavings.
#pragma once

#include "ring_slot.hpp"

#include "common/todo.hpp"  // COURSE_HD

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace lesson11 {

/// A ring protocol, as functions: the three of pipeline_exercises.cuh.
struct RingProtocol {
  std::function<RingSlot(int it, int stages)> producer_slot, consumer_slot;
  std::function<std::uint32_t(int consumer_warps)> empty_barrier_arrivals;
};

/// An mbarrier as the PTX ISA describes it: a phase completes when the expected arrivals are in;
/// waiting for parity P succeeds once the phase of parity P has completed, which is when the
/// current phase's parity differs from P.
//! [model_barrier]
struct ModelBarrier {
  std::uint32_t expected = 1, arrived = 0, phase = 0;
  bool passed(std::uint32_t parity) const { return (phase & 1u) != parity; }
  void arrive() {
    if (++arrived == expected) {
      arrived = 0;
      ++phase;
    }
  }
};
//! [model_barrier]

/// One move of the ring as play_ring made it, and the ring right after it (for pictures of it).
struct RingMove {
  bool producer = true;  ///< the producer loaded k-block `it` (else the consumers released it)
  int it = 0;            ///< the k-block
  RingSlot slot;         ///< what the protocol gave for it: the stage, the parity waited for
  std::vector<ModelBarrier> full, empty;
  std::vector<int> holds;      ///< the k-block in each stage, -1: none yet
  std::vector<bool> released;  ///< whether the k-block in each stage has been released
  int produced = 0, consumed = 0;
};

/// The observer of a play_ring that has none.
struct NoObserver {
  void operator()(const RingMove&) const {}
};

/// Plays `iterations` k-blocks through a ring of `stages` stages with `consumer_warps` consumer
/// warps, in the order `schedule` picks (true: the producer tries a step, false: the consumers
/// do), and calls `observe(const RingMove&)` after every move. Returns "" when every k-block went
/// through correctly, else what went wrong, in words.
template <typename Schedule, typename Observe = NoObserver>
std::string play_ring(const RingProtocol& ring, int stages, int consumer_warps, int iterations,
                      Schedule schedule, Observe observe = {}) {
  const std::uint32_t arrivals = ring.empty_barrier_arrivals(consumer_warps);
  if (arrivals == 0) {
    return "empty_barrier_arrivals returned 0: a barrier needs at least one arrival";
  }
  std::vector<ModelBarrier> full(stages), empty(stages);
  for (ModelBarrier& b : empty) b.expected = arrivals;
  std::vector<int> holds(stages, -1);        // the k-block in each stage, -1: none
  std::vector<bool> consumed(stages, true);  // has the k-block there been released?
  int produced = 0, consumed_count = 0;
  const std::string ctx = " (" + std::to_string(stages) + " stages, " +
                          std::to_string(consumer_warps) + " consumer warps)";
  std::string error;
  RingMove last;  // the move just made: who, which k-block, its slot
  // Why the slot `who` gave for k-block `it` is not one of the ring ("" when it is).
  auto bad_slot = [&](const char* who, int it, RingSlot s) -> std::string {
    if (s.stage != it % stages) {
      return std::string(who) + "(" + std::to_string(it) + ", " + std::to_string(stages) +
             ") gave stage " + std::to_string(s.stage) + ": k-block it is in stage it % stages";
    }
    if (s.parity > 1) {
      return std::string(who) + " gave parity " + std::to_string(s.parity) + ": a parity is 0 or 1";
    }
    return "";
  };
  // One step of the producer: true when it loaded a k-block.
  auto producer_step = [&]() -> bool {
    if (produced == iterations) return false;
    const RingSlot s = ring.producer_slot(produced, stages);
    error = bad_slot("producer_slot", produced, s);
    if (!error.empty() || !empty[s.stage].passed(s.parity)) return false;
    if (!consumed[s.stage]) {
      error = "the producer refilled stage " + std::to_string(s.stage) + " with k-block " +
              std::to_string(produced) + " while k-block " + std::to_string(holds[s.stage]) +
              " was still being read: its empty-barrier parity lets it through a pass too early "
              "(on the GPU a race: wrong results, no hang)";
      return false;
    }
    last = RingMove{true, produced, s, {}, {}, {}, {}, 0, 0};
    holds[s.stage] = produced++;
    consumed[s.stage] = false;
    full[s.stage].arrive();  // the expect_tx arrival and TMA's bytes: one completed phase
    return true;
  };
  // One step of the consumers: true when they multiplied and released a k-block.
  auto consumer_step = [&]() -> bool {
    const RingSlot s = ring.consumer_slot(consumed_count, stages);
    error = bad_slot("consumer_slot", consumed_count, s);
    if (!error.empty() || !full[s.stage].passed(s.parity)) return false;
    if (holds[s.stage] != consumed_count || consumed[s.stage]) {
      error = "a consumer went through the full barrier of stage " + std::to_string(s.stage) +
              " for k-block " + std::to_string(consumed_count) + " while the stage holds " +
              (holds[s.stage] < 0 ? std::string("nothing yet")
                                  : "k-block " + std::to_string(holds[s.stage])) +
              ": its full-barrier parity lets it through before the data landed (on the GPU: "
              "wrong results)";
      return false;
    }
    consumed[s.stage] = true;
    const std::uint32_t before = empty[s.stage].phase;
    for (int w = 0; w < consumer_warps; ++w) empty[s.stage].arrive();
    if (empty[s.stage].phase != before + 1) {
      error = "one release of stage " + std::to_string(s.stage) + " by " +
              std::to_string(consumer_warps) + " consumer warps completed " +
              std::to_string(empty[s.stage].phase - before) +
              " phases of its empty barrier, not 1: its arrival count must equal the arrivals";
      return false;
    }
    last = RingMove{false, consumed_count, s, {}, {}, {}, {}, 0, 0};
    ++consumed_count;
    return true;
  };
  while (consumed_count < iterations) {
    const bool producer_first = schedule();
    bool moved = producer_first ? producer_step() : consumer_step();
    if (error.empty() && !moved) moved = producer_first ? consumer_step() : producer_step();
    if (!error.empty()) return error + ctx;
    if (!moved) {
      return "deadlock after " + std::to_string(produced) + " k-blocks loaded and " +
             std::to_string(consumed_count) + " consumed: the producer waits on the empty " +
             "barrier of stage " + std::to_string(produced % stages) + " and the consumers on " +
             "the full barrier of stage " + std::to_string(consumed_count % stages) +
             " (on the GPU: a hang)" + ctx;
    }
    observe(RingMove{last.producer, last.it, last.slot, full, empty, holds, consumed, produced,
                     consumed_count});
  }
  return "";
}

/// play_ring with the consumers eager, with the producer running ahead as far as it can, and with
/// `random_orders` random interleavings. "" when all of them went through.
inline std::string check_ring_protocol(const RingProtocol& ring, int stages, int consumer_warps,
                                       int iterations, int random_orders = 8) {
  // Eager consumers first: they find a parity that lets them through too early.
  std::string why = play_ring(ring, stages, consumer_warps, iterations, [] { return false; });
  if (!why.empty()) return why;
  why = play_ring(ring, stages, consumer_warps, iterations, [] { return true; });
  std::mt19937 rng(12345);
  for (int r = 0; r < random_orders && why.empty(); ++r) {
    why = play_ring(ring, stages, consumer_warps, iterations, [&] { return rng() % 2 == 0; });
  }
  return why;
}

}  // namespace lesson11
