// Lesson 01: what is on my GPU. The four functions declared in architecture.hpp.
//
// exercises/01-architecture/ holds your copy: fill in each region between `// BEGIN EXERCISE`
// and `// END EXERCISE`; everything outside the regions is given and the same as in the
// reference solution (solutions/01-architecture/). `make grade-1` checks your work,
// `make hint-1` gives a hint when you are stuck.
#include "architecture.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/timing.hpp"
#include "common/todo.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

namespace lesson01 {

// Task 1. One SM completes one FP32 fused multiply-add per lane per clock; how many lanes it has
// depends on the architecture, i.e. on the compute capability.
int fp32_lanes_per_sm(int cc_major, int cc_minor) {
  // BEGIN EXERCISE: fp32_lanes_per_sm
  //! [lanes]
  switch (cc_major) {
    case 7:  // Volta and Turing: 4 partitions x 16 lanes
      return 64;
    case 8:  // the A100 (8.0) kept 64; GA10x (8.6), Orin (8.7) and Ada (8.9) doubled them
      return cc_minor == 0 ? 64 : 128;
    case 9:   // Hopper
    case 10:  // Blackwell, datacenter (B200, B300)
    case 11:  // Thor
    case 12:  // Blackwell, consumer and workstation (RTX 50, GB10)
      return 128;
    default:  // an architecture this table does not know: no guess
      return 0;
  }
  //! [lanes]
  // END EXERCISE
}

// Task 2. From the raw numbers to the machine's shape and its two speed limits.
DeviceSummary summarize(const DeviceSpec& spec) {
  if (spec.sm_count <= 0 || spec.warp_size <= 0 || spec.max_threads_per_sm <= 0) {
    throw std::invalid_argument(
        "summarize: the DeviceSpec has no SMs, warp size or threads per SM "
        "(was it filled in?)");
  }
  DeviceSummary s;
  // BEGIN EXERCISE: summarize
  //! [shape]
  s.fp32_lanes_per_sm = fp32_lanes_per_sm(spec.cc_major, spec.cc_minor);
  s.fp32_lanes_total = s.fp32_lanes_per_sm * spec.sm_count;
  s.max_warps_per_sm = spec.max_threads_per_sm / spec.warp_size;
  s.max_resident_threads = static_cast<long>(spec.sm_count) * spec.max_threads_per_sm;
  s.regs_per_thread_at_full_occupancy = spec.regs_per_sm / spec.max_threads_per_sm;
  //! [shape]
  //! [peaks]
  const double sm_clock_hz = spec.sm_clock_khz * 1e3;
  const double peak_flops = 2.0 * s.fp32_lanes_total * sm_clock_hz;  // an FMA is 2 FLOP

  const double mem_clock_hz = spec.mem_clock_khz * 1e3;
  const double bus_bytes = spec.mem_bus_width_bits / 8.0;
  const double peak_bytes_per_s = 2.0 * mem_clock_hz * bus_bytes;  // 2 transfers per clock (DDR)

  s.peak_fp32_tflops = peak_flops / 1e12;
  s.peak_bandwidth_gbs = peak_bytes_per_s / 1e9;
  s.ridge_flop_per_byte = peak_bytes_per_s > 0 ? peak_flops / peak_bytes_per_s : 0.0;
  //! [peaks]
  // END EXERCISE
  return s;
}

// Task 3. Ask the driver.
DeviceSpec query_device(int device) {
  DeviceSpec spec;
  // BEGIN EXERCISE: query_device
  //! [query]
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  spec.name = prop.name;
  spec.cc_major = prop.major;
  spec.cc_minor = prop.minor;
  spec.sm_count = prop.multiProcessorCount;
  spec.warp_size = prop.warpSize;
  spec.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  spec.max_threads_per_block = prop.maxThreadsPerBlock;
  spec.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  spec.regs_per_sm = prop.regsPerMultiprocessor;
  spec.regs_per_block = prop.regsPerBlock;
  spec.smem_per_sm_bytes = prop.sharedMemPerMultiprocessor;
  spec.smem_per_block_bytes = prop.sharedMemPerBlock;
  spec.smem_per_block_optin_bytes = prop.sharedMemPerBlockOptin;
  spec.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  spec.global_mem_bytes = prop.totalGlobalMem;
  spec.mem_bus_width_bits = prop.memoryBusWidth;
  // CUDA 13 removed clockRate and memoryClockRate from cudaDeviceProp: they are attributes now.
  CUDA_CHECK(cudaDeviceGetAttribute(&spec.sm_clock_khz, cudaDevAttrClockRate, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&spec.mem_clock_khz, cudaDevAttrMemoryClockRate, device));
  //! [query]
  // END EXERCISE
  return spec;
}

// Task 4. Measure what the memory really delivers.
double measure_copy_bandwidth_gbs(std::size_t bytes, const course::TimingOptions& options) {
  if (bytes == 0) throw std::invalid_argument("measure_copy_bandwidth_gbs: bytes must be positive");
  // BEGIN EXERCISE: measure_copy_bandwidth_gbs
  //! [copy]
  course::DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  src.fill_bytes(0x5a);  // touch both buffers once, outside the timing
  dst.fill_bytes(0);
  const course::TimingStats t = course::time_gpu(
      [&] {
        CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, 0));
      },
      options);
  // Every byte crosses the memory interface twice: read from src, written to dst.
  return course::gbps(2.0 * static_cast<double>(bytes), t.median_ms);
  //! [copy]
  // END EXERCISE
}

}  // namespace lesson01
