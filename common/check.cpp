#include "common/check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace course {

namespace {
std::mutex notes_mutex;
std::vector<FailureNote>& failure_notes() {
  static std::vector<FailureNote> notes;
  return notes;
}
}  // namespace

void add_failure_note(FailureNote note) {
  std::lock_guard<std::mutex> lock(notes_mutex);
  auto& notes = failure_notes();
  if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
}

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  std::string said;
  {
    std::lock_guard<std::mutex> lock(notes_mutex);
    for (FailureNote note : failure_notes()) {
      const std::string s = note();
      if (!s.empty()) said += s + "\n";
    }
  }
  throw CudaError(said + std::string(file) + ":" + std::to_string(line) + ": " + call +
                  " failed: " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")");
}

bool sync_after_launch() {
  static const bool on = [] {
    const char* v = std::getenv("COURSE_SYNC_LAUNCH");
    return v != nullptr && std::strcmp(v, "0") != 0 && *v != '\0';
  }();
  return on;
}

void check_launch(const char* file, int line) {
  cudaError_t err = cudaGetLastError();
  // The launch's own configuration refused: say which part of it can be wrong.
  if (err == cudaErrorInvalidValue || err == cudaErrorInvalidConfiguration)
    throw_cuda_error(err,
                     "kernel launch (a grid of 0 blocks along some axis: a block count rounded "
                     "down, where (N + blockDim.x - 1) / blockDim.x belongs; or a block over 1024 "
                     "threads, or over the shared memory the GPU allows)",
                     file, line);
  if (err != cudaSuccess) throw_cuda_error(err, "kernel launch", file, line);
  if (sync_after_launch()) {
    err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
      throw_cuda_error(err, "kernel execution (COURSE_SYNC_LAUNCH=1)", file, line);
  }
}

bool poll_until_reached(cudaEvent_t event, const char* what, double limit_s, int poll_us,
                        void (*between)(void* context), void* context) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (between) between(context);
    const cudaError_t err = cudaEventQuery(event);
    if (err == cudaSuccess) return true;
    if (err != cudaErrorNotReady) throw_cuda_error(err, what, __FILE__, __LINE__);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit_s) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(poll_us));
  }
}

void wait_for_gpu(const char* what, double limit_s) {
  cudaEvent_t done;
  CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(done));
  bool reached = false;
  try {
    reached = poll_until_reached(done, what, limit_s, 200);
  } catch (...) {
    cudaEventDestroy(done);
    throw;
  }
  if (!reached) {
    std::fprintf(stdout,
                 "\nFAILED: %s did not finish within %.0f s: the kernel never ends (a loop whose "
                 "index never reaches its bound, a barrier or a wait that some threads never "
                 "reach). Stopped.\n",
                 what, limit_s);
    std::fflush(stdout);
    std::fprintf(stderr, "%s: hung for %.0f s, stopped\n", what, limit_s);
    std::_Exit(3);
  }
  CUDA_CHECK(cudaEventDestroy(done));
}

}  // namespace course
