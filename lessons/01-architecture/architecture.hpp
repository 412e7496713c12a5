/// \file architecture.hpp
/// \brief Lesson 01, the contract: what the driver says about a GPU (DeviceSpec), what follows
/// from it (DeviceSummary: peak FP32 rate, peak memory bandwidth, ridge point), and the four
/// functions the learner writes.
///
/// The exercise (`exercises/01-architecture/architecture.cu`) and the reference solution
/// (`solutions/01-architecture/architecture.cu`) both implement these functions; the lesson
/// program and the grader are linked against either.
///
/// Units are spelled out in every name: `_khz`, `_bits`, `_bytes`, `_tflops`, `_gbs`. Most wrong
/// peaks are unit mistakes (kHz taken for MHz, bits for bytes), so the names keep them visible.
///
/// This header is plain C++ (no CUDA types): the CPU tests include it with a host compiler.
#pragma once

#include "common/timing.hpp"

#include <cstddef>
#include <string>

namespace lesson01 {

/// What the CUDA driver reports about one GPU: the raw numbers, nothing derived.
///
/// query_device() fills it from a real device; reference_devices.hpp fills it from the published
/// specifications of three GPUs, so that summarize() can be checked without a GPU.
struct DeviceSpec {
  std::string name;                            ///< e.g. "NVIDIA H100 80GB HBM3"
  int cc_major = 0;                            ///< compute capability, major (9 for Hopper)
  int cc_minor = 0;                            ///< compute capability, minor (0 for Hopper)
  int sm_count = 0;                            ///< streaming multiprocessors (SMs) on the chip
  int warp_size = 0;                           ///< threads in a warp (32 on every NVIDIA GPU)
  int max_threads_per_sm = 0;                  ///< threads that can be resident on one SM at once
  int max_threads_per_block = 0;               ///< the largest block a kernel may be launched with
  int max_blocks_per_sm = 0;                   ///< blocks that can be resident on one SM at once
  int regs_per_sm = 0;                         ///< 32-bit registers in one SM's register file
  int regs_per_block = 0;                      ///< 32-bit registers one block may use in all
  std::size_t smem_per_sm_bytes = 0;           ///< shared memory on one SM, all blocks together
  std::size_t smem_per_block_bytes = 0;        ///< shared memory a block gets without opting in
  std::size_t smem_per_block_optin_bytes = 0;  ///< the most a block can get by opting in
  std::size_t l2_bytes = 0;                    ///< the L2 cache, shared by all SMs
  std::size_t global_mem_bytes = 0;            ///< device memory (HBM or GDDR)
  int sm_clock_khz = 0;                        ///< the SMs' peak (boost) clock, in kHz
  int mem_clock_khz = 0;                       ///< the memory's peak clock, in kHz
  int mem_bus_width_bits = 0;                  ///< width of the memory interface, in bits
};

/// What follows from a DeviceSpec: the shape of the machine and its two speed limits.
struct DeviceSummary {
  int fp32_lanes_per_sm = 0;      ///< FP32 lanes ("CUDA cores") per SM; 0 when the CC is unknown
  int fp32_lanes_total = 0;       ///< FP32 lanes on the whole chip: lanes per SM x SMs
  int max_warps_per_sm = 0;       ///< resident warps per SM: max threads per SM / warp size
  long max_resident_threads = 0;  ///< threads the whole GPU holds at once: SMs x threads per SM
  int regs_per_thread_at_full_occupancy =
      0;                           ///< registers per SM / max threads per SM (rounded down)
  double peak_fp32_tflops = 0;     ///< 2 FLOP per FMA x lanes x SM clock, in 10^12 FLOP/s
  double peak_bandwidth_gbs = 0;   ///< 2 transfers per memory clock x bus bytes, in 10^9 B/s
  double ridge_flop_per_byte = 0;  ///< peak FLOP/s / peak bytes/s: where the roofline bends
};

/// FP32 lanes per SM for a compute capability: how many fused multiply-adds (FMA) in FP32 one SM
/// completes per clock. 7.x and 8.0 have 64; 8.6, 8.7, 8.9, 9.0, 10.x, 11.x and 12.x have 128.
/// Returns 0 for a compute capability it does not know (better no answer than a guess).
int fp32_lanes_per_sm(int cc_major, int cc_minor);

/// The summary of `spec`. Pure host code, no CUDA call: it runs (and is graded) without a GPU.
/// - peak FP32 = 2 FLOP per FMA x FP32 lanes per SM x SMs x SM clock;
/// - peak bandwidth = 2 transfers per clock (double data rate) x memory clock x bus width in bytes;
/// - ridge point = peak FLOP/s / peak bytes/s (0 when the bandwidth is 0).
///
/// When fp32_lanes_per_sm() does not know the compute capability, the lane counts, the FP32 peak
/// and the ridge point are 0. Throws std::invalid_argument when `spec` has no SMs, no warp size
/// or no threads per SM (a DeviceSpec that was never filled in).
DeviceSummary summarize(const DeviceSpec& spec);

/// Asks the driver about GPU `device` (cudaGetDeviceProperties, and cudaDeviceGetAttribute for
/// the clocks, which CUDA 13 removed from cudaDeviceProp). Throws course::CudaError when the
/// device cannot be queried.
DeviceSpec query_device(int device);

/// Times a device-to-device cudaMemcpy of `bytes` bytes with course::time_gpu (`options`: warm-up,
/// repetitions) and returns the bandwidth of the median run in GB/s (10^9 bytes per second),
/// counting every byte twice: it is read once and written once. Throws std::invalid_argument
/// when `bytes` is 0, course::CudaError when the buffers do not fit.
double measure_copy_bandwidth_gbs(std::size_t bytes, const course::TimingOptions& options);

}  // namespace lesson01
