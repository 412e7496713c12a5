// Lesson 11: the TMA pipeline. Every rung of the ladder checked against Eigen (at a ragged size and
// at the problem size) and timed against cuBLAS bf16 in the same process (4096^3 unless told
// otherwise); with --sweep, also the variants the chapter compares the headline with.
//
//   make lesson-11                       your exercise
//   make lesson-11 SOLUTION=1            the reference solution
//   make lesson-11 ARGS="--size 8192"    options: --size, --m/--n/--k, --reps, --warmup, --json,
//                                        --sweep, --check-only
#include "tma_pipeline.hpp"

#include "common/device.hpp"
#include "common/gemm_driver.hpp"

#include <cstdio>
#include <stdexcept>
#include <vector>

int main(int argc, char** argv) {
  course::Cli cli("lesson11",
                  "the TMA pipeline: TMA, mbarrier, wgmma and warp specialization, rung by rung, "
                  "against cuBLAS bf16");
  course::add_sgemm_options(cli);
  cli.flag("sweep", "also check and time the variants the chapter compares the last rungs with");
  cli.parse(argc, argv);
  return course::guarded_main(course::this_lesson(), [&] {
    const int device = course::require_device(course::this_lesson());
    if (const std::string why = lesson11::hopper_support_error(device); !why.empty()) {
      throw std::runtime_error(why);
    }
    //! [kernels]
    // The headline is the rung that calls hopper_gemm, the last one: whatever configuration
    // hopper_gemm launches (today the streamed epilogue with stream-K), it is the lesson's result.
    std::vector<course::NamedBf16Gemm> kernels;
    for (const lesson11::Rung& r : lesson11::rungs()) {
      kernels.push_back({r.name, r.fn, /*headline=*/r.fn == &lesson11::hopper_gemm});
    }
    //! [kernels]
    int rc =
        course::sgemm_exit_code(course::measure_bf16_kernels(cli, course::this_lesson(), kernels));
    if (cli.on("sweep") && !course::headline_only(cli)) {
      std::vector<course::NamedBf16Gemm> more;
      for (const lesson11::Rung& r : lesson11::variants()) more.push_back({r.name, r.fn, false});
      if (course::sgemm_exit_code(course::measure_bf16_kernels(cli, course::this_lesson(), more)) !=
          0)
        rc = 1;
    }
    return rc;
  });
}
