// Tests of common/ on a real GPU: the cuBLAS baselines agree with Eigen over the whole shape
// grid, the checks catch and name each planted fault in a real kernel, and timing works.
#include "catch_compat.hpp"

#include "planted_kernels.hpp"

#include "common/check.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/gemm_check.hpp"
#include "common/timing.hpp"

#include <string>

TEST_CASE("cuBLAS SGEMM (row-major) agrees with Eigen on the shape grid", "[gpu][cublas]") {
  course::CublasHandle handle;
  for (const auto& s : course::gemm_shape_grid(true)) {
    auto r = course::check_sgemm(course::cublas_sgemm_fn(handle.get()), s);
    INFO(r.describe());
    CHECK(r.passed);
  }
}

TEST_CASE("cuBLAS bf16 GEMM (A MxK, B NxK) agrees with Eigen on the shape grid", "[gpu][cublas]") {
  course::CublasHandle handle;
  for (const auto& s : course::gemm_shape_grid(true)) {
    auto r = course::check_bf16_gemm(course::cublas_gemm_bf16_fn(handle.get()), s);
    INFO(r.describe());
    CHECK(r.passed);
  }
}

TEST_CASE("planted faults in real kernels are caught and named", "[gpu][verify]") {
  using planted::Fault;
  struct Case {
    Fault fault;
    course::GemmShape shape;
    const char* expect;  // "" = must pass
  };
  const Case cases[] = {
      {Fault::kNone, {257, 255, 300, 1.25f, -0.75f}, ""},
      {Fault::kNone, {1, 1, 1, 1.0f, 0.0f}, ""},
      {Fault::kNoWriteGuard, {100, 50, 30, 1.0f, 0.0f}, "out-of-bounds write"},
      {Fault::kTransposed, {64, 64, 30, 1.0f, 0.0f}, "transposed"},
      {Fault::kTransposed, {48, 80, 30, 1.0f, 0.0f}, "transposed"},
      {Fault::kGridTooSmall, {70, 50, 20, 1.0f, 0.0f}, "grid too small"},
      {Fault::kIgnoresBeta, {40, 40, 40, 1.5f, -0.5f}, "beta is ignored"},
      {Fault::kReadsCWhenBeta0, {40, 40, 40, 1.0f, 0.0f}, "reads C"},
  };
  for (const Case& c : cases) {
    auto fn = [&](int M, int N, int K, float a, const float* A, const float* B, float b, float* C) {
      planted::sgemm(c.fault, M, N, K, a, A, B, b, C);
    };
    auto r = course::check_sgemm(fn, c.shape);
    INFO("planted fault " << static_cast<int>(c.fault) << "\n" << r.describe());
    if (std::string(c.expect).empty()) {
      CHECK(r.passed);
    } else {
      CHECK_FALSE(r.passed);
      CHECK(r.cause.find(c.expect) != std::string::npos);
    }
  }
}

TEST_CASE("timing: events, median, and % of cuBLAS in one process", "[gpu][timing]") {
  course::CublasHandle handle;
  auto b = course::bench_sgemm_vs_cublas(course::cublas_sgemm_fn(handle.get()), 512, 512, 512,
                                         {1, 5, true});
  CHECK(b.kernel.reps == 5);
  CHECK(b.kernel.median_ms > 0);
  CHECK(b.cublas.median_ms > 0);
  CHECK(b.kernel.min_ms <= b.kernel.median_ms);
  CHECK(b.kernel.median_ms <= b.kernel.max_ms);
  CHECK(b.pct_of_cublas > 0);  // the same library against itself: a sanity check, not a target
}

TEST_CASE("CUDA errors are reported with file, line and call", "[gpu][check]") {
  void* p = nullptr;
  try {
    CUDA_CHECK(cudaMalloc(&p, std::size_t(1) << 62));  // far more than any GPU has
    FAIL("an impossible allocation succeeded");
  } catch (const course::CudaError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("test_gpu_harness.cpp") != std::string::npos);
    CHECK(what.find("cudaMalloc") != std::string::npos);
    CHECK(what.find("cudaErrorMemoryAllocation") != std::string::npos);
  }
}
