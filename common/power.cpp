#include "common/power.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>

namespace course {

namespace {
// The few NVML entry points the meter uses, with their C types (nvml.h): nvmlReturn_t is an int,
// 0 is NVML_SUCCESS, nvmlDevice_t an opaque pointer, NVML_CLOCK_SM the clock type 1.
using InitFn = int (*)();
using HandleByBusIdFn = int (*)(const char*, void**);
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;
}  // namespace

PowerMeter& PowerMeter::current() {
  static PowerMeter meter;
  return meter;
}

PowerMeter::PowerMeter() {
  why_ = open();  // in the body: open() sets members that the initializers would overwrite
  ok_ = why_.empty();
  if (!ok_) std::fprintf(stderr, "note: clocks and energy not recorded: %s\n", why_.c_str());
}

std::string PowerMeter::open() {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return "NVML (libnvidia-ml.so.1, part of the driver) is not installed";
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
  auto by_bus = reinterpret_cast<HandleByBusIdFn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  clock_ = reinterpret_cast<decltype(clock_)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
  energy_ = reinterpret_cast<decltype(energy_)>(dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
  if (!init || !by_bus || !clock_ || !energy_) return "this NVML lacks a function";
  if (init() != kNvmlSuccess) return "NVML did not start (nvmlInit)";
  int device = 0;
  char bus[32] = {};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) {
    return "the CUDA device's PCI bus id is unknown";
  }
  if (by_bus(bus, &device_) != kNvmlSuccess) return "NVML does not see this GPU";
  return {};
}

std::optional<double> PowerMeter::sm_clock_mhz() {
  unsigned mhz = 0;
  if (!ok_ || clock_(device_, kNvmlClockSm, &mhz) != kNvmlSuccess) return std::nullopt;
  return static_cast<double>(mhz);
}

std::optional<double> PowerMeter::energy_j() {
  unsigned long long mj = 0;
  if (!ok_ || energy_(device_, &mj) != kNvmlSuccess) return std::nullopt;
  return static_cast<double>(mj) * 1e-3;
}

}  // namespace course
