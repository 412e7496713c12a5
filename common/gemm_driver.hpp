/// \file gemm_driver.hpp
/// \brief The shared driver of the GEMM lessons: check each kernel, time it against cuBLAS in the
/// same process, print a table for people and JSON lines for tools.
///
/// A GEMM lesson's main() declares its kernels and calls run_sgemm_lesson(). The options are the
/// same in every lesson: `--size N` (M = N = K), or `--m`, `--n`, `--k` one by one; `--reps`,
/// `--warmup`; `--json` (the measurement lines of common/report.hpp); `--no-check` to skip the
/// correctness checks; `--check-only` to check and time nothing (no cuBLAS either: what
/// compute-sanitizer runs); `--headline-only` to time the headline kernel alone, unchecked, and
/// skip the lesson's other output (what `make grade` runs for its % of cuBLAS, after the grader
/// has checked the kernel).
#pragma once

#include "common/cli.hpp"
#include "common/gemm.hpp"
#include "common/gemm_check.hpp"
#include "common/lesson.hpp"

#include <functional>
#include <string>
#include <vector>

namespace course {

/// One kernel a lesson shows: its name in the table, its launcher, and whether it is the
/// lesson's headline (the figure `make grade` reports as "% of cuBLAS").
struct NamedSgemm {
  std::string name;
  SgemmFn fn;
  bool headline = false;
  /// The kernel's arithmetic intensity by design, in FLOP per byte it loads from global memory
  /// (0.25 for one load of A and one of B per FMA; TILE / 4 with shared-memory tiles), or 0 when
  /// the lesson does not say. The book's roofline places the kernel there.
  double intensity = 0;
};

/// One bf16 kernel a lesson shows (A M x K, B N x K, C M x N in bf16): as NamedSgemm.
struct NamedBf16Gemm {
  std::string name;
  Bf16GemmFn fn;
  bool headline = false;
  double intensity = 0;  ///< FLOP per byte loaded from global memory by design, 0 when unsaid
};

/// What a lesson's driver measured for one kernel.
struct SgemmResult {
  std::string name;
  bool checked = false, passed = false;
  GemmBench bench;
  /// The NotImplemented message when the kernel is still a stub (then nothing was measured).
  std::string not_written;
};

/// Adds the common GEMM options (--size, --m, --n, --k, --reps, --warmup, --json, --no-check,
/// --check-only, --headline-only) to `cli`; a lesson may add its own before calling parse().
void add_sgemm_options(Cli& cli);

/// True when the options ask for `--headline-only`: measure_sgemm_kernels() and
/// measure_bf16_kernels() then time the headline kernel alone, without checking it, and a lesson
/// program skips everything else it would print or measure.
bool headline_only(const Cli& cli);

/// The problem size the options ask for: --m/--n/--k where given, else --size.
GemmShape sgemm_shape_from(const Cli& cli);

/// For each kernel: checks it against Eigen at a ragged size (257 x 255 x 300) and at the chosen
/// size, then times it and cuBLAS SGEMM on the same inputs. Prints the table (and with --json one
/// GemmMeasurement line per kernel, common/report.hpp). Returns the results; a failed check prints
/// its diagnosis. A kernel still a stub (it throws NotImplemented) is reported as "not written
/// yet", with the hint command, and the others run. With --headline-only, only the headline kernel
/// is timed, unchecked.
std::vector<SgemmResult> measure_sgemm_kernels(const Cli& cli, const LessonId& lesson,
                                               const std::vector<NamedSgemm>& kernels);

/// measure_sgemm_kernels for bf16 kernels, against cuBLAS bf16 (cublasGemmEx, FP32 accumulation).
/// The ragged check is at 257 x 255 x 264 (K a multiple of 8, the bf16 lessons' precondition, but
/// not of any tile); the JSON lines also carry "precision": "bf16".
std::vector<SgemmResult> measure_bf16_kernels(const Cli& cli, const LessonId& lesson,
                                              const std::vector<NamedBf16Gemm>& kernels);

/// Configuration i of a lesson's compiled configurations: `run(i, M, N, K, A, B, C)` launches it
/// on the given device matrices with alpha 1, beta 0.
template <typename T>
using ConfigRunner = std::function<void(int i, int M, int N, int K, const T* A, const T* B, T* C)>;

/// `--sweep`: every one of `names` timed at the options' problem size on one set of random inputs,
/// not checked (the lesson's checked kernels are measured by measure_*_kernels). Prints a table,
/// and with --json one line per configuration ("what": "sweep").
void sweep_configurations(const Cli& cli, const LessonId& lesson,
                          const std::vector<std::string>& names, const ConfigRunner<float>& run);
/// The same for bf16 configurations (B is N x K).
void sweep_configurations(const Cli& cli, const LessonId& lesson,
                          const std::vector<std::string>& names, const ConfigRunner<bf16>& run);

/// kExitFailed when any checked kernel failed its check, kExitOk otherwise (a kernel not written
/// yet is not a failure): a lesson program's exit code after measure_sgemm_kernels().
int sgemm_exit_code(const std::vector<SgemmResult>& results);

/// A whole GEMM lesson program: parses the common options, requires a GPU that can run `lesson`,
/// runs measure_sgemm_kernels(), and returns the exit code (kExitFailed if any check failed).
int run_sgemm_lesson(int argc, char** argv, const LessonId& lesson, const std::string& summary,
                     const std::vector<NamedSgemm>& kernels);

}  // namespace course
