#include "common/reference_gpus.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace course {

namespace {
constexpr std::size_t kKiB = 1024;
}  // namespace

// Sources: the CUDA C++ Programming Guide, "Technical Specifications per Compute Capability"
// (threads, blocks and registers per SM and per block, shared memory per SM and per block), and
// NVIDIA's tuning guides (Turing, Ampere, Ada, Hopper, Blackwell: the shared memory an SM can have
// and a block can opt in to; from 8.0 on, the driver keeps 1 KiB of every block's for itself,
// cudaDevAttrReservedSharedMemoryPerBlock). The Blackwell tuning guide gives 12.0 its 32 blocks
// and 99 KiB per block; the driver of a GeForce RTX 50 reports 1536 threads and 100 KiB per SM.
DeviceLimits limits_for_compute_capability(int cc) {
  DeviceLimits l;
  l.cc_major = cc / 10;
  l.cc_minor = cc % 10;
  l.warp_size = 32;
  l.max_threads_per_block = 1024;
  l.regs_per_sm = 65536;
  l.regs_per_block = 65536;
  l.max_regs_per_thread = 255;
  l.smem_per_block_bytes = 48 * kKiB;
  l.smem_reserved_per_block_bytes = 1 * kKiB;
  switch (cc) {
    case 75:  // Turing: half the threads of an SM, 64 KiB of shared memory, no reserve
      l.max_threads_per_sm = 1024;
      l.max_blocks_per_sm = 16;
      l.smem_per_sm_bytes = 64 * kKiB;
      l.smem_per_block_optin_bytes = 64 * kKiB;
      l.smem_reserved_per_block_bytes = 0;
      break;
    case 80:  // A100
      l.max_threads_per_sm = 2048;
      l.max_blocks_per_sm = 32;
      l.smem_per_sm_bytes = 164 * kKiB;
      l.smem_per_block_optin_bytes = 163 * kKiB;
      break;
    case 86:  // GA10x: RTX 30, A10, A40
      l.max_threads_per_sm = 1536;
      l.max_blocks_per_sm = 16;
      l.smem_per_sm_bytes = 100 * kKiB;
      l.smem_per_block_optin_bytes = 99 * kKiB;
      break;
    case 89:  // Ada: RTX 40, L4, L40
      l.max_threads_per_sm = 1536;
      l.max_blocks_per_sm = 24;
      l.smem_per_sm_bytes = 100 * kKiB;
      l.smem_per_block_optin_bytes = 99 * kKiB;
      break;
    case 90:  // Hopper: H100, H200
      l.max_threads_per_sm = 2048;
      l.max_blocks_per_sm = 32;
      l.smem_per_sm_bytes = 228 * kKiB;
      l.smem_per_block_optin_bytes = 227 * kKiB;
      break;
    case 120:  // Blackwell, GeForce RTX 50
      l.max_threads_per_sm = 1536;
      l.max_blocks_per_sm = 32;
      l.smem_per_sm_bytes = 100 * kKiB;
      l.smem_per_block_optin_bytes = 99 * kKiB;
      break;
    default:
      throw std::invalid_argument("limits_for_compute_capability: compute capability " +
                                  cc_string(cc) +
                                  " is not in the table (7.5, 8.0, 8.6, 8.9, 9.0, 12.0)");
  }
  return l;
}

namespace {

ReferenceGpu gpu(const char* label, const char* name, int cc, int sm_count) {
  ReferenceGpu g{label, name, limits_for_compute_capability(cc)};
  g.limits.sm_count = sm_count;
  return g;
}

}  // namespace

// The SMs of each: NVIDIA's whitepapers and datasheets (Turing, A100, GA102, AD102, GB203, H100,
// H200).
const std::vector<ReferenceGpu>& reference_gpus() {
  static const std::vector<ReferenceGpu> gpus = {
      gpu("T4", "Tesla T4", 75, 40),
      gpu("A100 SXM4 40GB", "NVIDIA A100-SXM4-40GB", 80, 108),
      gpu("RTX 3090", "NVIDIA GeForce RTX 3090", 86, 82),
      gpu("RTX 4090", "NVIDIA GeForce RTX 4090", 89, 128),
      gpu("RTX 5070 Ti", "NVIDIA GeForce RTX 5070 Ti", 120, 70),
      gpu("H100 SXM5", "NVIDIA H100 80GB HBM3", 90, 132),
      gpu("H200 SXM", "NVIDIA H200", 90, 132),
  };
  return gpus;
}

const ReferenceGpu& reference_gpu(const std::string& label) {
  for (const ReferenceGpu& g : reference_gpus()) {
    if (g.label == label) return g;
  }
  throw std::invalid_argument("reference_gpu: no reference GPU is labelled '" + label + "'");
}

}  // namespace course
