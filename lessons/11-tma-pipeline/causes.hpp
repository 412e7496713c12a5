/// \file causes.hpp
/// \brief Lesson 11's rules in the table of causes (common/diagnosis.hpp), in terms of the ring of
/// stages: whole k-tiles lost or summed twice because the consumer read a stage other than the one
/// the producer filled for its k-tile (the stage index or the barrier phase), and a stage read
/// before it is full or refilled before it is free. Registered by including this header from the
/// lesson's grader.
#pragma once

#include "common/diagnosis.hpp"

#include <string>

namespace lesson11 {

/// When the probes show the first k-tiles lost, or k-tiles summed twice and the last lost: the
/// ring's stage index or phase, in the lesson's terms. "" otherwise.
inline std::string ring_stage(course::Evidence& e) {
  const course::ProbeFindings* f = e.probes_laps();
  if (f == nullptr) return "";
  for (const course::ProbeReading& r : f->readings) {
    const std::string words = course::terms_words(r);
    // The first k-tiles lost (a stage read one ahead), or one summed twice (one behind).
    if (words.find("a stage index one ahead") == std::string::npos &&
        words.find("the tile before it") == std::string::npos)
      continue;
    // The course's words say which k; the fix is the ring's.
    return words.substr(0, words.find(" -> ")) +
           " -> whole k-tiles are taken from the wrong stage: k-tile t must be read from stage "
           "t % STAGES after its full barrier completes phase (t / STAGES) % 2, and the stage "
           "released only after the MMAs that read it";
  }
  return "";
}

/// A race in the ring's terms.
inline std::string race(course::Evidence& e) {
  if (e.unstable_count() == 0) return "";
  return course::changes_words(e) +
         ", a race in the ring -> a stage is "
         "read before its full barrier completes its phase, or released (its empty barrier "
         "arrived on) before the wgmma that reads it has finished (wgmma wait_group), so the "
         "producer refills it too early; confirm with " +
         course::sanitize_command("11");
}

/// Registered once, by every program that includes this header.
inline const bool kRingRule = course::register_rule({"ring_stage", "11", 1190, false, ring_stage});
inline const bool kRaceRule = course::register_rule({"race", "11", 730, false, race});

/// The ring's paths: a partial last k-tile of 64, a second lap (more k-tiles than its 4 stages:
/// the phases flip), and edge tiles of 128 x 256.
inline const bool kPaths =
    course::declare_path({"11", "a partial last k-tile of 64", true,
                          [](const course::GemmShape& s) { return s.K % 64 != 0; }}) &&
    course::declare_path({"11", "the ring's second lap: more k-tiles of 64 than 4 stages", true,
                          [](const course::GemmShape& s) { return s.K > 4 * 64; }}) &&
    course::declare_path(
        {"11", "edge tiles of 128 x 256 beside whole ones", true, [](const course::GemmShape& s) {
           return s.M > 128 && s.M % 128 != 0 && s.N > 256 && s.N % 256 != 0;
         }});

}  // namespace lesson11
