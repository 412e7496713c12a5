#include "common/variants.hpp"

#include "common/check.hpp"
#include "common/device.hpp"
#include "common/fit.hpp"

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace course {

void allow_dynamic_shared_memory(const void* kernel, std::size_t bytes) {
  if (bytes <= 48 * 1024) return;
  const DeviceInfo& gpu = current_device_info();
  if (const Fit f = fits_shared_memory(bytes, gpu.limits); !f) {
    throw std::runtime_error(f.why + " (" + gpu.name + ")");
  }
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, std::size_t> allowed;  // (kernel, device) -> bytes
  const int device = current_device_info().index;
  std::lock_guard<std::mutex> lock(mutex);
  std::size_t& now = allowed[{kernel, device}];
  if (now < bytes) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    now = bytes;
  }
}

int occupancy_blocks_per_sm(const VariantInfo& v) {
  allow_dynamic_shared_memory(v.kernel, v.smem_bytes);
  int blocks = 0;
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, v.kernel, v.threads, v.smem_bytes));
  return blocks;
}

KernelAttributes kernel_attributes(const void* kernel) {
  cudaFuncAttributes a{};
  CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  KernelAttributes k;
  k.regs = a.numRegs;
  k.local_bytes = a.localSizeBytes;
  k.static_smem = a.sharedSizeBytes;
  k.max_threads_per_block = a.maxThreadsPerBlock;
  return k;
}

}  // namespace course
