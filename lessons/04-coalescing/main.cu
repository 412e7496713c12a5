// Lesson 04: coalescing. The same one-thread-per-element SGEMM three ways: lesson 03's mapping
// (x down the rows), the coalesced one (x along the columns), and the contrast (x along the
// columns, B read transposed). First what one warp touches in each, counted with warp_access; then
// each kernel checked against Eigen and timed against cuBLAS SGEMM in the same process.
//
// make lesson-4 runs it with your exercise, make lesson-4 SOLUTION=1 with the reference.
// Options: --size N (M = N = K, default 4096) or --m/--n/--k, --reps, --warmup, --json,
// --no-check; --help lists them.
#include "coalesced_sgemm.hpp"
#include "lessons/03-naive/naive_sgemm.hpp"  // lesson 03's kernel, from its reference solution
#include "warp_access.hpp"

#include "common/buffers.hpp"
#include "common/cublas_gemm.hpp"
#include "common/gemm_check.hpp"
#include "common/gemm_driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Kernel {
  const char* name;
  lesson04::Mapping mapping;
  const char* x_walks;  // what consecutive threadIdx.x (the lanes of a warp) move along
};

const Kernel kKernels[] = {
    {"naive_sgemm (lesson 03)", lesson04::Mapping::kNaive, "down a column of C"},
    {"coalesced_sgemm", lesson04::Mapping::kCoalesced, "along a row of C"},
    {"transposed_b_sgemm", lesson04::Mapping::kTransposedB, "along a row of C (B as Bt)"},
};

std::string cost(const lesson04::WarpAccess& w) {
  return std::to_string(w.sectors) + " / " + std::to_string(w.lines);
}

// What the first warp of each kernel asks for at step k = 0, in sectors / lines.
void print_warp_trace(const course::GemmShape& s) {
  std::printf(
      "what one warp touches (sectors / lines): the first warp of block (0,0), step k = 0 of "
      "the loop, M=%d N=%d K=%d\n",
      s.M, s.N, s.K);
  course::Table t(
      {"kernel", "threadIdx.x walks", "A[row][k]", "B[k][col]", "bytes per k", "C store"});
  for (const Kernel& k : kKernels) {
    //! [trace]
    const lesson04::WarpAddresses w = lesson04::first_warp_addresses(k.mapping, s.M, s.N, s.K);
    const lesson04::WarpAccess a = lesson04::warp_access(w.a);
    const lesson04::WarpAccess b = lesson04::warp_access(w.b);
    const lesson04::WarpAccess c = lesson04::warp_access(w.c);
    //! [trace]
    t.add_row({k.name, k.x_walks, cost(a), cost(b),
               std::to_string((a.sectors + b.sectors) * lesson04::kSectorBytes), cost(c)});
  }
  t.print();
  std::printf(
      "(a sector is 32 bytes, a line 128; a warp's 32 floats are 128 bytes, at best 4 sectors "
      "in 1 line)\n\n");
}

// All three load one element of A and one of B from global memory per FMA: 2 FLOP per 8 bytes.
constexpr double kIntensity = 0.25;

// The contrast takes Bt, not B: checked through an adapter that transposes B first, and timed
// next to cuBLAS (interleaved, as the driver times the others) on a Bt prepared beforehand, so
// only the kernel is in the timed region.
void check_and_time_contrast(const course::LessonRun& run, course::GemmResult& contrast) {
  const course::GemmShape& s = run.shape;
  if (!run.cli.on("no-check")) {
    contrast.checked = true;
    contrast.passed = course::check_kernel(lesson04::transposed_b_for_checking(), contrast.name, s);
  }
  {
    //! [contrast]
    // The inputs the driver timed the other kernels on (same seeds), with B transposed on the
    // host before any timing starts.
    const std::vector<float> b = course::random_matrix(s.K, s.N, course::derive_seed("bench B"));
    std::vector<float> bt(b.size());
    for (std::size_t k = 0; k < static_cast<std::size_t>(s.K); ++k) {
      for (std::size_t col = 0; col < static_cast<std::size_t>(s.N); ++col) {
        bt[col * s.K + k] = b[k * s.N + col];
      }
    }
    course::DeviceBuffer<float> A(course::random_matrix(s.M, s.K, course::derive_seed("bench A")));
    course::DeviceBuffer<float> B(b), Bt(bt), C(static_cast<std::size_t>(s.M) * s.N);
    course::CublasHandle cublas;
    // As the driver times the others: interleaved with cuBLAS, each run with a cold L2.
    const std::vector<course::TimingStats> t = course::time_interleaved(
        {[&] {
           course::cublas_gemm(cublas.get(), s.M, s.N, s.K, 1.0f, A.data(), B.data(), 0.0f,
                               C.data());
         },
         [&] {
           lesson04::transposed_b_sgemm(s.M, s.N, s.K, 1.0f, A.data(), Bt.data(), 0.0f, C.data());
         }},
        run.timing());
    contrast.bench = course::bench_of(t[1], t[0], s.M, s.N, s.K);
    //! [contrast]
  }
}

// After the driver's table: the contrast, checked and timed, and the three side by side.
void compare(course::LessonRun& run, const std::vector<course::GemmResult>& measured) {
  const course::GemmShape& s = run.shape;
  course::GemmResult contrast;
  contrast.name = kKernels[2].name;
  contrast.intensity = kIntensity;
  // The comparison needs all three kernels: with one of yours still a stub, the driver's table
  // above is all there is (and the end of the output says what is left to write).
  const bool all_written =
      std::all_of(measured.begin(), measured.end(),
                  [](const course::GemmResult& r) { return r.not_written.empty(); });
  if (!all_written || !course::try_yours([&] { check_and_time_contrast(run, contrast); })) return;
  if (contrast.checked && !contrast.passed) run.failed = true;

  //! [compare]
  std::vector<course::GemmResult> all = measured;
  all.push_back(contrast);
  const double naive_ms = all.front().bench.kernel.ms();
  std::printf("\nthe three mappings, M=%d N=%d K=%d (cuBLAS SGEMM: %.3f ms, %.2f TFLOP/s)\n", s.M,
              s.N, s.K, contrast.bench.cublas.ms(), contrast.bench.cublas_tflops);
  course::Table t({"kernel", "threadIdx.x walks", "ms", "TFLOP/s", "% of cuBLAS",
                   "speed-up over lesson 03", "check"});
  for (std::size_t i = 0; i < all.size(); ++i) {
    const course::GemmResult& r = all[i];
    t.add_row({r.name, kKernels[i].x_walks, course::fixed(r.bench.kernel.ms(), 3),
               course::fixed(r.bench.kernel_tflops, 2),
               course::fixed(r.bench.pct_of_cublas, 1) + "%",
               course::fixed(naive_ms / r.bench.kernel.ms(), 1) + "x",
               !r.checked ? "skipped" : (r.passed ? "passed" : "FAILED")});
  }
  t.print();
  //! [compare]

  // The contrast's measurement line, as the driver prints the others'.
  if (run.json) course::measurement_of(contrast, run.lesson, s, run.gpu(), "fp32").print();
}

}  // namespace

int main(int argc, char** argv) {
  course::GemmLesson<course::Fp32> lesson(course::this_lesson(),
                                          "coalescing: lesson 03's SGEMM with the thread mapping "
                                          "swapped, and a transposed-B contrast");
  lesson.cpu_part = [](course::LessonRun& run) {  // yours: warp_access
    course::try_yours([&] { print_warp_trace(run.shape); });
  };
  // The two kernels with the SGEMM signature: checked and timed against cuBLAS by the driver.
  lesson.kernels = [](course::LessonRun&) {
    return std::vector<course::NamedGemm<course::Fp32>>{
        {kKernels[0].name, lesson03::naive_sgemm, false, kIntensity},
        {kKernels[1].name, lesson04::coalesced_sgemm, /*headline=*/true, kIntensity}};
  };
  lesson.after = compare;
  return lesson.run(argc, argv);
}
