#include "common/gemm_check.hpp"

#include "common/bits.hpp"
#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/cublas_gemm.hpp"
#include "common/diagnosis.hpp"
#include "common/random.hpp"

#include <functional>

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
      {97, 132, 68, 0.5f, 1.5f},  // N and K multiples of 4: the vector paths, with beta != 0
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

// Element type <-> float, bit for bit (common/bits.hpp): the marks' NaN payloads survive.
float to_float(float v) {
  return v;
}
float to_float(bf16 v) {
  return widen(v);
}
template <class T>
T from_float(float v);
template <>
float from_float<float>(float v) {
  return v;
}
template <>
bf16 from_float<bf16>(float v) {
  return narrow(v);
}
template <class T>
std::vector<T> elements(const std::vector<float>& v) {
  std::vector<T> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = from_float<T>(v[i]);
  return out;
}

// The kernel as a GemmRun: the job uploaded, the kernel launched on it, waited for (a kernel that
// never ends stops the program after kKernelTimeLimitSeconds, with a message), the output read
// back.
template <class P>
GemmRun on_device(const GemmFn<P>& gemm) {
  using T = typename P::Element;
  return [&gemm](GemmJob& g) {
    DeviceBuffer<T> dA(elements<T>(g.A)), dB(elements<T>(g.B)), dC(elements<T>(g.out));
    gemm(g.s.M, g.s.N, g.s.K, g.s.alpha, dA.data() + g.a_at, dB.data() + g.b_at, g.s.beta,
         dC.data() + g.c_at);
    CUDA_CHECK(cudaGetLastError());
    wait_for_gpu("the GEMM kernel");
    const std::vector<T> out = dC.to_host();
    for (std::size_t i = 0; i < out.size(); ++i) g.out[i] = to_float(out[i]);
  };
}

// Runs `gemm` on fresh random inputs, checks it, and when it fails, probes it: the graders' path
// (check_gemm_run, common/diagnosis.hpp) with the kernel on the device.
template <class P>
VerifyReport check(const GemmFn<P>& gemm, const GemmShape& s, const VerifyOptions& options) {
  // A launcher passed as a function (&lesson05::tiled_sgemm<16>) is probed once per program.
  const GemmLauncher<P>* f = gemm.template target<GemmLauncher<P>>();
  return check_gemm_run(on_device<P>(gemm), s, P::kBLayout == BLayout::kNByK, options,
                        f != nullptr ? reinterpret_cast<const void*>(*f) : nullptr);
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
  b.kernel_tflops = tflops(gemm_flops(M, N, K), kernel.ms());
  b.cublas_tflops = tflops(gemm_flops(M, N, K), cublas.ms());
  b.pct_of_cublas = 100.0 * cublas.ms() / kernel.ms();
  return b;
}

}  // namespace course
