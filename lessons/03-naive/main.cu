// Lesson 03: the naive SGEMM. Checks naive_sgemm against Eigen at a ragged size and at the timed
// size, then times it against cuBLAS SGEMM on the same inputs, in the same process.
//
// make lesson-3 runs it with your exercise, make lesson-3 SOLUTION=1 with the reference.
// Options: --size N (M = N = K, default 4096) or --m/--n/--k, --reps, --warmup, --json,
// --no-check; --help lists them.
#include "naive_sgemm.hpp"

#include "common/gemm_driver.hpp"

int main(int argc, char** argv) {
  //! [main]
  return course::run_gemm_lesson<course::Fp32>(
      argc, argv, course::this_lesson(),
      "the naive SGEMM: one thread per element of C, x walking down the rows",
      {{"naive_sgemm", lesson03::naive_sgemm, /*headline=*/true, /*intensity=*/0.25}});
  //! [main]
}
