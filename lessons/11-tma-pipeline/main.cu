// Lesson 11: the TMA pipeline. Every rung of the ladder checked against Eigen (at a ragged size and
// at the problem size) and timed against cuBLAS bf16 in the same process (4096^3 unless told
// otherwise); with --sweep, also the variants of the lab (lab/), which the chapter compares the
// headline with.
//
//   make lesson-11                       your exercise
//   make lesson-11 SOLUTION=1            the reference solution
//   make lesson-11 ARGS="--size 8192"    options: --size, --m/--n/--k, --reps, --warmup, --json,
//                                        --sweep, --check-only
#include "lab/lab.hpp"
#include "tma_pipeline.hpp"

#include "common/gemm_driver.hpp"

#include <stdexcept>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  course::GemmLesson<course::Bf16> lesson(course::this_lesson(),
                                          "the TMA pipeline: TMA, mbarrier, wgmma and warp "
                                          "specialization, rung by rung, against cuBLAS bf16");
  lesson.options = [](course::Cli& cli) {
    cli.flag("sweep", "also check and time the variants the chapter compares the last rungs with");
  };
  lesson.kernels = [](course::LessonRun& run) {
    if (const std::string why = lesson11::hopper_support_error(run.device); !why.empty()) {
      throw std::runtime_error(why);
    }
    //! [kernels]
    // The headline is the rung that calls hopper_gemm, the last one: whatever configuration
    // hopper_gemm launches (today the streamed epilogue with bands of 16), it is the lesson's
    // result.
    std::vector<course::NamedGemm<course::Bf16>> kernels;
    for (const lesson11::Rung& r : lesson11::rungs()) {
      kernels.push_back({r.name, r.run, /*headline=*/r.run == &lesson11::hopper_gemm});
    }
    //! [kernels]
    return kernels;
  };
  // --sweep: the variants, each checked and timed like the rungs.
  lesson.after = [](course::LessonRun& run, const std::vector<course::GemmResult>&) {
    if (!run.cli.on("sweep")) return;
    const auto measured = course::measure_kernels(
        run.cli, run.lesson, course::variant_kernels(lesson11::lab::variants()));
    if (course::gemm_exit_code(measured) != course::kExitOk) run.failed = true;
  };
  return lesson.run(argc, argv);
}
