/// \file verify_detail.hpp
/// \brief Inside the verifier (common/verify.cpp): the problem and the compared elements, which
/// the causes (common/causes.cpp) read. Not for lessons or graders.
#pragma once

#include "common/bits.hpp"
#include "common/diagnosis.hpp"
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

/// The failed result as the rules read it (common/causes.cpp): the problem, the compared elements,
/// the counts, and products of any row of A with B, computed when first asked for.
class Result {
 public:
  Result(const Problem& problem, const Compared& compared, const VerifyReport& report,
         const std::vector<char>& wrong);

  const Problem& p;
  const Compared& c;
  const VerifyReport& r;
  const std::vector<char>& bad;  // per compared element: out of its bound
  const int M, N, K;
  const double alpha, beta;
  const double floor;           // the smallest bound, so that 0 == 0 passes
  std::vector<char> untouched;  // per element of C: still the poison (or the input C)

  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * N + j; }
  double a(int i, int k) const { return p.A[static_cast<std::size_t>(i) * K + k]; }
  double b(int k, int j) const { return p.B[static_cast<std::size_t>(k) * N + j]; }
  double got(int i, int j) const { return p.got[at(i, j)]; }
  double c0(int i, int j) const { return p.C0 ? double(p.C0[at(i, j)]) : 0.0; }
  // Row i of A·B and of |A|·|B|, for any row.
  const double* product_row(int i) const;
  const double* abs_product_row(int i) const;
  // The right value of element (i, j) and its bound.
  double reference(int i, int j) const { return alpha * product_row(i)[j] + beta * c0(i, j); }
  double bound(int i, int j) const {
    return p.tol.element * (std::fabs(alpha) * abs_product_row(i)[j] + std::fabs(beta * c0(i, j))) +
           floor;
  }
  // Does `got` match a model value whose terms have magnitude `size` (|alpha|·Σ|a||b| + |beta·c0|)?
  bool fits(double value, double model, double size) const {
    return close(value, model, p.tol.element * (size + std::fabs(model)) + floor);
  }

 private:
  void fill(int i) const;
  mutable std::vector<std::vector<double>> prod_, abs_prod_;
  std::vector<int> compared_;  // row -> its index among the compared rows, or -1
};

/// The course's rules of the table of causes (common/causes.cpp), in their ranks.
std::vector<Rule> course_rules();

}  // namespace verify_detail
}  // namespace course
