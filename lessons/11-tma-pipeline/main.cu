// Lesson 11: the TMA pipeline. Every rung of the ladder checked against Eigen (at a ragged size and
// at the problem size) and timed against cuBLAS bf16 in the same process (4096^3 unless told
// otherwise); with --sweep, also the variants of the lab (lab/), which the chapter compares the
// headline with.
//
//   make lesson-11                       your exercise
//   make lesson-11 SOLUTION=1            the reference solution
//   make lesson-11 ARGS="--size 8192"    options: --size, --m/--n/--k, --reps, --warmup, --json,
//                                        --sweep, --check-only, --only (names)
#include "lab/lab.hpp"
#include "tma_pipeline.hpp"

#include "common/gemm_driver.hpp"

#include "common/fit.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  course::GemmLesson<course::Bf16> lesson(course::this_lesson(),
                                          "the TMA pipeline: TMA, mbarrier, warp specialization, "
                                          "wgmma or mma.sync, rung by rung, against cuBLAS bf16");
  lesson.options = [](course::Cli& cli) {
    cli.flag("sweep", "also check and time the variants the chapter compares the last rungs with");
  };
  lesson.kernels = [](course::LessonRun& run) {
    if (const std::string why = lesson11::tma_support_error(run.device); !why.empty()) {
      throw std::runtime_error(why);
    }
    //! [kernels]
    // What this GPU runs: every rung on compute capability 9.0 (Hopper), where the headline is
    // hopper_gemm, rung 6 (whatever configuration it launches); on a newer GPU with TMA and no
    // wgmma (sm_100, sm_120: B200, the RTX 50 series) the portable rung alone, which is then the
    // headline.
    const bool wgmma = lesson11::hopper_support_error(run.device).empty();
    if (!wgmma) std::printf("%s\n", lesson11::hopper_support_error(run.device).c_str());
    const auto headline = wgmma ? &lesson11::hopper_gemm : &lesson11::portable_gemm;
    std::vector<course::NamedGemm<course::Bf16>> kernels;
    for (const lesson11::Rung& r : lesson11::rungs()) {
      if (!course::fits(r, run.device.limits)) continue;
      kernels.push_back({r.name, r.run, /*headline=*/r.run == headline});
    }
    //! [kernels]
    return kernels;
  };
  // --sweep: the variants of the lab (wgmma: Hopper only), each checked and timed like the rungs.
  lesson.after = [](course::LessonRun& run, const std::vector<course::GemmResult>&) {
    if (!run.cli.on("sweep") || !lesson11::hopper_support_error(run.device).empty()) return;
    const auto measured = course::measure_kernels(
        run.cli, run.lesson, course::variant_kernels(lesson11::lab::variants()));
    if (course::gemm_exit_code(measured) != course::kExitOk) run.failed = true;
  };
  return lesson.run(argc, argv);
}
