/// \file lesson.hpp
/// \brief Which lesson a program or a grader belongs to, as the build says.
///
/// The build compiles every lesson target (its program, its exercise and solution libraries, its
/// grader) with the lesson's number and minimum compute capability from its record,
/// lessons/NN-slug/lesson.toml (CMake defines COURSE_LESSON_ID and COURSE_LESSON_MIN_CC), so no
/// source file repeats them.
#pragma once

#include <string>

namespace course {

/// A lesson's identity: its number as the manifest writes it and the compute capability it needs.
struct LessonId {
  std::string id;  ///< "03"
  int min_cc = 0;  ///< 75 for compute capability 7.5

  /// 3 for "03": the number as the make targets spell it.
  int number() const { return std::stoi(id); }
  /// "make hint-3"
  std::string hint_command() const { return "make hint-" + std::to_string(number()); }
  /// "make grade-3"
  std::string grade_command() const { return "make grade-" + std::to_string(number()); }
};

#if defined(COURSE_LESSON_ID) && defined(COURSE_LESSON_MIN_CC)
/// The lesson of the file being compiled.
inline LessonId this_lesson() {
  return LessonId{COURSE_LESSON_ID, COURSE_LESSON_MIN_CC};
}
#endif

}  // namespace course
