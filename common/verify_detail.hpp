/// \file verify_detail.hpp
/// \brief Inside the verifier (common/verify.cpp): the problem and the compared elements, which
/// the result's own causes (common/result_causes.cpp) read. Not for lessons or graders.
#pragma once

#include "common/bits.hpp"
#include "common/verify.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace course {
namespace verify_detail {

using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Everything the checks need, in float (bf16 inputs are widened exactly).
struct Problem {
  GemmShape s;
  const float* A = nullptr;    // M x K
  const float* B = nullptr;    // K x N
  const float* C0 = nullptr;   // M x N (nullptr when beta == 0)
  const float* got = nullptr;  // M x N
  std::uint32_t poison = 0;
  Tolerance tol;
  const float* B_kernel = nullptr;  // B as the kernel reads it: K x N (FP32) or N x K (bf16)
  bool b_n_by_k = false;            // B_kernel is N x K
  std::vector<char> after_hit;      // per canary after C: overwritten? (empty when none is)
};

// Per compared element: what was written, the reference, and the pieces of the reference.
struct Compared {
  std::vector<int> rows;
  MatD B, absB;  // B (K x N) and |B|, in double
  MatD P, absP;  // A·B and |A|·|B| for the compared rows
  MatD R;        // alpha·P + beta·C0
  MatD bound;
};

inline bool close(double got, double want, double bound) {
  return std::isfinite(got) && std::fabs(got - want) <= bound;
}

/// The likely cause of a failed result, as the result alone shows it (common/result_causes.cpp):
/// its words, the detector that named it, the others that fit as well on this shape, and whether
/// it is a model that accounts for every compared element.
struct Cause {
  std::string text, id;
  std::vector<std::string> candidates;
  bool model = false;
};
Cause likely_cause(const Problem& p, const Compared& c, const VerifyReport& r,
                   const std::vector<char>& bad);
/// The detectors' names, in the order likely_cause() tries them.
const std::vector<std::string>& detector_names();

}  // namespace verify_detail
}  // namespace course
