// Lesson 11: what every launcher of the lesson and of its lab uses that calls nothing of yours,
// defined once in launch_support.cu: the tensor maps, the SM count, the bound on every wait and
// stream-K's workspace.
#pragma once

#include "hopper_ptx.cuh"  // ptx::WaitLimit

#include <cuda.h>  // CUtensorMap

#include <cstdint>

namespace lesson11::detail {

/// A tensor map of a row-major bf16 matrix, kept by (address, shape, box). The pointer stays valid
/// for at least the next 64 calls: a launch may hold its A map while it asks for B's and C's.
const CUtensorMap* tensor_map(const void* base, int rows, int cols, int box_rows, int box_cols);
/// The SMs of the current device.
int sm_count();
/// How long a kernel's wait may last (a second, or COURSE_WAIT_LIMIT_S seconds, at most 4) and
/// where an expired wait leaves its report (mapped host memory, which the error message of the
/// failed launch reads).
ptx::WaitLimit wait_limit();

/// Stream-K's workspace, allocated once and kept: `slots` tiles of `slot_floats` FP32 sums, and
/// `flags` flags, all zero when first allocated.
struct StreamKWorkspace {
  float* partials = nullptr;
  std::uint32_t* flags = nullptr;
  std::uint32_t epoch = 0;  ///< a value the flags have never held: this launch's
};
/// The workspace for a launch (grown when a launch needs more), with a new epoch.
StreamKWorkspace stream_k_workspace(int slots, int slot_floats, int flags);

}  // namespace lesson11::detail
