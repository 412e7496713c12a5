// Grader of lesson 01: the device summary, the query and the copy measurement.
//
// [cpu] tests check summarize() against the published specifications of three GPUs; they never
// touch the CUDA runtime. [gpu] tests check query_device() against the driver and the computed
// peaks against what the GPU really does. These are consistency checks of the formulas, never
// speed targets: no test asks for a minimum speed.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "architecture.hpp"
#include "reference_devices.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/random.hpp"
#include "common/timing.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace {

using lesson01::DeviceSpec;
using lesson01::DeviceSummary;

// |got / expected - 1|, the relative error.
double rel_err(double got, double expected) {
  return std::fabs(got / expected - 1.0);
}

// When a peak is off, the ratio usually names the mistake. Returns a hint, or "".
std::string diagnose(double got, double expected) {
  if (!(got > 0) || !(expected > 0)) return "the value is zero, negative or NaN";
  const double r = got / expected;
  auto near = [r](double f) { return std::fabs(r / f - 1.0) < 0.02; };
  if (near(2.0) || near(0.5))
    return "off by 2: a missing or extra factor 2 (FMA = 2 FLOP, DDR = 2 transfers per clock)";
  if (near(8.0) || near(0.125))
    return "off by 8: bits and bytes mixed up (the bus width is in bits)";
  if (near(1000.0) || near(0.001) || near(1e6) || near(1e-6))
    return "off by a power of 1000: the clocks are in kHz";
  if (near(4.0) || near(0.25) || near(16.0) || near(0.0625))
    return "off by a power of 2: check each factor 2 and the bits/bytes";
  return "";
}

}  // namespace

TEST_CASE("fp32_lanes_per_sm knows the FP32 lanes of each architecture", "[cpu][task_1]") {
  struct Case {
    int major, minor, lanes;
    const char* what;
  };
  const std::vector<Case> cases = {
      {7, 0, 64, "Volta V100"},
      {7, 5, 64, "Turing"},
      {8, 0, 64, "Ampere A100"},
      {8, 6, 128, "Ampere GA10x"},
      {8, 7, 128, "Orin"},
      {8, 9, 128, "Ada"},
      {9, 0, 128, "Hopper H100"},
      {10, 0, 128, "Blackwell B200"},
      {12, 0, 128, "Blackwell RTX 50"},
      {1, 0, 0, "an unknown CC (expect 0)"},
      {99, 0, 0, "an unknown CC (expect 0)"},
  };
  for (const Case& c : cases) {
    INFO("compute capability " << c.major << "." << c.minor << " (" << c.what << ") should have "
                               << c.lanes << " FP32 lanes per SM");
    CHECK(lesson01::fp32_lanes_per_sm(c.major, c.minor) == c.lanes);
  }
}

TEST_CASE("summarize reproduces the published peaks of the reference GPUs", "[cpu][task_2]") {
  for (const auto& ref : lesson01::reference_devices()) {
    const DeviceSummary s = lesson01::summarize(ref.spec);
    SECTION(ref.label) {
      const DeviceSpec& d = ref.spec;
      INFO(ref.label << ": " << d.sm_count << " SMs, SM clock " << d.sm_clock_khz
                     << " kHz, memory clock " << d.mem_clock_khz << " kHz, " << d.mem_bus_width_bits
                     << "-bit bus");
      {
        INFO(
            "peak FP32: 2 FLOP per FMA x FP32 lanes per SM x SMs x SM clock, in TFLOP/s; "
            "published "
            << ref.published_fp32_tflops << ", computed " << s.peak_fp32_tflops
            << " (tolerance 0.5%). " << diagnose(s.peak_fp32_tflops, ref.published_fp32_tflops));
        CHECK(rel_err(s.peak_fp32_tflops, ref.published_fp32_tflops) <=
              lesson01::kDatasheetTolerance);
      }
      {
        INFO(
            "peak bandwidth: 2 transfers per memory clock x bus width in bytes, in GB/s; "
            "published "
            << ref.published_bandwidth_gbs << ", computed " << s.peak_bandwidth_gbs
            << " (tolerance 0.5%). "
            << diagnose(s.peak_bandwidth_gbs, ref.published_bandwidth_gbs));
        CHECK(rel_err(s.peak_bandwidth_gbs, ref.published_bandwidth_gbs) <=
              lesson01::kDatasheetTolerance);
      }
      {
        const double published_ridge =
            ref.published_fp32_tflops * 1e12 / (ref.published_bandwidth_gbs * 1e9);
        INFO("ridge point: peak FLOP/s / peak bytes/s; from the published figures "
             << published_ridge << " FLOP/byte, computed " << s.ridge_flop_per_byte
             << " (tolerance 1%). " << diagnose(s.ridge_flop_per_byte, published_ridge));
        CHECK(rel_err(s.ridge_flop_per_byte, published_ridge) <= 0.01);
      }
    }
  }
}

TEST_CASE("summarize gets each unit right on a made-up GPU", "[cpu][task_2]") {
  // Round numbers, so every factor is visible: 2 SMs of CC 8.6 (128 lanes) at 1 GHz, memory
  // clock 1 GHz on a 64-bit (8-byte) bus.
  DeviceSpec d;
  d.name = "toy";
  d.cc_major = 8;
  d.cc_minor = 6;
  d.sm_count = 2;
  d.warp_size = 32;
  d.max_threads_per_sm = 1536;
  d.max_threads_per_block = 1024;
  d.max_blocks_per_sm = 16;
  d.regs_per_sm = 65536;
  d.regs_per_block = 65536;
  d.sm_clock_khz = 1000000;
  d.mem_clock_khz = 1000000;
  d.mem_bus_width_bits = 64;
  const DeviceSummary s = lesson01::summarize(d);
  {
    INFO("2 FLOP x 128 lanes x 2 SMs x 10^9 Hz = 0.512 TFLOP/s; got "
         << s.peak_fp32_tflops << ". " << diagnose(s.peak_fp32_tflops, 0.512));
    CHECK(rel_err(s.peak_fp32_tflops, 0.512) < 1e-9);
  }
  {
    INFO("2 transfers x 10^9 Hz x 8 bytes = 16 GB/s; got " << s.peak_bandwidth_gbs << ". "
                                                           << diagnose(s.peak_bandwidth_gbs, 16.0));
    CHECK(rel_err(s.peak_bandwidth_gbs, 16.0) < 1e-9);
  }
  {
    INFO("0.512e12 FLOP/s / 16e9 B/s = 32 FLOP/byte; got "
         << s.ridge_flop_per_byte << ". " << diagnose(s.ridge_flop_per_byte, 32.0));
    CHECK(rel_err(s.ridge_flop_per_byte, 32.0) < 1e-9);
  }
  INFO("1536 threads per SM / 32 threads per warp = 48 warps; 65536 registers / 1536 threads = 42");
  CHECK(s.max_warps_per_sm == 48);
  CHECK(s.regs_per_thread_at_full_occupancy == 42);
}

TEST_CASE("the summary's fields agree with each other", "[cpu][task_2]") {
  for (const auto& ref : lesson01::reference_devices()) {
    const DeviceSpec& d = ref.spec;
    const DeviceSummary s = lesson01::summarize(d);
    INFO(ref.label << " (CC " << d.cc_major << "." << d.cc_minor << ")");
    CHECK(s.fp32_lanes_per_sm == lesson01::fp32_lanes_per_sm(d.cc_major, d.cc_minor));
    {
      INFO("FP32 lanes in all = lanes per SM x SMs");
      CHECK(s.fp32_lanes_total == s.fp32_lanes_per_sm * d.sm_count);
    }
    {
      INFO("warps per SM = max threads per SM / warp size");
      CHECK(s.max_warps_per_sm == d.max_threads_per_sm / d.warp_size);
    }
    {
      INFO("threads resident at once = SMs x max threads per SM");
      CHECK(s.max_resident_threads == static_cast<long>(d.sm_count) * d.max_threads_per_sm);
    }
    {
      INFO("registers per thread with a full SM = registers per SM / max threads per SM");
      CHECK(s.regs_per_thread_at_full_occupancy == d.regs_per_sm / d.max_threads_per_sm);
    }
    {
      INFO("ridge point = (peak TFLOP/s x 10^12) / (peak GB/s x 10^9): the units must cancel");
      const double ridge = s.peak_fp32_tflops * 1e12 / (s.peak_bandwidth_gbs * 1e9);
      CHECK(rel_err(s.ridge_flop_per_byte, ridge) < 1e-9);
    }
  }
}

TEST_CASE("summarize does not guess the peak of an unknown architecture", "[cpu][task_2]") {
  DeviceSpec d = lesson01::h100_sxm5().spec;
  d.cc_major = 1;  // no such GPU: fp32_lanes_per_sm answers 0
  const DeviceSummary s = lesson01::summarize(d);
  INFO(
      "with 0 FP32 lanes the FP32 peak and the ridge point are 0 (unknown), not NaN or a guess; "
      "the bandwidth does not depend on the lanes");
  CHECK(s.fp32_lanes_per_sm == 0);
  CHECK(s.peak_fp32_tflops == 0.0);
  CHECK(s.ridge_flop_per_byte == 0.0);
  CHECK(rel_err(s.peak_bandwidth_gbs, 3352.32) < 1e-9);
}

// ---- GPU --------------------------------------------------------------------------------------

TEST_CASE("query_device reports what the driver reports", "[gpu][task_3]") {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const DeviceSpec d = lesson01::query_device(dev);
  auto attr = [dev](cudaDeviceAttr a) { return course_test::device_attribute(dev, a); };
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  INFO("query_device(" << dev << ").name is \"" << d.name << "\", the driver says \"" << prop.name
                       << "\" (cudaDeviceProp::name)");
  CHECK(d.name == std::string(prop.name));
  // Each field against the attribute that holds it, with a sentence that names both.
  auto same = [&](const char* field, long long got, cudaDeviceAttr a, const char* attribute) {
    INFO("query_device(" << dev << ")." << field << " is " << got << ", the driver says " << attr(a)
                         << " (" << attribute << ")"
                         << (got * 1000 == attr(a) || got == attr(a) * 1000
                                 ? ": a factor of 1000, the clocks are in kHz"
                                 : ""));
    CHECK(got == attr(a));
  };
  same("cc_major", d.cc_major, cudaDevAttrComputeCapabilityMajor,
       "cudaDevAttrComputeCapabilityMajor");
  same("cc_minor", d.cc_minor, cudaDevAttrComputeCapabilityMinor,
       "cudaDevAttrComputeCapabilityMinor");
  same("sm_count", d.sm_count, cudaDevAttrMultiProcessorCount, "cudaDevAttrMultiProcessorCount");
  same("warp_size", d.warp_size, cudaDevAttrWarpSize, "cudaDevAttrWarpSize");
  same("max_threads_per_sm", d.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
       "cudaDevAttrMaxThreadsPerMultiProcessor");
  same("max_threads_per_block", d.max_threads_per_block, cudaDevAttrMaxThreadsPerBlock,
       "cudaDevAttrMaxThreadsPerBlock");
  same("max_blocks_per_sm", d.max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor,
       "cudaDevAttrMaxBlocksPerMultiprocessor");
  same("regs_per_sm", d.regs_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor,
       "cudaDevAttrMaxRegistersPerMultiprocessor");
  same("regs_per_block", d.regs_per_block, cudaDevAttrMaxRegistersPerBlock,
       "cudaDevAttrMaxRegistersPerBlock");
  same("smem_per_sm_bytes", static_cast<long long>(d.smem_per_sm_bytes),
       cudaDevAttrMaxSharedMemoryPerMultiprocessor, "cudaDevAttrMaxSharedMemoryPerMultiprocessor");
  same("smem_per_block_bytes", static_cast<long long>(d.smem_per_block_bytes),
       cudaDevAttrMaxSharedMemoryPerBlock, "cudaDevAttrMaxSharedMemoryPerBlock");
  same("smem_per_block_optin_bytes", static_cast<long long>(d.smem_per_block_optin_bytes),
       cudaDevAttrMaxSharedMemoryPerBlockOptin, "cudaDevAttrMaxSharedMemoryPerBlockOptin");
  same("l2_bytes", static_cast<long long>(d.l2_bytes), cudaDevAttrL2CacheSize,
       "cudaDevAttrL2CacheSize");
  {
    INFO("query_device(" << dev << ").global_mem_bytes is " << d.global_mem_bytes
                         << ", the driver says " << prop.totalGlobalMem
                         << " (cudaDeviceProp::totalGlobalMem, in bytes)");
    CHECK(d.global_mem_bytes == prop.totalGlobalMem);
  }
  same("sm_clock_khz", d.sm_clock_khz, cudaDevAttrClockRate, "cudaDevAttrClockRate, in kHz");
  same("mem_clock_khz", d.mem_clock_khz, cudaDevAttrMemoryClockRate,
       "cudaDevAttrMemoryClockRate, in kHz");
  same("mem_bus_width_bits", d.mem_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth,
       "cudaDevAttrGlobalMemoryBusWidth");
}

TEST_CASE("this GPU's architecture is in the FP32 lanes table", "[gpu][task_1]") {
  const course::DeviceLimits& limits = course::current_device_info().limits;
  const int major = limits.cc_major, minor = limits.cc_minor;
  INFO("compute capability " << major << "." << minor
                             << " is missing from fp32_lanes_per_sm: the FP32 peak is unknown");
  CHECK(lesson01::fp32_lanes_per_sm(major, minor) > 0);
}

TEST_CASE("a device-to-device copy stays below the computed peak bandwidth", "[gpu][task_4]") {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const DeviceSpec d = lesson01::query_device(dev);
  const DeviceSummary s = lesson01::summarize(d);
  // Source and destination together many times the L2, so the copy measures the DRAM, not the
  // cache.
  const std::size_t bytes = std::max<std::size_t>(std::size_t{512} << 20, 8 * d.l2_bytes);
  course::TimingOptions opt;
  opt.reps = 10;
  const double gbs = lesson01::measure_copy_bandwidth_gbs(bytes, opt);
  INFO(d.name << ": copied " << (bytes >> 20) << " MiB at " << gbs
              << " GB/s (bytes read + written); "
              << "computed peak " << s.peak_bandwidth_gbs << " GB/s");
  CHECK(gbs > 0);
  {
    INFO(
        "a copy cannot beat the peak bandwidth: if it does, the bandwidth formula in summarize() "
        "is wrong (2 transfers per clock x bus bytes?), or the copy counts its bytes wrongly "
        "(read + written = 2 x bytes)");
    CHECK(gbs <= s.peak_bandwidth_gbs);
  }
  CHECK_THROWS(lesson01::measure_copy_bandwidth_gbs(0, opt));
}

TEST_CASE("cuBLAS SGEMM stays below the computed FP32 peak", "[gpu][task_2]") {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const DeviceSummary s = lesson01::summarize(lesson01::query_device(dev));
  REQUIRE(s.peak_fp32_tflops > 0);
  const int n = 4096;
  course::DeviceBuffer<float> A(course::random_matrix(n, n, course::derive_seed("lesson01 A")));
  course::DeviceBuffer<float> B(course::random_matrix(n, n, course::derive_seed("lesson01 B")));
  course::DeviceBuffer<float> C(static_cast<std::size_t>(n) * n);
  course::CublasHandle cublas;
  course::TimingOptions opt;
  opt.reps = 10;
  const course::TimingStats t = course::time_gpu(
      [&] { course::cublas_gemm(cublas.get(), n, n, n, 1.0f, A.data(), B.data(), 0.0f, C.data()); },
      opt);
  const double tf = course::tflops(course::gemm_flops(n, n, n), t.median_ms);
  INFO("cuBLAS SGEMM "
       << n << "^3: " << tf << " TFLOP/s; computed FP32 peak " << s.peak_fp32_tflops
       << " TFLOP/s. Nothing in FP32 beats the peak: if it does, the FP32 formula in "
          "summarize() is wrong (2 FLOP per FMA x lanes x SMs x clock?)");
  CHECK(tf > 0);
  CHECK(tf <= s.peak_fp32_tflops);
}
