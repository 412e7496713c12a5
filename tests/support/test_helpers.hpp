/// \file test_helpers.hpp
/// \brief Small helpers that several graders share: a precondition check, a device attribute, a
/// GEMM of either precision checked over a list of shapes.
/// Header-only; tests/support is on every test's include path, so `#include "test_helpers.hpp"`.
#pragma once

#include "catch_compat.hpp"

#include "common/check.hpp"
#include "common/device.hpp"
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
    INFO(label << " on " << e.shape.str() << ": " << e.what);
    INFO(r.describe());
    CHECK(r.passed);
  }
}

}  // namespace course_test
