// Lesson 11's lab: stream-K's workspace on the host, and the words for its kernels' expired flag
// waits. Host code, built with the lab.
#include "launch.cuh"

#include "launch_support.hpp"

#include "common/check.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace lesson11::lab {

namespace {
// What a split tile's finisher reported when its wait for another block's flag expired.
std::string expired_flag_note() {
  const volatile ptx::WaitReport* r = detail::expired_wait();
  if (r == nullptr || r->where == 0) return "";
  const std::uint32_t where = r->where;
  if ((where & 3) != static_cast<std::uint32_t>(ptx::kFlagWaiter)) return "";
  const std::string limit = std::to_string(detail::wait_limit().ns / 1000000);
  return "a wait that never ended: a split tile's finisher waited for the partial sums of block " +
         std::to_string((where >> 3) & 0x1FFF) + " in block " + std::to_string(r->block) +
         " (thread " + std::to_string(where >> 16) + ") gave up after " + limit +
         " ms: that block never handed them over";
}
}  // namespace

//! [stream_k_workspace]
// One workspace for every stream-K launch of the process, grown when a launch needs more and never
// given back (the driver frees it at exit). Launches on one stream run one after the other, so one
// launch's pieces never meet the next one's; the flags are not reset between launches: each launch
// waits for its own epoch, a value no flag has held before.
StreamKWorkspace stream_k_workspace(int slots, int slot_floats, int flags) {
  static const bool noted = [] {
    course::add_failure_note(&expired_flag_note);
    return true;
  }();
  (void)noted;
  static std::mutex mutex;
  static float* partials = nullptr;
  static std::uint32_t* flag_words = nullptr;
  static std::size_t partial_capacity = 0, flag_capacity = 0;
  static std::uint32_t epoch = 0;
  std::lock_guard<std::mutex> lock(mutex);
  // At least one tile of sums per SM, so that the first launch's size usually serves them all.
  const std::size_t floats = static_cast<std::size_t>(std::max(slots, detail::sm_count())) *
                             static_cast<std::size_t>(slot_floats);
  const std::size_t words = static_cast<std::size_t>(std::max(flags, detail::sm_count()));
  if (floats > partial_capacity || words > flag_capacity) {
    // cudaFree waits for the GPU to be idle: no kernel is still using the old workspace.
    if (partials != nullptr) CUDA_CHECK(cudaFree(partials));
    if (flag_words != nullptr) CUDA_CHECK(cudaFree(flag_words));
    partials = nullptr, flag_words = nullptr;
    partial_capacity = flag_capacity = 0;
    CUDA_CHECK(cudaMalloc(&partials, floats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&flag_words, words * sizeof(std::uint32_t)));
    CUDA_CHECK(cudaMemset(flag_words, 0, words * sizeof(std::uint32_t)));
    partial_capacity = floats, flag_capacity = words;
    epoch = 0;
  }
  if (++epoch == 0) {  // after 2^32 launches: start again from zeroed flags
    CUDA_CHECK(cudaMemset(flag_words, 0, flag_capacity * sizeof(std::uint32_t)));
    epoch = 1;
  }
  return StreamKWorkspace{partials, flag_words, epoch};
}
//! [stream_k_workspace]

}  // namespace lesson11::lab
