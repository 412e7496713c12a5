// The grader of lesson 07 (register tiling). Linked against the learner's exercise (grade07) and
// against the reference solution (test07).
//
// [gpu] tests run each kernel first on shapes chosen to take every path of the kernels one at a
// time (so that the first failure names the path), then on the design's shape grid (1x1x1,
// primes, non-square, ragged in every dimension, beta == 0 with C poisoned by NaN, two shapes of
// 1024 and more), checked against Eigen with canaries around C. The paths: whole tiles only (the
// fast path), M, N or K just below and just above a multiple of the block's tile, K smaller than
// one step, K and N that are not multiples of 4 (no 128-bit loads), and, for the vectorized kernel,
// pointers that are not 16-byte aligned. Each case says what its failure would mean.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "register_tiling.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/gemm_check.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

// The block tile of a kernel: BM x BN of C, stepping BK along K.
struct BlockTile {
  int bm, bn, bk;
};

// A shape that takes one path of the kernel, and what its failure would mean.
using course_test::EdgeCase;

std::vector<EdgeCase> edge_cases(BlockTile t) {
  const int bm = t.bm, bn = t.bn, bk = t.bk;
  return {
      {{bm, bn, 4 * bk, 1.0f, 0.0f},
       "exactly one block tile, K a few steps: the fast path only. If this fails, the thread "
       "tile itself is wrong: which rows and columns a thread owns, the loop over k, or where "
       "acc[i][j] is written"},
      {{2 * bm, 3 * bn, 5 * bk, 0.5f, 0.0f},
       "whole tiles, several blocks along every dimension: check row0 / col0 of the block and "
       "the step of the tiles along K"},
      {{2 * bm, 2 * bn, 2 * bk, 2.0f, -1.5f},
       "whole tiles with beta != 0: C must be read and scaled, alpha * acc + beta * C"},
      {{bm, bn, 4 * bk + 4, 1.0f, 0.0f},
       "K one group of 4 past a multiple of BK (K % 4 == 0): the last step along K is partial and "
       "must load zeros past column K of A and row K of B, while the other steps are whole"},
      {{bm, bn, 4 * bk + 3, 1.0f, 0.0f},
       "K = 3 past a multiple of BK, not a multiple of 4: rows of A are not 16-byte aligned, so "
       "no 128-bit load of A may be used anywhere; and the last step is partial"},
      {{bm, bn, bk - 1, 1.0f, 0.5f},
       "K smaller than one step: a single partial tile along K, the rest zeros"},
      {{bm - 1, bn, 2 * bk, 1.0f, 0.5f},
       "M one below the block tile: the last row of the tile lies outside A and C (loads of A "
       "past row M are zeros, no write past row M)"},
      {{bm + 1, 2 * bn, 2 * bk, 1.0f, 0.0f},
       "M one above the block tile: a second row of blocks with a single row inside C"},
      {{2 * bm, bn - 1, 2 * bk, 1.0f, 0.5f},
       "N one below the block tile (and not a multiple of 4): the last column of the tile lies "
       "outside B and C, and rows of B and C are not 16-byte aligned"},
      {{2 * bm, bn + 4, 2 * bk, 1.0f, -0.5f},
       "N four past the block tile (N % 4 == 0): the right-hand block has only 4 columns inside "
       "C; its loads of B and its writes of C must stop at column N"},
      {{2 * bm + 3, 2 * bn + 2, 3 * bk + 5, 0.75f, 0.25f},
       "every dimension ragged, N and K not multiples of 4: the bounds-checked path everywhere"},
  };
}

void check_edges(const course::GemmFn<course::Fp32>& fn, const std::string& label, BlockTile tile) {
  course_test::check_on_cases(fn, label, edge_cases(tile));
}

// `fn`, run on copies of A, B and C that start one float (4 bytes) past a 16-byte boundary, as a
// view into a larger matrix would: a kernel that takes the 128-bit path for them reads and writes
// misaligned addresses (a CUDA error) instead of falling back to scalar loads.
course::GemmFn<course::Fp32> misaligned(course::GemmFn<course::Fp32> fn) {
  return
      [fn](int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
        const std::size_t a = static_cast<std::size_t>(M) * K, b = static_cast<std::size_t>(K) * N,
                          c = static_cast<std::size_t>(M) * N;
        course::DeviceBuffer<float> A1(a + 1), B1(b + 1), C1(c + 1);
        CUDA_CHECK(cudaMemcpy(A1.data() + 1, A, a * sizeof(float), cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaMemcpy(B1.data() + 1, B, b * sizeof(float), cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaMemcpy(C1.data() + 1, C, c * sizeof(float), cudaMemcpyDeviceToDevice));
        fn(M, N, K, alpha, A1.data() + 1, B1.data() + 1, beta, C1.data() + 1);
        course::wait_for_gpu("the kernel on misaligned A, B and C");
        CUDA_CHECK(cudaMemcpy(C, C1.data() + 1, c * sizeof(float), cudaMemcpyDeviceToDevice));
      };
}

const course::GemmFn<course::Fp32> kTile1d = &lesson07::thread_tile_1d_sgemm<64, 64, 8, 8>;
const course::GemmFn<course::Fp32> kTile2d = &lesson07::thread_tile_2d_sgemm<128, 128, 8, 8, 8>;
const course::GemmFn<course::Fp32> kVector = &lesson07::vectorized_2d_sgemm<128, 128, 8, 8, 8>;

// Registers and local memory of a kernel, as the compiler left them.
cudaFuncAttributes attributes(const void* kernel) {
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  return attr;
}

}  // namespace

TEST_CASE("thread_tile_1d_sgemm: every edge of the block tile", "[gpu][task_1]") {
  check_edges(kTile1d, "thread_tile_1d_sgemm<64,64,8,8>", {64, 64, 8});
}

TEST_CASE("thread_tile_1d_sgemm<64,64,8,8> is right on the shape grid", "[gpu][task_1]") {
  course_test::check_on_shapes(kTile1d, "thread_tile_1d_sgemm<64,64,8,8>",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("thread_tile_2d_sgemm: every edge of the block tile", "[gpu][task_2]") {
  check_edges(kTile2d, "thread_tile_2d_sgemm<128,128,8,8,8>", {128, 128, 8});
}

TEST_CASE("thread_tile_2d_sgemm<128,128,8,8,8> is right on the shape grid", "[gpu][task_2]") {
  course_test::check_on_shapes(kTile2d, "thread_tile_2d_sgemm<128,128,8,8,8>",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("vectorized_2d_sgemm: every edge of the block tile, and every 128-bit precondition",
          "[gpu][task_3]") {
  check_edges(kVector, "vectorized_2d_sgemm<128,128,8,8,8>", {128, 128, 8});
  // Whole tiles, K and N multiples of 4, but the pointers 4 bytes past a 16-byte boundary.
  const std::string label = "vectorized_2d_sgemm<128,128,8,8,8> (misaligned A, B, C)";
  for (const course::GemmShape& s :
       {course::GemmShape{256, 256, 64, 1.0f, 0.0f}, course::GemmShape{256, 256, 64, 1.0f, 0.5f}}) {
    course::VerifyOptions options;
    options.label = label;
    const course::VerifyReport r = course::check_gemm(misaligned(kVector), s, options);
    INFO(label << " on " << s.str()
               << ": A, B and C start 4 bytes past a 16-byte boundary, so no row is 16-byte "
                  "aligned and a float4 load or store of them is illegal: the launcher must "
                  "check the pointers' alignment, not only K % 4 and N % 4, and take the scalar "
                  "path");
    INFO(r.describe());
    CHECK(r.passed);
  }
}

TEST_CASE("vectorized_2d_sgemm<128,128,8,8,8> is right on the shape grid", "[gpu][task_3]") {
  course_test::check_on_shapes(kVector, "vectorized_2d_sgemm<128,128,8,8,8>",
                               course::shape_grid<course::Fp32>(true));
}

TEST_CASE("the launchers reject sizes below 1, and the tiles stay in registers", "[gpu][task_3]") {
  // Correct runs first: a stub fails here with NOT IMPLEMENTED, not on the checks below (which
  // would pass before any exercise is done: the size check and the attributes are given).
  REQUIRE(course::check_gemm(kTile1d, {3, 5, 7, 1.0f, 0.0f}).passed);
  REQUIRE(course::check_gemm(kTile2d, {3, 5, 7, 1.0f, 0.0f}).passed);
  REQUIRE(course::check_gemm(kVector, {3, 5, 7, 1.0f, 0.0f}).passed);
  float* none = nullptr;
  CHECK(course_test::throws_invalid_argument([&] {
    lesson07::thread_tile_1d_sgemm<64, 64, 8, 8>(0, 4, 4, 1.0f, none, none, 0.0f, none);
  }));
  CHECK(course_test::throws_invalid_argument([&] {
    lesson07::thread_tile_2d_sgemm<128, 128, 8, 8, 8>(4, 0, 4, 1.0f, none, none, 0.0f, none);
  }));
  CHECK(course_test::throws_invalid_argument([&] {
    lesson07::vectorized_2d_sgemm<128, 128, 8, 8, 8>(4, 4, -1, 1.0f, none, none, 0.0f, none);
  }));

  struct Kernel {
    const char* name;
    const void* kernel;
  };
  for (const Kernel& k : {Kernel{"thread_tile_1d_sgemm<64,64,8,8>",
                                 lesson07::thread_tile_1d_sgemm_kernel<64, 64, 8, 8>()},
                          Kernel{"thread_tile_2d_sgemm<128,128,8,8,8>",
                                 lesson07::thread_tile_2d_sgemm_kernel<128, 128, 8, 8, 8>()},
                          Kernel{"vectorized_2d_sgemm<128,128,8,8,8>",
                                 lesson07::vectorized_2d_sgemm_kernel<128, 128, 8, 8, 8>()}}) {
    const cudaFuncAttributes attr = attributes(k.kernel);
    INFO(k.name << " uses " << attr.numRegs << " registers and " << attr.localSizeBytes
                << " bytes of local memory per thread. Local memory means part of the thread "
                   "tile lives off-chip: an index into acc, a or b that the compiler could not "
                   "resolve at compile time (a loop over TM or TN that is not fully unrolled, or "
                   "an index computed at run time). Results are right, but slow.");
    CHECK(attr.localSizeBytes == 0);
  }
}
