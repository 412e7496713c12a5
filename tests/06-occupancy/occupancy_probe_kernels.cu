// Kernels for the lesson 06 grader: deliberately different resource usages, read with
// cudaFuncGetAttributes and fed to both calculators (the learner's and the CUDA runtime's).
#include "occupancy_probe_kernels.hpp"

#include "common/check.hpp"
#include "common/device.hpp"

#include <cuda_runtime.h>

namespace probe06 {
namespace {

// Many values alive at once: the compiler needs far more than 32 registers per thread.
// __launch_bounds__(256, 1) lets it use up to 255; (256, 3) caps it at 65536 / 768 -> 80.
template <int MIN_BLOCKS>
__global__ void __launch_bounds__(256, MIN_BLOCKS)
    register_heavy_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  constexpr int kLive = 96;
  float v[kLive];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < kLive; ++i) v[i] = in[(t + i * 977) % n];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int i = 0; i < kLive; ++i) v[i] = v[i] * v[(i + 1) % kLive] + v[(i + 7) % kLive];
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < kLive; ++i) s += v[i] * static_cast<float>(i + 1);
  out[t] = s;
}

// Dynamic shared memory: its size is the launch's choice.
__global__ void dynamic_smem_kernel(float* out, int n) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = buf[(threadIdx.x + 1) % blockDim.x];
}

// Static shared memory of an odd size (7000 bytes): the 128-byte allocation unit shows.
__global__ void static_smem_kernel(float* out, int n) {
  __shared__ float buf[1750];
  for (int i = threadIdx.x; i < 1750; i += blockDim.x) buf[i] = static_cast<float>(i);
  __syncthreads();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = buf[t % 1750];
}

// Next to nothing per block: meant for blocks of 32 or 64 threads, where the hardware's block
// limit binds.
__global__ void tiny_kernel(float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = 2.0f * t;
}

}  // namespace

std::vector<ProbeKernel> probe_kernels() {
  std::vector<ProbeKernel> k = {
      {"register_heavy<launch_bounds 256,1>",
       reinterpret_cast<const void*>(&register_heavy_kernel<1>), false},
      {"register_heavy<launch_bounds 256,3>",
       reinterpret_cast<const void*>(&register_heavy_kernel<3>), false},
      {"dynamic_smem", reinterpret_cast<const void*>(&dynamic_smem_kernel), true},
      {"static_smem (7000 bytes)", reinterpret_cast<const void*>(&static_smem_kernel), false},
      {"tiny", reinterpret_cast<const void*>(&tiny_kernel), false},
  };
  const int optin =
      static_cast<int>(course::current_device_info().limits.smem_per_block_optin_bytes);
  for (const ProbeKernel& p : k) {
    if (!p.dynamic_smem) continue;
    cudaFuncAttributes a{};
    CUDA_CHECK(cudaFuncGetAttributes(&a, p.kernel));
    CUDA_CHECK(cudaFuncSetAttribute(p.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    optin - static_cast<int>(a.sharedSizeBytes)));
  }
  return k;
}

}  // namespace probe06
