// Wrong solutions of the GEMM lessons, emulated on the CPU: each is a lesson's reference kernel
// with one mistake put in, computed element by element the way the faulty kernel computes it (its
// tiles, its thread tiles, its fragments). They run through the graders' path (check_gemm_run(),
// the same as check_gemm() on the GPU) in test_wrong_solutions.cpp, which requires the first line
// of the diagnosis to name the mistake.
#pragma once

#include "common/gemm_job.hpp"

#include <string>
#include <vector>

namespace wrong {

struct Case {
  const char* lesson;  ///< "05"
  const char* kind;    ///< the kind of mistake, in a few words
  const char* what;    ///< the mistake, as the learner's code has it
  bool bf16;           ///< a bf16 lesson: B is N x K, K a multiple of 8, C in bf16
  /// The first line names the mistake when it holds every group: a group is one or more
  /// alternatives separated by '|', each matched exactly.
  std::vector<std::string> expect;
  course::GemmRun run;
};

/// Every wrong solution, lesson by lesson.
const std::vector<Case>& cases();

}  // namespace wrong
