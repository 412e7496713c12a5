/// \file ring_diagnosis.hpp
/// \brief Lesson 11's reading of a failed GEMM check, in terms of the ring of stages: whole
/// k-tiles lost or summed twice because the consumer read a stage other than the one the
/// producer filled for its k-tile (the stage index or the barrier phase). Registered with the
/// course's diagnosis (common/diagnosis.hpp) by including this header from the lesson's grader.
#pragma once

#include "common/diagnosis.hpp"

#include <string>

namespace lesson11 {

/// When the probes show the first k-tiles lost, or k-tiles summed twice and the last lost: the
/// ring's stage index or phase, in the lesson's terms. "" otherwise.
inline std::string explain_ring(const course::ProbeFindings& f, const std::string& generic) {
  // The first k-tiles lost (a stage read one ahead), or one summed twice (one behind).
  const bool tiles_off = generic.find("a stage index one ahead") != std::string::npos ||
                         generic.find("the tile before it") != std::string::npos;
  if (!tiles_off || f.readings.empty()) return "";
  // The generic words already say which k; add where the ring goes wrong.
  const std::string::size_type cut = generic.find(" -> ");
  return generic.substr(0, cut) +
         " -> whole k-tiles are taken from the wrong stage: k-tile t must be read from stage "
         "t % STAGES after its full barrier completes phase (t / STAGES) % 2, and the stage "
         "released only after the MMAs that read it";
}

/// Registered once, by every program that includes this header.
inline const bool kRingExplainerRegistered = course::register_explainer("11", explain_ring);

}  // namespace lesson11
