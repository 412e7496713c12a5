// Lesson 08: the two basic patterns of __shfl_sync, one warp at a time: a broadcast (every lane
// reads one lane's register) and a butterfly all-reduce (every lane ends up with the warp's sum).
//
// exercises/08-warp-shuffle/warp_shuffle.cu is yours: fill in each region between "BEGIN
// EXERCISE" and "END EXERCISE"; nothing else needs to change. solutions/08-warp-shuffle/ holds the
// same file with the regions filled in. The contract is lessons/08-warp-shuffle/warp_shuffle.hpp;
// the chapter, lessons/08-warp-shuffle/README.md, explains the ideas.
//
// `make grade-8` grades it (the lane arithmetic on the CPU, the kernels on the GPU), `make
// lesson-8` runs it, `make hint-8` gives the next hint.
#include "warp_shuffle.hpp"

#include "common/check.hpp"
#include "common/todo.hpp"

#include <stdexcept>
#include <string>

namespace lesson08 {

namespace {

constexpr int kThreads = 256;  // 8 warps per block; any multiple of 32 would do

void require_n(const char* what, int n) {
  if (n < 1) throw std::invalid_argument(std::string(what) + ": n must be at least 1");
}

}  // namespace

// ---- Task 1: broadcast
// ---------------------------------------------------------------------------

//! [broadcast_kernel]
__global__ void __launch_bounds__(kThreads)
    warp_broadcast_kernel(const float* __restrict__ in, float* __restrict__ out, int n,
                          int src_lane) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // A lane past the end holds 0 but still takes part: the shuffle names all 32 lanes in its
  // mask, and a lane that has returned could never deliver its value.
  const float v = i < n ? in[i] : 0.0f;
  // BEGIN EXERCISE: broadcast
  // One instruction: every lane reads lane src_lane's v, straight from that lane's register.
  const float from_src = __shfl_sync(kFullMask, v, src_lane);
  if (i < n) out[i] = from_src;
  // END EXERCISE
}
//! [broadcast_kernel]

void warp_broadcast(const float* in, float* out, int n, int src_lane) {
  require_n("warp_broadcast", n);
  if (src_lane < 0 || src_lane >= kWarpSize) {
    throw std::invalid_argument("warp_broadcast: src_lane must be 0 .. 31, got " +
                                std::to_string(src_lane));
  }
  // BEGIN EXERCISE: warp_broadcast launch
  // Whole warps: the block size is a multiple of 32, so warp w of the launch is threads 32w ..
  // 32w + 31 and holds in[32w .. 32w + 31].
  const int blocks = (n + kThreads - 1) / kThreads;
  warp_broadcast_kernel<<<blocks, kThreads>>>(in, out, n, src_lane);
  CHECK_LAUNCH();
  // END EXERCISE
}

// ---- Task 2: the butterfly
// ------------------------------------------------------------------------

//! [butterfly_partner]
COURSE_HD int butterfly_partner(int lane, int offset) {
  // BEGIN EXERCISE: butterfly_partner
  // Flip the one bit `offset`: lanes 0-15 pair with 16-31, then 0-7 with 8-15, and so on.
  return lane ^ offset;
  // END EXERCISE
}
//! [butterfly_partner]

//! [warp_sum]
// The sum of v over the 32 lanes of the warp, returned in every lane. Five stages: after the stage
// of offset 16 each lane holds the sum of 2 values, then 4, 8, 16, 32. A lane and its partner add
// the same two numbers (a + b == b + a exactly), so every lane computes the same bits.
__device__ float warp_sum(float v) {
  const int lane = threadIdx.x % kWarpSize;
  // BEGIN EXERCISE: warp_sum
#pragma unroll
  for (int offset = kWarpSize / 2; offset >= 1; offset /= 2) {
    v += __shfl_sync(kFullMask, v, butterfly_partner(lane, offset));
  }
  // END EXERCISE
  return v;
}
//! [warp_sum]

__global__ void __launch_bounds__(kThreads)
    warp_sums_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float total = warp_sum(i < n ? in[i] : 0.0f);  // every lane calls it, past n too
  if (i < n) out[i] = total;
}

void warp_sums(const float* in, float* out, int n) {
  require_n("warp_sums", n);
  // BEGIN EXERCISE: warp_sums launch
  const int blocks = (n + kThreads - 1) / kThreads;
  warp_sums_kernel<<<blocks, kThreads>>>(in, out, n);
  CHECK_LAUNCH();
  // END EXERCISE
}

}  // namespace lesson08
