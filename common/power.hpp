/// \file power.hpp
/// \brief The GPU's clocks and energy, read through NVML, for the timing routine.
///
/// NVML, the library `nvidia-smi` is built on, comes with the driver (libnvidia-ml.so.1), not with
/// the toolkit: it is loaded when first needed, so a program built without it still runs where it
/// is missing. Then every reading is empty, and the program says so once, on stderr
/// ("clocks and energy not recorded: ..."); it never fails because of it.
#pragma once

#include <optional>
#include <string>

namespace course {

/// The readings of the GPU the program runs on (the current CUDA device, found in NVML by its PCI
/// bus id, since NVML's order need not be CUDA's).
class PowerMeter {
 public:
  /// The meter of the current CUDA device, opened on first use.
  static PowerMeter& current();

  /// Whether NVML answered; when not, why_not() says why.
  bool available() const { return ok_; }
  const std::string& why_not() const { return why_; }

  /// The SM clock now, MHz.
  std::optional<double> sm_clock_mhz();
  /// The board's energy since the driver loaded, joules (NVML's counter, which advances every
  /// 20-100 ms: good for differences over a few hundred milliseconds, not for one short kernel).
  std::optional<double> energy_j();

 private:
  PowerMeter();
  std::string open();  // empty when NVML answered, else why not
  std::string why_;
  bool ok_ = false;
  void* device_ = nullptr;  // nvmlDevice_t
  int (*clock_)(void*, int, unsigned*) = nullptr;
  int (*energy_)(void*, unsigned long long*) = nullptr;
};

}  // namespace course
