/// \file reference_devices.hpp
/// \brief Three GPUs from their published specifications, as the driver would report them: the
/// inputs of the CPU grading of summarize(), and what `lesson01` shows on a machine with no GPU.
///
/// Clocks are the peak (boost) clocks the driver reports; memory clocks are the driver's figure,
/// which counts one clock per two transfers (double data rate). Cache and shared-memory sizes are
/// in the binary units the driver uses (the "50 MB" L2 of an H100 is 50 MiB).
#pragma once

#include "architecture.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lesson01 {

/// One reference GPU: what the driver reports, and the vendor's published peaks to check against.
struct ReferenceDevice {
  std::string label;                   ///< a short name for tables, e.g. "H100 SXM5"
  DeviceSpec spec;                     ///< what cudaGetDeviceProperties would report
  double published_fp32_tflops = 0;    ///< the datasheet's FP32 (non-tensor) peak
  double published_bandwidth_gbs = 0;  ///< the datasheet's memory bandwidth
};

namespace detail {
constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * kKiB;
constexpr std::size_t kGiB = 1024 * kMiB;
}  // namespace detail

/// NVIDIA H100 SXM5 80GB (Hopper, compute capability 9.0): 132 SMs at 1980 MHz, HBM3 at
/// 2619 MHz on a 5120-bit bus, 50 MiB of L2. Datasheet: 67 TFLOP/s FP32 (66.9 unrounded), 3.35
/// TB/s.
inline ReferenceDevice h100_sxm5() {
  using namespace detail;
  DeviceSpec s;
  s.name = "NVIDIA H100 80GB HBM3";
  s.cc_major = 9;
  s.cc_minor = 0;
  s.sm_count = 132;
  s.warp_size = 32;
  s.max_threads_per_sm = 2048;
  s.max_threads_per_block = 1024;
  s.max_blocks_per_sm = 32;
  s.regs_per_sm = 65536;
  s.regs_per_block = 65536;
  s.smem_per_sm_bytes = 228 * kKiB;
  s.smem_per_block_bytes = 48 * kKiB;
  s.smem_per_block_optin_bytes = 227 * kKiB;
  s.l2_bytes = 50 * kMiB;
  s.global_mem_bytes = 80 * kGiB;
  s.sm_clock_khz = 1980000;
  s.mem_clock_khz = 2619000;
  s.mem_bus_width_bits = 5120;
  return {"H100 SXM5", s, 66.9, 3350.0};
}

/// NVIDIA A100 SXM4 40GB (Ampere, compute capability 8.0): 108 SMs at 1410 MHz, HBM2 at 1215 MHz
/// on a 5120-bit bus, 40 MiB of L2. Datasheet: 19.5 TFLOP/s FP32, 1555 GB/s.
inline ReferenceDevice a100_sxm4_40gb() {
  using namespace detail;
  DeviceSpec s;
  s.name = "NVIDIA A100-SXM4-40GB";
  s.cc_major = 8;
  s.cc_minor = 0;
  s.sm_count = 108;
  s.warp_size = 32;
  s.max_threads_per_sm = 2048;
  s.max_threads_per_block = 1024;
  s.max_blocks_per_sm = 32;
  s.regs_per_sm = 65536;
  s.regs_per_block = 65536;
  s.smem_per_sm_bytes = 164 * kKiB;
  s.smem_per_block_bytes = 48 * kKiB;
  s.smem_per_block_optin_bytes = 163 * kKiB;
  s.l2_bytes = 40 * kMiB;
  s.global_mem_bytes = 40 * kGiB;
  s.sm_clock_khz = 1410000;
  s.mem_clock_khz = 1215000;
  s.mem_bus_width_bits = 5120;
  return {"A100 SXM4 40GB", s, 19.5, 1555.0};
}

/// NVIDIA GeForce RTX 5070 Ti (Blackwell GB203, compute capability 12.0): 70 SMs at 2452 MHz,
/// GDDR7 reported at 14001 MHz on a 256-bit bus, 48 MiB of L2. Published: ~44 TFLOP/s FP32,
/// 896 GB/s.
inline ReferenceDevice rtx_5070_ti() {
  using namespace detail;
  DeviceSpec s;
  s.name = "NVIDIA GeForce RTX 5070 Ti";
  s.cc_major = 12;
  s.cc_minor = 0;
  s.sm_count = 70;
  s.warp_size = 32;
  s.max_threads_per_sm = 1536;
  s.max_threads_per_block = 1024;
  s.max_blocks_per_sm = 32;
  s.regs_per_sm = 65536;
  s.regs_per_block = 65536;
  s.smem_per_sm_bytes = 100 * kKiB;
  s.smem_per_block_bytes = 48 * kKiB;
  s.smem_per_block_optin_bytes = 99 * kKiB;
  s.l2_bytes = 48 * kMiB;
  s.global_mem_bytes = 16 * kGiB;
  s.sm_clock_khz = 2452000;
  s.mem_clock_khz = 14001000;
  s.mem_bus_width_bits = 256;
  return {"RTX 5070 Ti", s, 44.0, 896.0};
}

/// The three reference GPUs, datacenter first: H100 SXM5, A100 SXM4 40GB, RTX 5070 Ti.
inline std::vector<ReferenceDevice> reference_devices() {
  return {h100_sxm5(), a100_sxm4_40gb(), rtx_5070_ti()};
}

}  // namespace lesson01
