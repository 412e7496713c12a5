/// \file reference_gpus.hpp
/// \brief The published limits of the GPUs the course is checked against without them: what
/// probe_device() would report on a T4, an A100, an RTX 3090, an RTX 4090, an RTX 5070 Ti, an H100
/// and an H200. Every lesson chooses its launch configurations from a DeviceLimits; with these,
/// the CPU tests run each lesson's choice as it would run on each of those GPUs, and check that
/// what it chooses fits there (common/fit.hpp).
///
/// The limits of a compute capability are the same on every GPU that has it, except the number of
/// SMs: limits_for_compute_capability() gives them, reference_gpus() adds the SMs of each GPU.
#pragma once

#include "common/device.hpp"

#include <string>
#include <vector>

namespace course {

/// The limits every GPU of compute capability `cc` (75 for 7.5) shares: all of DeviceLimits but
/// sm_count, which is 0. Known: 7.5, 8.0, 8.6, 8.9, 9.0 and 12.0, the compute capabilities of the
/// reference GPUs. \throws std::invalid_argument for any other (no guessed limits)
DeviceLimits limits_for_compute_capability(int cc);

/// One reference GPU.
struct ReferenceGpu {
  std::string label;    ///< a short name for tables, e.g. "RTX 4090"
  std::string name;     ///< the name the driver reports, e.g. "NVIDIA GeForce RTX 4090"
  DeviceLimits limits;  ///< what probe_device() would report on it
};

/// The reference GPUs: T4, A100 SXM4 40GB, RTX 3090, RTX 4090, RTX 5070 Ti, H100 SXM5, H200 SXM.
const std::vector<ReferenceGpu>& reference_gpus();

/// The reference GPU labelled `label` (e.g. "H100 SXM5").
/// \throws std::invalid_argument when no reference GPU has that label
const ReferenceGpu& reference_gpu(const std::string& label);

}  // namespace course
