/// \file causes.hpp
/// \brief Lesson 03's rules in the table of causes (common/diagnosis.hpp): values that change from
/// run to run in a kernel without shared memory. Registered by including this header: the
/// lesson's grader does.
#pragma once

#include "common/diagnosis.hpp"

#include <string>

namespace lesson03 {

/// Without shared memory no thread reads what another writes: values that change between runs
/// come from a register read before it is set, or from memory past A or B.
inline std::string unset_value(course::Evidence& e) {
  if (e.unstable_count() == 0) return "";
  return course::changes_words(e) +
         " -> a value is read before it is "
         "set (acc must start at 0.0f) or read past A or B (k < K, row < M, col < N); confirm "
         "with " +
         course::sanitize_command(e.lesson);
}

/// Registered once, by every program that includes this header (lessons 03 and 04).
inline const bool kUnsetRule =
    course::register_rule({"unset_value", "03", 750, false, unset_value});
inline const bool kUnsetRule04 =
    course::register_rule({"unset_value", "04", 750, false, unset_value});

}  // namespace lesson03
