// Kernels that exist only to be measured by the occupancy APIs in the lesson 06 grader: each one
// stresses a different limit (registers, dynamic shared memory, static shared memory in odd
// sizes, tiny blocks). They are never launched. Plain C++: kernels travel as const void*.
#pragma once

#include <string>
#include <vector>

namespace probe06 {

struct ProbeKernel {
  std::string name;
  const void* kernel = nullptr;
  bool dynamic_smem = false;  ///< declares extern __shared__ memory (the grader varies its size)
};

/// The probe kernels. Raises the dynamic shared-memory limit of those that use it to the
/// device's per-block maximum, so a launch with any size up to it is legal.
std::vector<ProbeKernel> probe_kernels();

}  // namespace probe06
