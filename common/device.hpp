/// \file device.hpp
/// \brief Is there a GPU, which one, and is it new enough? Plus the exit codes every program uses.
#pragma once

#include "common/lesson.hpp"

#include <string>

namespace course {

/// Exit codes shared by every lesson program and test, so scripts can tell the cases apart.
enum ExitCode : int {
  kExitOk = 0,            ///< ran and passed
  kExitFailed = 1,        ///< ran and failed (wrong result, CUDA error, not implemented yet)
  kExitUsage = 2,         ///< bad command line: usage printed, nothing run
  kExitNoDevice = 3,      ///< no usable CUDA device (no GPU, or no driver)
  kExitDeviceTooOld = 4,  ///< a GPU below the lesson's minimum compute capability
  kExitSkipped = 77,      ///< a test program skipped (CTest's SKIP_RETURN_CODE)
};

/// Why there is no usable device, when there is none: each case has its own remedy.
enum class NoDevice {
  kNone,          ///< a device is present
  kNoDriver,      ///< no NVIDIA driver is installed (a machine without an NVIDIA GPU, usually)
  kNoGpu,         ///< a driver is installed but it finds no CUDA device
  kDriverTooOld,  ///< the driver supports an older CUDA than the toolkit the course was built with
  kOther,         ///< any other failure to open the device (the reason says which)
};

/// What probe_device() found. Never throws: "no GPU" is an answer, not an error.
struct DeviceInfo {
  bool present = false;                ///< a device could be opened
  NoDevice why_not = NoDevice::kNone;  ///< when !present: which case it is
  int index = 0;                       ///< its ordinal
  int cc_major = 0;                    ///< compute capability, major
  int cc_minor = 0;                    ///< compute capability, minor
  int sm_count = 0;                    ///< streaming multiprocessors
  std::string name;                    ///< e.g. "NVIDIA H100 80GB HBM3"
  /// When !present: why, in one line, e.g. "no GPU here: no NVIDIA driver is installed" or
  /// "the NVIDIA driver supports CUDA 12.2, older than the course's CUDA 13.0 toolkit: update it".
  std::string reason;

  /// Compute capability as one number: 9.0 -> 90, 8.6 -> 86.
  int cc() const { return cc_major * 10 + cc_minor; }
};

/// Looks for CUDA device `index` without throwing.
DeviceInfo probe_device(int index = 0);

/// Empty when `info` is a device of at least `min_cc` (e.g. 90 for 9.0); otherwise the one-line
/// reason: DeviceInfo::reason, or "needs compute capability 9.0, found 8.6 (NVIDIA RTX A6000)".
std::string device_unusable_reason(const DeviceInfo& info, int min_cc);

/// What of the course still runs on this machine when `info` cannot run a lesson that needs
/// compute capability `min_cc`, in one line for the learner ("without a GPU: the CPU half of
/// every grader (make grade), ..."). Empty when it can.
std::string what_still_runs(const DeviceInfo& info, int min_cc);

/// For lesson programs: returns the device index when it can run `lesson` (its minimum compute
/// capability); otherwise prints the reason and what still runs here to stderr and exits with
/// kExitNoDevice or kExitDeviceTooOld.
int require_device(const LessonId& lesson);

/// For launchers: the DeviceInfo of the current CUDA device, probed once per device and process
/// (kernels are launched many times; the probe is not free).
const DeviceInfo& current_device_info();

/// For launchers whose kernels need compute capability `min_cc` or more: throws, on an older
/// current device, std::runtime_error("KERNEL (WHAT) needs compute capability 8.0, found 7.5
/// (NAME)"), with `what` the feature that needs it, e.g. "bf16 tensor cores". \throws
/// std::runtime_error when the current device is older than `min_cc`
void require_compute_capability(const std::string& kernel, int min_cc, const std::string& what);

/// "9.0" for 90.
std::string cc_string(int cc);

}  // namespace course
