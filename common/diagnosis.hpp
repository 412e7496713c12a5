/// \file diagnosis.hpp
/// \brief Why a GEMM is wrong: the kernel run again on inputs designed to answer questions
/// (probes), the index map read from the answers, and the cause named in the learner's terms.
///
/// When a check fails, diagnose() re-runs the same kernel (a GemmRun, common/gemm_job.hpp) on
/// small-integer inputs, exact in FP32 and in bf16:
/// - **term counts**: A all ones along a window of k, B's rows k weighted 3^(k - k_first): each
///   element of C is a number in base 3 whose digit m counts how often the term k_first + m was
///   summed there (0: lost, 2: summed twice);
/// - **codes**: every element of A (or B) holds its own flat index, and only row k0 of B (column k0
///   of A) is one: each element of C is the index the kernel read for the term k0. From a few k0
///   the row and column strides follow, and the rows, columns and k each element of C used;
/// - **scalars**: alpha = 2, beta = 0; alpha = 0, beta = 1; alpha = 2, beta = 3 with C filled with
///   codes; beta = 0 with C filled with NaN: scaling, reads of C, alpha and beta mixed up;
/// - **shapes**: a main shape with interior and edge tiles, a second where the edges move (a
///   bounds guard is blamed only when the wrong elements follow the edge, the interior right), a
///   third with K above several k-tiles and larger than M and N.
/// Lesson-specific wording (lesson 08's quads, lesson 10's fragment registers, lesson 11's ring)
/// comes from explainers each lesson registers from its own folder (register_explainer()).
#pragma once

#include "common/gemm_job.hpp"
#include "common/gemm_shape.hpp"
#include "common/verify.hpp"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace course {

/// What the probes read off the kernel at one shape. Per element of C (row-major, M x N):
/// the A row and B column whose product landed there for the middle k probed (-1: none, or
/// several), and the term counts. Filled by diagnose(); read by explainers.
struct ProbeReading {
  GemmShape s;
  /// Per element: never written in any probe.
  std::vector<char> unwritten;
  /// Per element: the row of A (`a_row`) and column of B (`b_col`) of the product that landed
  /// there (-1 when none or several did), and the k each was read at (`a_k`, `b_k`).
  std::vector<int> a_row, a_k, b_row_k, b_col;
  /// Per element: the flat index of A and of B it read for that k (kUnknown when not readable).
  std::vector<long> a_index, b_index;
  static constexpr long kUnknown = -(1L << 62);
  int k0 = -1;  ///< the k those reads are for (-1: no code probe ran)
  /// The same reads for another k (k0 ^ 8, the other half of a 16-wide k step, when below K).
  struct AtK {
    int k = -1;
    std::vector<int> a_row, a_k, b_row_k, b_col;
  };
  std::vector<AtK> other_k;
  bool b_n_by_k = false;  ///< B is N x K (bf16)
  /// Per element and k (element e, term k at e * K + k): how many times the term k was summed
  /// there (-1: not readable).
  std::vector<signed char> count;
  long canaries_hit = 0;  ///< writes outside C during the probes
  /// With A (B) holding small codes and the other all ones, C held the sums of the right rows of A
  /// (columns of B): that operand is read right, whatever the other does.
  bool a_sums_right = false, b_sums_right = false;
  /// Per element: wrong in some probe (a value, a place, a count).
  std::vector<char> wrong;
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * s.N + j; }
};

/// What diagnose() found: the readings at the probe shapes and the scalars.
struct ProbeFindings {
  std::vector<ProbeReading> readings;  ///< the main shape first
  /// Fitted `got = x * (A·B) + y * C` for alpha, beta = (2, 0), (0, 1), (2, 3); NaN when unknown.
  double x20 = 0, x01 = 0, y01 = 0, x23 = 0, y23 = 0;
  bool reads_c_when_beta0 = false;  ///< beta == 0 and C full of NaN gave NaN
  bool c_added_when_beta0 = false;  ///< beta == 0 and C holding codes gave A*B + C
  /// A and B all ones: every element / K, when all are alike (else NaN), with alpha = 1 and
  /// beta = 0 (1: the products' scale is right), and with alpha = 0, beta = 2, C zero (0 when
  /// alpha and beta are where they belong, 2 when they are swapped).
  double ones_scale = NAN, ones_swapped = NAN;
};

/// The course-wide reading of the findings (common/diagnosis_words.cpp): the cause in one line,
/// its fix after " -> ", or "" when the probes show nothing the result alone does not say. What
/// the explainers get as `generic`.
std::string course_wide_cause(const ProbeFindings& findings);

/// A lesson's reading of the findings in its own terms: the cause (one short line, the fix after
/// " -> "), or "" when the lesson does not recognise them. `generic` is what the course-wide
/// inference would say.
using Explainer = std::function<std::string(const ProbeFindings&, const std::string& generic)>;

/// Registers lesson `lesson`'s explainer ("08"); the first registered whose answer is not empty
/// wins. Returns true, so a lesson registers from a header its grader includes:
/// `inline const bool registered = course::register_explainer("08", explain_quads);`
bool register_explainer(const std::string& lesson, Explainer explainer);

/// Re-runs `run` on probes and rewrites `report.cause` (and cause_id) with what they show; the
/// verdict stays. `bf16`: the kernel is a bf16 one (B is N x K, K a multiple of 8). A probe the
/// kernel refuses (std::invalid_argument) moves to stricter shapes; any other exception ends the
/// probing, and the cause the result alone shows stays, with the reason added.
/// `lesson`: only that lesson's explainers speak ("": every one registered).
void diagnose(const GemmRun& run, bool bf16, VerifyReport& report, const std::string& lesson = "");

/// The graders' path for any kernel wrapped as a GemmRun: fresh random inputs seeded from the
/// run seed and the shape (C poisoned and guarded), the kernel run once, the result checked
/// against Eigen, and, when it fails, diagnose() with the explainers of options.lesson.
/// check_gemm() calls it with the GPU kernel; the tests of the diagnosis with kernels emulated on
/// the CPU.
/// `kernel`: what identifies the kernel (its function's address), or nullptr: the probes do not
/// depend on the failing shape, so a kernel is probed once per program, and a later failure of
/// the same kernel gets the same cause without running them again.
VerifyReport check_gemm_run(const GemmRun& run, const GemmShape& shape, bool bf16,
                            const VerifyOptions& options = {}, const void* kernel = nullptr);

}  // namespace course
