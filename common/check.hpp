/// \file check.hpp
/// \brief Error checking for every CUDA call and every kernel launch.
///
/// Wrap each call: `CUDA_CHECK(cudaMalloc(&p, bytes));`, and put `CHECK_LAUNCH();` right after
/// every `kernel<<<grid, block>>>(...)`. A failure throws course::CudaError whose message names the
/// file and line, the call as written, and the error. The course's cuBLAS calls are all in
/// common/cublas_gemm.cpp, which checks them the same way.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace course {

/// The exception every checking macro throws. Its message names the source file and line, the
/// call and the error, e.g. `sgemm.cu:42: cudaMalloc(&p, bytes) failed: out of memory
/// (cudaErrorMemoryAllocation)`.
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A function that may say what a failed kernel was doing, in one sentence, or "" (lesson 11's
/// kernels leave a note in host memory before a wait that cannot end traps).
using FailureNote = std::string (*)();

/// Registers `note`: every CudaError for a failed CUDA runtime call starts with what the
/// registered notes say (once each; registering the same function twice keeps one).
void add_failure_note(FailureNote note);

/// Throws CudaError for a failed CUDA runtime call. Used by CUDA_CHECK and CHECK_LAUNCH.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);

/// True when the environment sets COURSE_SYNC_LAUNCH=1: CHECK_LAUNCH then also waits for the
/// kernel, so an error inside it (an illegal address, say) is reported at its own launch.
bool sync_after_launch();

/// CHECK_LAUNCH's work: the launch error, then (with COURSE_SYNC_LAUNCH=1) the kernel's own.
void check_launch(const char* file, int line);

/// Waits on the host until the GPU reaches `event`, querying it every `poll_us` microseconds and
/// calling `between(context)` (when given) before each query: the one host-side wait for the GPU, which
/// wait_for_gpu() and the timing's wait (common/timing.cpp) go through. Returns false when
/// `limit_s` seconds passed first (the caller says what that means); throws CudaError, naming
/// `what`, when the GPU reports an error.
bool poll_until_reached(cudaEvent_t event, const char* what, double limit_s, int poll_us,
                        void (*between)(void* context) = nullptr, void* context = nullptr);

/// How long a grader waits for one kernel of a test before it calls it hung, in seconds.
constexpr double kKernelTimeLimitSeconds = 10.0;

/// Waits for the work queued on the device so far, at most `limit_s` seconds: a kernel that never
/// ends (a loop whose index never reaches its bound, a wait for a flag nobody sets) cannot be
/// stopped from the host, so past the limit this prints what happened, naming `what`, and ends
/// the program with exit code 3; the driver then stops the kernel. Graders call it instead of
/// cudaDeviceSynchronize() after the learner's kernels, before anything is copied back.
/// 	hrows CudaError when the kernel failed (an illegal address, say)
void wait_for_gpu(const char* what, double limit_s = kKernelTimeLimitSeconds);

}  // namespace course

/// Checks a CUDA runtime call; throws course::CudaError naming the source file and line, the call
/// and the error.
#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t course_status_ = (call);                                     \
    if (course_status_ != cudaSuccess)                                       \
      ::course::throw_cuda_error(course_status_, #call, __FILE__, __LINE__); \
  } while (0)

/// Put right after every kernel launch: a bad launch configuration (too many threads, too much
/// shared memory) is only reported by cudaGetLastError(), never by the launch itself.
#define CHECK_LAUNCH() ::course::check_launch(__FILE__, __LINE__)
