/// \file test_helpers.hpp
/// \brief Small helpers that several graders share: a precondition check, a device attribute, a
/// GEMM of either precision checked over a list of shapes, a lesson's every configuration checked.
/// Header-only; tests/support is on every test's include path, so `#include "test_helpers.hpp"`.
#pragma once

#include "catch_compat.hpp"

#include "common/check.hpp"
#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm.hpp"
#include "common/gemm_check.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace course_test {

/// True when `f()` throws std::invalid_argument (a precondition check), false when it throws
/// anything else or nothing.
template <typename F>
bool throws_invalid_argument(F f) {
  try {
    f();
  } catch (const std::invalid_argument&) {
    return true;
  } catch (...) {
    return false;
  }
  return false;
}

/// cudaDeviceGetAttribute for `device`, checked: what the driver reports for `attribute`.
/// \throws course::CudaError when the query fails
inline int device_attribute(int device, cudaDeviceAttr attribute) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

/// Runs `fn` (a GEMM of either precision: its signature picks course::check_gemm's overload) on
/// every shape (fresh random inputs, C poisoned and guarded by canaries) and checks it against
/// Eigen; a failing shape fails a CHECK and prints the full diagnosis. `label` names the kernel in
/// the reports.
template <typename Fn>
void check_on_shapes(const Fn& fn, const std::string& label,
                     const std::vector<course::GemmShape>& shapes) {
  for (const course::GemmShape& shape : shapes) {
    course::VerifyOptions options;
    options.label = label;
    const course::VerifyReport r = course::check_gemm(fn, shape, options);
    INFO(r.describe());
    CHECK(r.passed);
  }
}

/// The words `f` gives, or "" when computing them throws (a stub's NOT IMPLEMENTED, which the CHECK
/// after them reports): the sentence a CHECK on a learner's function carries.
template <typename F>
std::string said(F f) {
  try {
    return f();
  } catch (...) {
    return "";
  }
}

/// A problem shape chosen to hit one edge path, and what a failure on it would mean.
struct EdgeCase {
  course::GemmShape shape;
  std::string what;
};

/// check_on_shapes for edge cases: a failure also says which edge the shape exercises.
template <typename Fn>
void check_on_cases(const Fn& fn, const std::string& label, const std::vector<EdgeCase>& cases) {
  for (const EdgeCase& e : cases) {
    course::VerifyOptions options;
    options.label = label;
    const course::VerifyReport r = course::check_gemm(fn, e.shape, options);
    INFO(r.describe());  // the likely cause first, then what this edge case is for
    INFO(label << " on " << e.shape.str() << ": " << e.what);
    CHECK(r.passed);
  }
}

/// A lesson's table of compiled configurations (lessons 09 and 10), checked whole: what the
/// lesson's choice `choose(M, N, limits)` (named `chooser` in the reports) picks at three sizes
/// fits this GPU, and every configuration, run through `run(i)` (a GEMM that runs configuration i),
/// is right on `shapes`. A configuration this GPU cannot run (say more shared memory than a block
/// may have here) is named, with the reason, and left out.
template <typename Configs, typename Choose, typename Run>
void check_every_configuration(const Configs& configs, const std::string& chooser,
                               const Choose& choose, const Run& run,
                               const std::vector<course::GemmShape>& shapes) {
  const course::DeviceLimits& gpu = course::current_device_info().limits;
  for (int size : {4096, 1024, 64}) {
    const int chosen = choose(size, size, gpu);
    const course::Fit f = course::fits_current_device(configs[chosen]);
    INFO(chooser << " at " << size << ": " << configs[chosen].name << ": " << f.why);
    CHECK(f.ok);
  }
  for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
    if (const course::Fit f = course::fits_current_device(configs[i]); !f) {
      WARN(configs[i].name << ": not run on this GPU: " << f.why);
      continue;
    }
    check_on_shapes(run(i), configs[i].name, shapes);
  }
}

}  // namespace course_test
