#include "common/device.hpp"

#include "common/check.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>

namespace course {

namespace {

// "13.0" for 13000: the CUDA version numbers the runtime reports.
std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

DeviceInfo probe_device(int index) {
  DeviceInfo info;
  info.index = index;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the error so that later calls start clean
    // The runtime says "driver version is insufficient" both when the driver is too old and
    // when there is none at all; the driver's version tells the two apart (0: not installed).
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    if (driver == 0) {
      info.why_not = NoDevice::kNoDriver;
      info.reason = "no GPU here: no NVIDIA driver is installed";
    } else if (err == cudaErrorInsufficientDriver && driver < runtime) {
      info.why_not = NoDevice::kDriverTooOld;
      info.reason = "the NVIDIA driver supports CUDA " + cuda_version_string(driver) +
                    ", older than the CUDA " + cuda_version_string(runtime) +
                    " toolkit the course was built with: update the driver (or build with an "
                    "older toolkit)";
    } else if (err == cudaErrorNoDevice || count == 0) {
      info.why_not = NoDevice::kNoGpu;
      info.reason = "no GPU here: the NVIDIA driver (CUDA " + cuda_version_string(driver) +
                    ") finds no CUDA device";
    } else {
      info.why_not = NoDevice::kOther;
      info.reason = std::string("no usable GPU: ") + cudaGetErrorString(err);
    }
    return info;
  }
  if (index >= count) {
    info.why_not = NoDevice::kOther;
    info.reason =
        "no CUDA device " + std::to_string(index) + " (found " + std::to_string(count) + ")";
    return info;
  }
  cudaDeviceProp prop{};
  const cudaError_t prop_err = cudaGetDeviceProperties(&prop, index);
  if (prop_err != cudaSuccess) {
    cudaGetLastError();
    info.why_not = NoDevice::kOther;
    info.reason = std::string("no usable GPU: ") + cudaGetErrorString(prop_err);
    return info;
  }
  info.present = true;
  info.name = prop.name;
  DeviceLimits& l = info.limits;
  l.cc_major = prop.major;
  l.cc_minor = prop.minor;
  l.sm_count = prop.multiProcessorCount;
  l.warp_size = prop.warpSize;
  l.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  l.max_threads_per_block = prop.maxThreadsPerBlock;
  l.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  l.regs_per_sm = prop.regsPerMultiprocessor;
  l.regs_per_block = prop.regsPerBlock;
  // No property or attribute reports it: 255 on every compute capability the course runs on (the
  // CUDA C++ Programming Guide's table of technical specifications).
  l.max_regs_per_thread = 255;
  l.smem_per_sm_bytes = prop.sharedMemPerMultiprocessor;
  l.smem_per_block_bytes = prop.sharedMemPerBlock;
  l.smem_per_block_optin_bytes = prop.sharedMemPerBlockOptin;
  l.smem_reserved_per_block_bytes = prop.reservedSharedMemPerBlock;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  // Not in cudaDeviceProp since CUDA 13: the clock is an attribute of its own.
  if (cudaDeviceGetAttribute(&info.sm_clock_khz, cudaDevAttrClockRate, index) != cudaSuccess) {
    cudaGetLastError();
    info.sm_clock_khz = 0;
  }
  return info;
}

std::string cc_string(int cc) {
  return std::to_string(cc / 10) + "." + std::to_string(cc % 10);
}

std::string device_unusable_reason(const DeviceInfo& info, int min_cc) {
  if (!info.present) return info.reason;
  if (info.cc() < min_cc) {
    return "needs compute capability " + cc_string(min_cc) + ", found " + cc_string(info.cc()) +
           " (" + info.name + ")";
  }
  return "";
}

const DeviceInfo& current_device_info() {
  static std::mutex mutex;
  static std::map<int, DeviceInfo> probed;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  auto it = probed.find(device);
  if (it == probed.end()) it = probed.emplace(device, probe_device(device)).first;
  return it->second;
}

void require_compute_capability(const std::string& kernel, int min_cc, const std::string& what) {
  if (std::string why = device_unusable_reason(current_device_info(), min_cc); !why.empty()) {
    throw std::runtime_error(kernel + " (" + what + ") " + why);
  }
}

std::string what_still_runs(const DeviceInfo& info, int min_cc) {
  if (device_unusable_reason(info, min_cc).empty()) return "";
  if (!info.present) {
    return "what runs here without a GPU: the CPU half of every grader (make grade), lesson 01's "
           "reference devices, lesson 02's emulated launch, and the book (make book)";
  }
  return "on this GPU: the lessons that need compute capability " + cc_string(info.cc()) +
         " or less run, and this lesson's CPU part still grades (make grade)";
}

int no_usable_device(const LessonId& lesson, const DeviceInfo& info) {
  std::fflush(stdout);  // what the program printed before comes first
  std::fprintf(stderr, "lesson %s's program needs a GPU to run its kernels (%s).\n%s.\n",
               lesson.id.c_str(), device_unusable_reason(info, lesson.min_cc).c_str(),
               what_still_runs(info, lesson.min_cc).c_str());
  return info.present ? kExitDeviceTooOld : kExitNoDevice;
}

}  // namespace course
