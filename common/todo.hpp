/// \file todo.hpp
/// \brief How an exercise stub says "not implemented yet".
///
/// A stub calls `course::not_implemented("vector_add (exercises/02-dispatch/dispatch.cu)")`;
/// the grader then reports the lesson as *not started* rather than failing with a wrong number,
/// and a lesson program prints the message and exits with kExitFailed.
#pragma once

#include <stdexcept>
#include <string>

namespace course {

/// How the message of a NotImplemented starts: the graders' reports mark a failure that carries it
/// as a stub not written yet ("todo"), not as a wrong answer.
inline constexpr const char* kNotImplementedPrefix = "NOT IMPLEMENTED: ";

/// Thrown by exercise stubs. Its message starts with kNotImplementedPrefix.
class NotImplemented : public std::logic_error {
 public:
  explicit NotImplemented(const std::string& what)
      : std::logic_error(kNotImplementedPrefix + what + " is still a TODO stub") {}
};

/// Throws NotImplemented for `what` (the function and its file).
[[noreturn]] inline void not_implemented(const std::string& what) {
  throw NotImplemented(what);
}

}  // namespace course

/// For `__host__ __device__` stubs: throws on the host, returns `fallback` on the device (device
/// code cannot throw). The graders call these functions on the host first, so a stub is caught
/// there as "not implemented" before any kernel runs.
#ifdef __CUDA_ARCH__
#define COURSE_TODO_HD(what, fallback) return (fallback)
#else
#define COURSE_TODO_HD(what, fallback) ::course::not_implemented(what)
#endif

/// `__host__ __device__` for nvcc, nothing for a plain C++ compiler: lets lesson headers declare
/// index math that kernels and host-side tests both call.
#ifdef __CUDACC__
#define COURSE_HD __host__ __device__
#else
#define COURSE_HD
#endif
