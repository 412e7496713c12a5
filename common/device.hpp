/// \file device.hpp
/// \brief Is there a GPU, which one, is it new enough, and what does it offer a kernel? Plus the
/// exit codes every program uses.
#pragma once

#include "common/lesson.hpp"

#include <cstddef>
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

/// What one GPU offers a kernel's blocks: the limits a launch configuration is chosen from. Filled
/// from the driver by probe_device() (DeviceInfo::limits); a test can fill one by hand with the
/// published limits of a GPU it does not have and run a lesson's choice of configuration on it.
struct DeviceLimits {
  int cc_major = 0;                            ///< compute capability, major (9 for Hopper)
  int cc_minor = 0;                            ///< compute capability, minor
  int sm_count = 0;                            ///< streaming multiprocessors
  int warp_size = 32;                          ///< threads per warp
  int max_threads_per_sm = 0;                  ///< resident threads per SM (2048 on 9.0)
  int max_threads_per_block = 0;               ///< the largest block a launch may have (1024)
  int max_blocks_per_sm = 0;                   ///< resident blocks per SM, however small (32)
  int regs_per_sm = 0;                         ///< 32-bit registers per SM (65536)
  int regs_per_block = 0;                      ///< registers one block may hold in all (65536)
  int max_regs_per_thread = 0;                 ///< the most one thread may have (255)
  std::size_t smem_per_sm_bytes = 0;           ///< shared memory per SM (228 KiB on 9.0)
  std::size_t smem_per_block_bytes = 0;        ///< per block without opting in (48 KiB)
  std::size_t smem_per_block_optin_bytes = 0;  ///< per block with the opt-in (227 KiB on 9.0)
  /// Shared memory the driver keeps in every block for itself, on top of the kernel's (1 KiB from
  /// compute capability 8.0 on).
  std::size_t smem_reserved_per_block_bytes = 0;

  /// Compute capability as one number: 9.0 -> 90, 8.6 -> 86.
  int cc() const { return cc_major * 10 + cc_minor; }
};

/// What probe_device() found. Never throws: "no GPU" is an answer, not an error.
struct DeviceInfo {
  bool present = false;                ///< a device could be opened
  NoDevice why_not = NoDevice::kNone;  ///< when !present: which case it is
  int index = 0;                       ///< its ordinal
  std::string name;                    ///< e.g. "NVIDIA H100 80GB HBM3"
  DeviceLimits limits;                 ///< what it offers a kernel (when present)
  std::size_t l2_bytes = 0;            ///< its L2 cache
  int sm_clock_khz = 0;                ///< the SMs' clock, kHz
  /// When !present: why, in one line, e.g. "no GPU here: no NVIDIA driver is installed" or
  /// "the NVIDIA driver supports CUDA 12.2, older than the course's CUDA 13.0 toolkit: update it".
  std::string reason;

  /// Compute capability as one number: 9.0 -> 90, 8.6 -> 86.
  int cc() const { return limits.cc(); }
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

/// For lesson programs, when `info` cannot run `lesson` (device_unusable_reason() for its minimum
/// compute capability is not empty): prints to stderr that the program needs a GPU, why, and what
/// still runs here, and returns the program's exit code, kExitNoDevice or kExitDeviceTooOld. The
/// program returns it from its guarded_main body, which first names the stubs met so far.
int no_usable_device(const LessonId& lesson, const DeviceInfo& info);

/// For launchers and lesson programs: the DeviceInfo of the current CUDA device, probed once per
/// device and process (kernels are launched many times; the probe is not free). Every question a
/// lesson asks about the GPU (its SMs, limits, clock, L2) goes through it.
const DeviceInfo& current_device_info();

/// For launchers whose kernels need compute capability `min_cc` or more: throws, on an older
/// current device, std::runtime_error("KERNEL (WHAT) needs compute capability 8.0, found 7.5
/// (NAME)"), with `what` the feature that needs it, e.g. "bf16 tensor cores". \throws
/// std::runtime_error when the current device is older than `min_cc`
void require_compute_capability(const std::string& kernel, int min_cc, const std::string& what);

/// "9.0" for 90.
std::string cc_string(int cc);

}  // namespace course
