// Lesson 03: the naive SGEMM. Checks naive_sgemm against Eigen at a ragged size and at the timed
// size, then times it against cuBLAS SGEMM on the same inputs, in the same process.
//
// make lesson-3 runs it with your exercise, make lesson-3 SOLUTION=1 with the reference.
// Options: --size N (M = N = K, default 4096) or --m/--n/--k, --reps, --warmup, --json,
// --no-check; --help lists them.
#include "naive_sgemm.hpp"

#include "common/gemm_driver.hpp"
#include "common/verify.hpp"

#include <cstdio>

int main(int argc, char** argv) {
  //! [main]
  course::GemmLesson<course::Fp32> lesson(
      course::this_lesson(),
      "the naive SGEMM: one thread per element of C, x walking down the rows");
  // The CPU first, as a baseline: the same product in Eigen, on this machine's CPU, at 1024^3 (a
  // few hundred milliseconds; 4096^3 would take half a minute on one core).
  lesson.cpu_part = [](course::LessonRun&) {
    const course::CpuSgemm cpu = course::time_cpu_sgemm(1024);
    std::printf(
        "the CPU as a baseline: Eigen's SGEMM at 1024^3 on %d thread%s of this machine's "
        "CPU: %.1f ms, %.1f GFLOP/s\n\n",
        cpu.threads, cpu.threads == 1 ? "" : "s", cpu.ms, cpu.gflops());
  };
  lesson.kernels = [](course::LessonRun&) {
    return std::vector<course::NamedGemm<course::Fp32>>{
        {"naive_sgemm", lesson03::naive_sgemm, /*headline=*/true, /*intensity=*/0.25}};
  };
  return lesson.run(argc, argv);
  //! [main]
}
