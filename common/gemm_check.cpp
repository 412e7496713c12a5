#include "common/gemm_check.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/cublas_gemm.hpp"
#include "common/random.hpp"

#include <exception>
#include <functional>
#include <stdexcept>

namespace course {

template <class P>
std::vector<GemmShape> shape_grid(bool large) {
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
  for (GemmShape& s : grid) s.K = (s.K + P::kKMultiple - 1) / P::kKMultiple * P::kKMultiple;
  return grid;
}

template std::vector<GemmShape> shape_grid<Fp32>(bool);
template std::vector<GemmShape> shape_grid<Bf16>(bool);

namespace {

std::string tag(const char* what, const GemmShape& s) {
  return std::string(what) + " " + s.str();
}

// Runs `gemm` once on fresh inputs with the guarded output on the device, and checks the result.
template <class P>
VerifyReport check_once(const GemmFn<P>& gemm, const GemmShape& s, const VerifyOptions& options) {
  using T = typename P::Element;
  const bool b_is_n_by_k = P::kBLayout == BLayout::kNByK;
  const auto A = random_matrix<T>(s.M, s.K, derive_seed(tag("A", s)));
  const auto B = b_is_n_by_k ? random_matrix<T>(s.N, s.K, derive_seed(tag("B", s)))
                             : random_matrix<T>(s.K, s.N, derive_seed(tag("B", s)));
  const auto C0 = random_matrix<T>(s.M, s.N, derive_seed(tag("C", s)));
  std::vector<T> out = make_guarded_output(s, C0);
  const std::size_t band = guard_band(s.M, s.N);
  DeviceBuffer<T> dA(A), dB(B), dC(out);
  gemm(s.M, s.N, s.K, s.alpha, dA.data(), dB.data(), s.beta, dC.data() + band);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  dC.download(out.data(), out.size());
  return verify_gemm(s, A, B, C0, out, options);
}

// When the failing shape cannot tell its causes apart, runs the kernel once more on the first
// probe shape it accepts (a launcher that refuses a shape throws std::invalid_argument) and adds
// what that shows to the report. The verdict of the first shape stays as it is.
template <class P>
VerifyReport check(const GemmFn<P>& gemm, const GemmShape& s, const VerifyOptions& options) {
  VerifyReport r = check_once<P>(gemm, s, options);
  if (r.passed || !r.ambiguous()) return r;
  for (const GemmShape& probe : probe_shapes(P::kKMultiple > 1)) {
    if (probe.M == r.shape.M && probe.N == r.shape.N && probe.K == r.shape.K) continue;
    try {
      add_probe_result(r, check_once<P>(gemm, probe, options));
      return r;
    } catch (const std::invalid_argument&) {
      continue;  // a precondition of the kernel: try the next shape
    } catch (const std::exception& e) {
      add_probe_failure(r, probe, e.what());
      return r;
    }
  }
  return r;
}

template <class P>
GemmBench bench(const GemmFn<P>& gemm, int M, int N, int K, const TimingOptions& options,
                bool kernel_first) {
  using T = typename P::Element;
  CublasHandle handle;
  // A is M x K; B is K x N or N x K: the same elements either way, and the same random values.
  DeviceBuffer<T> A(random_matrix<T>(M, K, derive_seed("bench A")));
  DeviceBuffer<T> B(P::kBLayout == BLayout::kNByK ? random_matrix<T>(N, K, derive_seed("bench B"))
                                                  : random_matrix<T>(K, N, derive_seed("bench B")));
  DeviceBuffer<T> C(static_cast<std::size_t>(M) * N);
  const std::function<void()> cublas = [&] {
    P::cublas(handle.get(), M, N, K, 1.0f, A.data(), B.data(), 0.0f, C.data());
  };
  const std::function<void()> kernel = [&] {
    gemm(M, N, K, 1.0f, A.data(), B.data(), 0.0f, C.data());
  };
  // Interleaved, in the same power and thermal state (common/timing.hpp).
  if (kernel_first) {
    const std::vector<TimingStats> t = time_interleaved({kernel, cublas}, options);
    return bench_of(t[0], t[1], M, N, K);
  }
  const std::vector<TimingStats> t = time_interleaved({cublas, kernel}, options);
  return bench_of(t[1], t[0], M, N, K);
}

}  // namespace

VerifyReport check_gemm(const GemmFn<Fp32>& gemm, const GemmShape& s,
                        const VerifyOptions& options) {
  return check<Fp32>(gemm, s, options);
}

VerifyReport check_gemm(const GemmFn<Bf16>& gemm, const GemmShape& s,
                        const VerifyOptions& options) {
  return check<Bf16>(gemm, s, options);
}

GemmBench bench_vs_cublas(const GemmFn<Fp32>& gemm, int M, int N, int K,
                          const TimingOptions& options, bool kernel_first) {
  return bench<Fp32>(gemm, M, N, K, options, kernel_first);
}

GemmBench bench_vs_cublas(const GemmFn<Bf16>& gemm, int M, int N, int K,
                          const TimingOptions& options, bool kernel_first) {
  return bench<Bf16>(gemm, M, N, K, options, kernel_first);
}

GemmBench bench_of(const TimingStats& kernel, const TimingStats& cublas, int M, int N, int K) {
  GemmBench b;
  b.kernel = kernel;
  b.cublas = cublas;
  b.kernel_tflops = tflops(gemm_flops(M, N, K), kernel.median_ms);
  b.cublas_tflops = tflops(gemm_flops(M, N, K), cublas.median_ms);
  b.pct_of_cublas = 100.0 * cublas.median_ms / kernel.median_ms;
  return b;
}

}  // namespace course
