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
  // TODO: return the number of FP32 lanes ("CUDA cores") in one SM of compute capability
  //       cc_major.cc_minor. Each lane completes one FP32 fused multiply-add per clock.
  //       The chapter ("Inside one SM") and architecture.hpp list them: 7.x, 8.0,
  //       8.6/8.7/8.9, 9.0, 10.x, 11.x, 12.x.
  //       Careful: 8.0 and 8.6 are both "Ampere" and differ. Return 0 for any other CC.
  course::not_implemented("fp32_lanes_per_sm (exercises/01-architecture/architecture.cu)");
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
  // TODO: fill in every field of `s` from `spec` (see DeviceSummary in architecture.hpp):
  //       - the shape: FP32 lanes per SM (task 1) and on the whole chip, warps per SM, threads
  //         resident on the whole GPU, registers per thread when an SM is full of threads;
  //       - peak FP32 in TFLOP/s: 2 FLOP per FMA x lanes x SM clock (the clock is in kHz!);
  //       - peak bandwidth in GB/s: 2 transfers per memory clock x bus width in BYTES;
  //       - the ridge point: peak FLOP/s divided by peak bytes/s (0 if the bandwidth is 0).
  course::not_implemented("summarize (exercises/01-architecture/architecture.cu)");
  // END EXERCISE
  return s;
}

// Task 3. Ask the driver.
DeviceSpec query_device(int device) {
  DeviceSpec spec;
  // BEGIN EXERCISE: query_device
  // TODO: fill in every field of `spec` for GPU `device`. cudaGetDeviceProperties gives most
  //       of them in a cudaDeviceProp; the two clocks are not in it any more (CUDA 13): ask
  //       cudaDeviceGetAttribute for cudaDevAttrClockRate and cudaDevAttrMemoryClockRate (kHz).
  //       Wrap every CUDA call in CUDA_CHECK(...).
  course::not_implemented("query_device (exercises/01-architecture/architecture.cu)");
  // END EXERCISE
  return spec;
}

// Task 4. Measure what the memory really delivers.
double measure_copy_bandwidth_gbs(std::size_t bytes, const course::TimingOptions& options) {
  if (bytes == 0) throw std::invalid_argument("measure_copy_bandwidth_gbs: bytes must be positive");
  // BEGIN EXERCISE: measure_copy_bandwidth_gbs
  // TODO: allocate two device buffers of `bytes` bytes (course::DeviceBuffer), time a
  //       device-to-device cudaMemcpyAsync between them with course::time_gpu(work, options),
  //       and return the GB/s of the median run. How many bytes does a copy move?
  course::not_implemented("measure_copy_bandwidth_gbs (exercises/01-architecture/architecture.cu)");
  // END EXERCISE
}

}  // namespace lesson01
