#include "common/device.hpp"

#include "common/check.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

namespace course {

DeviceInfo probe_device(int index) {
  DeviceInfo info;
  info.index = index;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    info.reason = std::string("no CUDA device (") +
                  (err != cudaSuccess ? cudaGetErrorString(err) : "the driver reports 0 devices") +
                  ")";
    return info;
  }
  if (index >= count) {
    info.reason =
        "no CUDA device " + std::to_string(index) + " (found " + std::to_string(count) + ")";
    return info;
  }
  cudaDeviceProp prop{};
  err = cudaGetDeviceProperties(&prop, index);
  if (err != cudaSuccess) {
    info.reason = std::string("no usable CUDA device (") + cudaGetErrorString(err) + ")";
    return info;
  }
  info.present = true;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.name = prop.name;
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

int require_device(int min_cc) {
  DeviceInfo info = probe_device(0);
  std::string why = device_unusable_reason(info, min_cc);
  if (!why.empty()) {
    std::fprintf(stderr, "%s\n", why.c_str());
    std::exit(info.present ? kExitDeviceTooOld : kExitNoDevice);
  }
  return info.index;
}

}  // namespace course
