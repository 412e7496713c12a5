// Lesson 11: what every launcher of the lesson and of its lab uses that calls nothing of yours,
// defined once in launch_support.cu: the tensor maps, the SM count and the bound on every wait.
#pragma once

#include "hopper_ptx.cuh"  // ptx::WaitLimit

#include <cuda.h>  // CUtensorMap

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

/// What an expired wait reported (`where` is 0 until one did), for a note of the lab's own waits.
const volatile ptx::WaitReport* expired_wait();

}  // namespace lesson11::detail
