#include "common/gemm_check.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/cublas_gemm.hpp"
#include "common/random.hpp"

#include <exception>
#include <stdexcept>

namespace course {

std::vector<GemmShape> gemm_shape_grid(bool large) {
  std::vector<GemmShape> grid = {
      {1, 1, 1, 1.0f, 0.0f},                                        // the smallest problem
      {1, 1, 1, -0.5f, 2.0f},      {7, 13, 5, 1.0f, 0.0f},          // primes
      {31, 17, 29, 0.75f, -1.25f}, {64, 64, 64, 1.0f, 0.0f},        // a tile multiple
      {33, 65, 17, 1.5f, 0.5f},                                     // one past a tile, non-square
      {127, 63, 130, -1.0f, 0.0f}, {257, 255, 300, 1.25f, -0.75f},  // ragged in every dimension
      {200, 3, 511, 1.0f, 1.0f},                                    // tall and thin
      {3, 300, 97, 2.0f, 0.0f},                                     // short and wide
  };
  if (large) {
    grid.push_back({1024, 1024, 1024, 1.0f, 0.0f});
    grid.push_back({1031, 1000, 1537, 0.5f, -0.25f});
  }
  return grid;
}

std::vector<GemmShape> bf16_shape_grid(int k_multiple, bool large) {
  std::vector<GemmShape> grid = gemm_shape_grid(large);
  for (GemmShape& s : grid) s.K = (s.K + k_multiple - 1) / k_multiple * k_multiple;
  return grid;
}

namespace {

std::string tag(const char* what, const GemmShape& s) {
  return std::string(what) + " " + s.str();
}

// Runs `gemm` once on the inputs with the guarded output on the device, then hands the result to
// `verify` (verify_sgemm or verify_bf16_gemm).
template <typename T, typename Fn, typename Verify>
VerifyReport run_and_verify(const Fn& gemm, const GemmShape& s, const std::vector<T>& A,
                            const std::vector<T>& B, std::vector<T> out, const Verify& verify) {
  const std::size_t band = guard_band(s.M, s.N);
  DeviceBuffer<T> dA(A), dB(B), dC(out);
  gemm(s.M, s.N, s.K, s.alpha, dA.data(), dB.data(), s.beta, dC.data() + band);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  dC.download(out.data(), out.size());
  return verify(out);
}

VerifyReport check_sgemm_once(const SgemmFn& gemm, const GemmShape& s,
                              const VerifyOptions& options) {
  const auto A = random_matrix(s.M, s.K, derive_seed(tag("A", s)));
  const auto B = random_matrix(s.K, s.N, derive_seed(tag("B", s)));
  const auto C0 = random_matrix(s.M, s.N, derive_seed(tag("C", s)));
  return run_and_verify(gemm, s, A, B, make_guarded_output(s, C0),
                        [&](const auto& out) { return verify_sgemm(s, A, B, C0, out, options); });
}

VerifyReport check_bf16_gemm_once(const Bf16GemmFn& gemm, const GemmShape& s,
                                  const VerifyOptions& options) {
  const auto A = random_matrix_bf16(s.M, s.K, derive_seed(tag("A", s)));
  const auto B = random_matrix_bf16(s.N, s.K, derive_seed(tag("B", s)));  // N x K
  const auto C0 = random_matrix_bf16(s.M, s.N, derive_seed(tag("C", s)));
  return run_and_verify(gemm, s, A, B, make_guarded_output_bf16(s, C0), [&](const auto& out) {
    return verify_bf16_gemm(s, A, B, C0, out, options);
  });
}

// When the failing shape cannot tell its causes apart, runs the kernel once more on the first
// probe shape it accepts (a launcher that refuses a shape throws std::invalid_argument) and adds
// what that shows to the report. The verdict of the first shape stays as it is.
template <typename Check>
void probe_if_ambiguous(VerifyReport& r, bool for_bf16, const Check& check) {
  if (r.passed || !r.ambiguous()) return;
  for (const GemmShape& probe : probe_shapes(for_bf16)) {
    if (probe.M == r.shape.M && probe.N == r.shape.N && probe.K == r.shape.K) continue;
    try {
      add_probe_result(r, check(probe));
      return;
    } catch (const std::invalid_argument&) {
      continue;  // a precondition of the kernel: try the next shape
    } catch (const std::exception& e) {
      add_probe_failure(r, probe, e.what());
      return;
    }
  }
}

}  // namespace

VerifyReport check_sgemm(const SgemmFn& gemm, const GemmShape& s, const VerifyOptions& options) {
  VerifyReport r = check_sgemm_once(gemm, s, options);
  probe_if_ambiguous(
      r, false, [&](const GemmShape& probe) { return check_sgemm_once(gemm, probe, options); });
  return r;
}

VerifyReport check_bf16_gemm(const Bf16GemmFn& gemm, const GemmShape& s,
                             const VerifyOptions& options) {
  VerifyReport r = check_bf16_gemm_once(gemm, s, options);
  probe_if_ambiguous(
      r, true, [&](const GemmShape& probe) { return check_bf16_gemm_once(gemm, probe, options); });
  return r;
}

namespace {
template <typename T, typename Fn, typename Baseline>
GemmBench bench(const Fn& gemm, const Baseline& baseline, const DeviceBuffer<T>& A,
                const DeviceBuffer<T>& B, DeviceBuffer<T>& C, int M, int N, int K,
                const TimingOptions& options) {
  GemmBench b;
  b.cublas =
      time_gpu([&] { baseline(M, N, K, 1.0f, A.data(), B.data(), 0.0f, C.data()); }, options);
  b.kernel = time_gpu([&] { gemm(M, N, K, 1.0f, A.data(), B.data(), 0.0f, C.data()); }, options);
  b.kernel_tflops = tflops(gemm_flops(M, N, K), b.kernel.median_ms);
  b.cublas_tflops = tflops(gemm_flops(M, N, K), b.cublas.median_ms);
  b.pct_of_cublas = 100.0 * b.cublas.median_ms / b.kernel.median_ms;
  return b;
}
}  // namespace

GemmBench bench_sgemm_vs_cublas(const SgemmFn& gemm, int M, int N, int K,
                                const TimingOptions& options) {
  CublasHandle handle;
  DeviceBuffer<float> A(random_matrix(M, K, derive_seed("bench A"))),
      B(random_matrix(K, N, derive_seed("bench B"))), C(static_cast<std::size_t>(M) * N);
  return bench(gemm, cublas_sgemm_fn(handle.get()), A, B, C, M, N, K, options);
}

GemmBench bench_bf16_vs_cublas(const Bf16GemmFn& gemm, int M, int N, int K,
                               const TimingOptions& options) {
  CublasHandle handle;
  DeviceBuffer<bf16> A(random_matrix_bf16(M, K, derive_seed("bench A"))),
      B(random_matrix_bf16(N, K, derive_seed("bench B"))), C(static_cast<std::size_t>(M) * N);
  return bench(gemm, cublas_gemm_bf16_fn(handle.get()), A, B, C, M, N, K, options);
}

}  // namespace course
