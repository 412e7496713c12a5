// Lesson 05: your tiled SGEMM, compiled for the lesson's two tile sizes. Given code that calls
// yours: the build compiles this file twice, with exercises/05-tiling/tiled_sgemm.cuh (yours: what
// `make lesson-5` runs and `make grade-5` grades) and with solutions/05-tiling/tiled_sgemm.cuh
// (the reference). This file alone includes yours: it also compiles load_or_zero for the grader,
// which calls it on the CPU.
#include "tiled_sgemm.cuh"  // yours: load_or_zero, tiled_sgemm_kernel, tiled_sgemm

#include "tiled_sgemm.hpp"

namespace lesson05 {

// The kernel itself, for lesson 06's occupancy APIs. The typed pointer picks the __global__
// function of the two templates named tiled_sgemm_kernel (this one takes no arguments).
template <int TILE>
const void* tiled_sgemm_kernel() {
  void (*kernel)(int, int, int, float, const float*, const float*, float, float*) =
      tiled_sgemm_kernel<TILE>;
  return reinterpret_cast<const void*>(kernel);
}

// The two tile sizes of the lesson, compiled here so the header needs no CUDA.
template void tiled_sgemm<16>(int, int, int, float, const float*, const float*, float, float*);
template void tiled_sgemm<32>(int, int, int, float, const float*, const float*, float, float*);
template const void* tiled_sgemm_kernel<16>();
template const void* tiled_sgemm_kernel<32>();

}  // namespace lesson05
