/// \file launch.hpp
/// \brief A kernel's launch configuration, as a function you write returns it and a given launcher
/// uses it: `kernel<<<grid, block>>>`, and which version of the kernel to run.
///
/// From lesson 07 on, the kernels are given and call the device functions you write; how they are
/// launched (how many threads a block, how many blocks, which code path) stays yours, as a small
/// host function that returns a Launch. The given launcher checks the shape, calls it, launches,
/// and checks the launch.
#pragma once

#include <cuda_runtime.h>  // dim3

namespace course {

/// What a launch needs to know besides the kernel's arguments.
struct Launch {
  dim3 grid;         ///< blocks: x along the columns of C, y along its rows
  dim3 block;        ///< threads per block (the kernels of the course use a 1D block: block.x)
  bool vec = false;  ///< the kernel's vector path (128-bit loads and stores), when it has one
};

}  // namespace course
