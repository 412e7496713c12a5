#include "common/device.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

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
