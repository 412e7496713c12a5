/// \file reference_devices.hpp
/// \brief Three GPUs from their published specifications, as the driver would report them: the
/// inputs of the CPU grading of summarize(), and what `lesson01` shows on a machine with no GPU.
///
/// Their names, compute capabilities, SMs and launch limits are the course's reference GPUs'
/// (common/reference_gpus.hpp); this file adds what lesson 01 summarizes besides: memory, caches,
/// clocks and the datasheets' peaks. Clocks are the peak (boost) clocks the driver reports; memory
/// clocks are the driver's figure, which counts one clock per two transfers (double data rate).
/// Cache and shared-memory sizes are in the binary units the driver uses (the "50 MB" L2 of an H100
/// is 50 MiB).
#pragma once

#include "architecture.hpp"

#include "common/reference_gpus.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lesson01 {

/// How far a summary's peak FP32 and peak bandwidth may be from a reference GPU's datasheet,
/// relative (0.5%: datasheets round to three figures). The grader and the lesson program both hold
/// summarize() to it.
constexpr double kDatasheetTolerance = 0.005;

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

/// A DeviceSpec with what the course's table has of reference GPU `label`: its name, compute
/// capability, SMs, threads, blocks, registers and shared memory.
inline DeviceSpec spec_of(const std::string& label) {
  const course::ReferenceGpu& gpu = course::reference_gpu(label);
  const course::DeviceLimits& l = gpu.limits;
  DeviceSpec s;
  s.name = gpu.name;
  s.cc_major = l.cc_major;
  s.cc_minor = l.cc_minor;
  s.sm_count = l.sm_count;
  s.warp_size = l.warp_size;
  s.max_threads_per_sm = l.max_threads_per_sm;
  s.max_threads_per_block = l.max_threads_per_block;
  s.max_blocks_per_sm = l.max_blocks_per_sm;
  s.regs_per_sm = l.regs_per_sm;
  s.regs_per_block = l.regs_per_block;
  s.smem_per_sm_bytes = l.smem_per_sm_bytes;
  s.smem_per_block_bytes = l.smem_per_block_bytes;
  s.smem_per_block_optin_bytes = l.smem_per_block_optin_bytes;
  return s;
}
}  // namespace detail

/// NVIDIA H100 SXM5 80GB (Hopper, compute capability 9.0): 132 SMs at 1980 MHz, HBM3 at
/// 2619 MHz on a 5120-bit bus, 50 MiB of L2. Datasheet: 67 TFLOP/s FP32 (66.9 unrounded), 3.35
/// TB/s.
inline ReferenceDevice h100_sxm5() {
  using namespace detail;
  DeviceSpec s = spec_of("H100 SXM5");
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
  DeviceSpec s = spec_of("A100 SXM4 40GB");
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
  DeviceSpec s = spec_of("RTX 5070 Ti");
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
