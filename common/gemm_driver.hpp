/// \file gemm_driver.hpp
/// \brief The shared driver of the GEMM lessons: the lesson program itself (GemmLesson), which
/// checks each kernel, times it against cuBLAS in the same process, and prints a table for people
/// and JSON lines for tools; and the tables and sweep of a lesson's variants (common/variants.hpp).
///
/// A GEMM lesson's main() says only what is particular to it: its kernels, and what it shows
/// besides them. Everything else is GemmLesson::run(): the options, which are the same in every
/// lesson: `--size N` (M = N = K), or `--m`, `--n`, `--k` one by one; `--regime burst|sustained`,
/// `--reps`, `--warmup`, `--sustained-ms`, `--kernel-first` (common/timing.hpp);
/// `--json` (the measurement lines of common/report.hpp); `--no-check` to skip the correctness
/// checks; `--check-only` to check and time nothing (no cuBLAS either: what compute-sanitizer
/// runs); `--headline-only` to time the headline kernel alone, unchecked, and skip the lesson's
/// other output (what `make grade` runs for its % of cuBLAS, after the grader has checked the
/// kernel). Then the guard around it all (guarded_main), the GPU it needs (no_usable_device), the
/// measurement and the exit code.
///
/// Both precisions go through the same names: NamedGemm<Fp32> or NamedGemm<Bf16> (common/
/// precision.hpp), and the functions below take either.
#pragma once

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/gemm.hpp"
#include "common/gemm_check.hpp"
#include "common/lesson.hpp"
#include "common/precision.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"
#include "common/variants.hpp"

#include <climits>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// One kernel a lesson shows: its name in the table, its launcher, and whether it is the
/// lesson's headline (the figure `make grade` reports as "% of cuBLAS").
template <class P>
struct NamedGemm {
  std::string name;
  GemmFn<P> fn;
  bool headline = false;
  /// The kernel's arithmetic intensity by design, in FLOP per byte it loads from global memory
  /// (0.25 for one load of A and one of B per FMA; TILE / 4 with shared-memory tiles), or 0 when
  /// the lesson does not say. The book's roofline places the kernel there.
  double intensity = 0;
};

/// What a lesson's driver measured for one kernel.
struct GemmResult {
  std::string name;
  bool checked = false, passed = false;
  bool headline = false;      ///< the lesson's headline kernel
  double intensity = 0;       ///< FLOP per byte by design (NamedGemm::intensity)
  bool kernel_first = false;  ///< the kernel took the first turn of the interleaving
  GemmBench bench;
  /// The NotImplemented message when the kernel is still a stub (then nothing was measured).
  std::string not_written;
};

/// Adds the common GEMM options (--size, --m, --n, --k, --reps, --warmup, --json, --no-check,
/// --check-only, --headline-only) to `cli`; a lesson may add its own before calling parse().
void add_gemm_options(Cli& cli);

/// True when the options ask for `--headline-only`: measure_kernels() then times the headline
/// kernel alone, without checking it, and a lesson program skips everything else it would print
/// or measure.
bool headline_only(const Cli& cli);

/// True when `only` (the --only option: comma-separated texts) is empty or one of its texts is
/// part of `name`: "hopper,multicast" names "hopper_gemm" and "coop 128x256 s4 multicast B".
bool named_in(const std::string& only, const std::string& name);

/// The problem size the options ask for: --m/--n/--k where given, else --size (alpha 1, beta 0).
GemmShape gemm_shape_from(const Cli& cli);

/// How the options ask to time: --regime (burst or sustained), --reps and --warmup (each burst
/// repetition starting with a cold L2, so a small problem is not timed out of the cache), and
/// --sustained-ms.
TimingOptions timing_from(const Cli& cli);

/// Checks `gemm` against Eigen at P::kRaggedShape and at `timed` (alpha 1, beta 0), and prints the
/// diagnosis of each failure. True when both pass. What measure_kernels() checks before it times.
bool check_kernel(const GemmFn<Fp32>& gemm, const std::string& label, const GemmShape& timed);
/// The same for a bf16 kernel.
bool check_kernel(const GemmFn<Bf16>& gemm, const std::string& label, const GemmShape& timed);

/// For each kernel: checks it (check_kernel()) at a ragged size and at the chosen size, then times
/// it and cuBLAS on the same inputs. Prints the table (and with --json one GemmMeasurement line
/// per kernel, common/report.hpp). Returns the results; a failed check prints its diagnosis. A
/// kernel still a stub (it throws NotImplemented) is reported as "not written yet", with the hint
/// command, and the others run. With --headline-only, only the headline kernel is timed,
/// unchecked. For bf16 kernels the baseline is cuBLAS bf16 (cublasGemmEx, FP32 accumulation), the
/// ragged check is at 257 x 255 x 264 (K a multiple of 8, the bf16 lessons' precondition, but not
/// of any tile), and the JSON lines carry "precision": "bf16".
template <class P>
std::vector<GemmResult> measure_kernels(const Cli& cli, const LessonId& lesson,
                                        const std::vector<NamedGemm<P>>& kernels);

/// The measurement line of one result (what measure_kernels() prints with --json), for a kernel a
/// lesson checked and timed by itself.
GemmMeasurement measurement_of(const GemmResult& result, const LessonId& lesson,
                               const GemmShape& shape, const std::string& gpu,
                               const std::string& precision);

/// kExitFailed when any checked kernel failed its check, kExitOk otherwise (a kernel not written
/// yet is not a failure): a lesson program's exit code after measure_kernels().
int gemm_exit_code(const std::vector<GemmResult>& results);

/// What the parts of a lesson program (GemmLesson) are given: the options, the problem, the GPU.
struct LessonRun {
  const Cli& cli;     ///< the parsed options (the lesson's own ones too)
  LessonId lesson;    ///< the lesson
  GemmShape shape;    ///< the timed problem: --size, or --m/--n/--k
  bool json = false;  ///< --json: print the measurement lines too
  /// The GPU: present from the GPU part on; in the CPU part, not probed yet (present false).
  DeviceInfo device;
  /// Set by a part when something it checked failed: the program then exits with kExitFailed.
  bool failed = false;

  /// The GPU's name ("NVIDIA H100 80GB HBM3").
  const std::string& gpu() const { return device.name; }
  /// What the GPU offers a kernel: what a lesson chooses its configurations from.
  const DeviceLimits& limits() const { return device.limits; }
  /// The timing the options ask for (timing_from()).
  TimingOptions timing() const { return timing_from(cli); }
};

/// A GEMM lesson program: main() fills in what is particular to the lesson and returns run().
///
/// run() parses the common options (and the lesson's own, `options`), then, inside guarded_main:
/// 1. `cpu_part`, what the lesson shows without a GPU (skipped with --headline-only);
/// 2. without a GPU that can run the lesson, the reason and exit code 3 or 4 (no_usable_device(),
///    kExitFailed when the CPU part failed, kExitOk when it met a stub: see guarded_main);
/// 3. `gpu_part`, what it shows on the GPU before the kernels (skipped with --headline-only);
/// 4. `kernels`, the kernels to check and time, measured by measure_kernels();
/// 5. `after`, what it does with the results (skipped with --headline-only).
/// The exit code is gemm_exit_code() of the results, or kExitFailed when a part set
/// LessonRun::failed. A part that calls the learner's code wraps it in try_yours(): a stub there
/// is named at the end of the output ("not written yet ... make hint-N") and the rest runs.
template <class P>
struct GemmLesson {
  /// The lesson (this_lesson()) and one line on what the program does, for --help.
  GemmLesson(LessonId lesson_id, std::string summary_text)
      : lesson(std::move(lesson_id)), summary(std::move(summary_text)) {}

  LessonId lesson;                           ///< the lesson
  std::string summary;                       ///< one line for --help
  std::function<void(Cli&)> options;         ///< the lesson's own options, if any
  std::function<void(LessonRun&)> cpu_part;  ///< shown without a GPU, if any
  std::function<void(LessonRun&)> gpu_part;  ///< shown on the GPU first, if any
  std::function<std::vector<NamedGemm<P>>(LessonRun&)> kernels;  ///< what to measure (required)
  std::function<void(LessonRun&, const std::vector<GemmResult>&)> after;  ///< then, if any

  /// The program: see above. Returns its exit code.
  int run(int argc, char** argv) const;
};

/// The simplest lesson program: the common options, then `kernels` checked and timed. What
/// GemmLesson::run() does with only `kernels` set; P is course::Fp32 or course::Bf16.
template <class P>
int run_gemm_lesson(int argc, char** argv, const LessonId& lesson, const std::string& summary,
                    const std::vector<NamedGemm<P>>& kernels) {
  GemmLesson<P> program(lesson, summary);
  program.kernels = [&kernels](LessonRun&) { return kernels; };
  return program.run(argc, argv);
}

/// Adds `--sweep` to a lesson's options: "also time every compiled configuration at the problem
/// size (no checks)". For GemmLesson::options.
void add_sweep_option(Cli& cli);

namespace detail {
/// Whether `v` fits the current GPU (fits_current_device()); when it does not, prints
/// "not on this GPU: NAME: WHY" and returns false.
bool runs_here(const VariantInfo& v);
}  // namespace detail

/// Every variant of `table` on the ladder, from step `first` on (and up to `last`), one per step,
/// as kernels to measure: named "step N: NAME", with the variant's intensity; stops at the first
/// step no variant is on. A step whose variant does not fit the current GPU is left out, with the
/// reason on stdout (detail::runs_here()).
template <class V>
std::vector<NamedGemm<typename V::Precision>> ladder_kernels(const std::vector<V>& table,
                                                             int first = 1, int last = INT_MAX) {
  std::vector<NamedGemm<typename V::Precision>> out;
  for (int step = first; step <= last; ++step) {
    const int i = step_index(table, step);
    if (i < 0) break;
    if (!detail::runs_here(table[i])) continue;
    out.push_back({"step " + std::to_string(step) + ": " + table[i].name, table[i].run, false,
                   table[i].intensity});
  }
  return out;
}

/// Every variant of `table` that fits the current GPU as a kernel to measure, under its own name;
/// the others are named on stdout with the reason (detail::runs_here()).
template <class V>
std::vector<NamedGemm<typename V::Precision>> variant_kernels(const std::vector<V>& table) {
  std::vector<NamedGemm<typename V::Precision>> out;
  for (const V& v : table) {
    if (detail::runs_here(v)) out.push_back({v.name, v.run, false, v.intensity});
  }
  return out;
}

namespace detail {
void print_config_table(const LessonRun& run, const std::vector<VariantInfo>& table,
                        bool local_bytes);
template <class P>
void sweep_variants(const LessonRun& run, const std::vector<Variant<P>>& table);
}  // namespace detail

/// "the compiled configurations on GPU" and one row per variant of `table` that fits the GPU
/// (fits_current_device()): its threads, the compiler's registers (and, with `local_bytes`, its
/// local memory per thread: more than 0 means it spilled), its dynamic shared memory, the blocks
/// per SM the CUDA runtime allows it (occupancy_blocks_per_sm()), the warps that makes and its
/// FLOP per byte; then each variant that does not fit, with the reason. With --json, one "config"
/// measurement line per variant that fits.
template <class V>
void print_config_table(const LessonRun& run, const std::vector<V>& table,
                        bool local_bytes = true) {
  detail::print_config_table(run, std::vector<VariantInfo>(table.begin(), table.end()),
                             local_bytes);
}

/// `--sweep`: every variant of `table` marked `swept` that fits the GPU, timed at the options'
/// problem size on one set of random inputs and not checked (the lesson's checked kernels are
/// measured by measure_kernels()); the others are named with the reason. Prints a table, and with
/// --json one line per variant timed ("what": "sweep").
template <class V>
void sweep_variants(const LessonRun& run, const std::vector<V>& table) {
  detail::sweep_variants(run,
                         std::vector<Variant<typename V::Precision>>(table.begin(), table.end()));
}

}  // namespace course
