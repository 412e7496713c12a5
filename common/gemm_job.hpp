/// \file gemm_job.hpp
/// \brief One run of a GEMM under test, as the checks and the diagnosis hand it to the kernel:
/// the inputs, the guarded output, and a function that runs the kernel on them.
///
/// check_gemm() (common/gemm_check.hpp) wraps a GemmFn<P> into a GemmRun that uploads the job,
/// launches the kernel, waits for it (with a time limit) and downloads the output. The tests of the
/// diagnosis wrap a kernel emulated on the CPU into the same GemmRun, so that both go through one
/// grader path: check_gemm_run() (common/diagnosis.hpp).
#pragma once

#include "common/gemm_shape.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace course {

/// A problem as the kernel sees it, every value in float (bf16 values are exact in float).
/// A and B are in the kernel's layout (B is K x N, or N x K when `b_n_by_k`); each may carry
/// elements before and after the matrix (`a_at`, `b_at` say where the matrix starts), so that an
/// index past the matrix reads a known value. `out` is the guarded output: the kernel's C starts at
/// `out[c_at]`, with canaries on both sides.
struct GemmJob {
  GemmShape s;
  bool b_n_by_k = false;  ///< B is N x K (the bf16 lessons), else K x N
  bool bf16 = false;      ///< the kernel's elements are bf16: what it stores is rounded to bf16
  std::vector<float> A, B, out;
  std::size_t a_at = 0, b_at = 0, c_at = 0;

  /// Element `x` of A as a flat index from the matrix's start (0 where no element is held).
  float a_flat(long x) const { return at(A, static_cast<long>(a_at) + x); }
  /// Element `y` of B as a flat index from the matrix's start (0 where no element is held).
  float b_flat(long y) const { return at(B, static_cast<long>(b_at) + y); }
  /// A(i, k) as a kernel reads it: `A[i * K + k]`.
  float a(long i, long k) const { return a_flat(i * s.K + k); }
  /// B(k, j) as a kernel reads it: `B[k * N + j]`, or `B[j * K + k]` when B is N x K.
  float b(long k, long j) const { return b_flat(b_n_by_k ? j * s.K + k : k * s.N + j); }
  /// Element `e` of C (flat, from C's start) as the kernel finds it; 0 past the guarded output.
  float c_flat(long e) const { return at(out, static_cast<long>(c_at) + e); }
  /// What a thread stores at flat index `e` of C: alpha * acc + beta * C (C read only when beta
  /// != 0), rounded as the kernel's element type rounds. A store past the guarded output is lost.
  void store(long e, float acc) {
    const long x = static_cast<long>(c_at) + e;
    if (x < 0 || x >= static_cast<long>(out.size())) return;
    float v = s.alpha * acc + (s.beta != 0.0f ? s.beta * out[x] : 0.0f);
    if (std::isnan(v)) v = std::nanf("");  // arithmetic on a NaN gives the GPU's canonical NaN
    out[x] = bf16 ? round_bf16(v) : v;
  }
  /// store() at (i, j) with the right row stride.
  void store(long i, long j, float acc) { store(i * s.N + j, acc); }

  /// `v` rounded to the nearest bf16 (ties to even), as __float2bfloat16 does.
  static float round_bf16(float v) {
    if (std::isnan(v)) return v;
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }

 private:
  static float at(const std::vector<float>& v, long x) {
    return (x < 0 || x >= static_cast<long>(v.size())) ? 0.0f : v[static_cast<std::size_t>(x)];
  }
};

/// Runs the kernel on a job: reads A, B and `out`, leaves in `out` what the kernel wrote.
/// \throws std::invalid_argument when the kernel refuses the shape (its launcher's precondition)
using GemmRun = std::function<void(GemmJob&)>;

}  // namespace course
