// Lesson 11: what every launcher of the lesson (and of its lab) uses that does not call your code:
// which GPU runs which rungs, the tensor maps and the bound on every wait.
// Given code, compiled once (it does not include your file): a save does not recompile it.
#include "launch_support.hpp"
#include "ring_model.hpp"
#include "tma_pipeline.hpp"

#include "common/check.hpp"
#include "common/device.hpp"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace lesson11 {

std::string hopper_support_error(const course::DeviceInfo& info) {
  if (!info.present) return info.reason;
  if (info.cc() == 90) return "";
  return "the wgmma rungs need compute capability 9.0 (Hopper: wgmma and setmaxnreg, compiled "
         "for sm_90a); " +
         info.name + " is " + course::cc_string(info.cc()) +
         ": it runs the portable rung (TMA, mbarrier, ldmatrix, mma.sync)";
}

std::string tma_support_error(const course::DeviceInfo& info) {
  if (!info.present) return info.reason;
  if (info.cc() >= 90) return "";
  return "lesson 11 needs TMA, which compute capability 9.0 and newer have (H100, H200, B200, RTX "
         "50 series); " +
         info.name + " is " + course::cc_string(info.cc());
}

namespace {

//! [entry_point]
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || p == nullptr) {
      throw course::CudaError(
          "cuTensorMapEncodeTiled is not available from this driver (TMA needs CUDA 12 or newer)");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}
//! [entry_point]

// A 2D tensor map over a row-major bf16 matrix of `rows` x `cols` at `base` (device memory),
// copied in boxes of `box_rows` x `box_cols` with TMA's 128-byte swizzle (`box_cols` * 2 must be
// at most 128). Elements of a box outside the matrix read as zeros and are not written by stores.
// cuTensorMapEncodeTiled is a driver-API function, fetched through the runtime's
// cudaGetDriverEntryPointByVersion, so the course links no extra library.
CUtensorMap make_tensor_map_2d(const void* base, std::uint64_t rows, std::uint64_t cols,
                               std::uint32_t box_rows, std::uint32_t box_cols) {
  //! [encode]
  CUtensorMap map{};
  // Dimension 0 is the innermost (contiguous) one: the columns.
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * sizeof(std::uint16_t)};  // bytes from one row to the next
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides, box,
      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  //! [encode]
  if (r != CUDA_SUCCESS) {
    throw course::CudaError("cuTensorMapEncodeTiled failed (CUresult " + std::to_string(r) +
                            ") for a " + std::to_string(rows) + " x " + std::to_string(cols) +
                            " bf16 matrix in boxes of " + std::to_string(box_rows) + " x " +
                            std::to_string(box_cols) +
                            ": the row stride must be a multiple of 16 bytes, the base 16-byte "
                            "aligned, a box side at most 256 and its row at most 128 bytes");
  }
  return map;
}

}  // namespace

namespace detail {

std::string ring_error(const YourRing& yours, int block_m, int block_n, int stages,
                       int releasing_warps) {
  const std::uint32_t boxes = static_cast<std::uint32_t>((block_m + block_n) * 64 * 2);
  if (yours.stage_tx_bytes != boxes) {
    return "stage_tx_bytes(" + std::to_string(block_m) + ", " + std::to_string(block_n) +
           ", 64) is " + std::to_string(yours.stage_tx_bytes) +
           " but the stage's two TMA boxes bring " + std::to_string(boxes) + " bytes: " +
           (yours.stage_tx_bytes > boxes
                ? "the full barrier would never complete (a hang)"
                : "the full barrier would complete before the data landed");
  }
  const RingProtocol ring{yours.producer_slot, yours.consumer_slot, yours.empty_barrier_arrivals};
  return check_ring_protocol(ring, stages, releasing_warps, 4 * stages + 3);
}

void require_ready(const char* kernel, bool wgmma, const std::string& ring_error) {
  const course::DeviceInfo& device = course::current_device_info();
  const std::string gpu_error = wgmma ? hopper_support_error(device) : tma_support_error(device);
  if (!gpu_error.empty()) throw std::runtime_error(std::string(kernel) + ": " + gpu_error);
  if (!ring_error.empty()) {
    throw std::logic_error(std::string(kernel) + ": the ring's protocol is wrong: " + ring_error);
  }
}

// Encoding a tensor map takes microseconds; the timing loops call a launcher with the same
// matrices again and again, so maps are kept by (address, shape, box).
const CUtensorMap* tensor_map(const void* base, int rows, int cols, int box_rows, int box_cols) {
  static std::mutex mutex;
  static std::map<std::tuple<const void*, int, int, int, int>, CUtensorMap> maps, retired;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(base, rows, cols, box_rows, box_cols);
  auto found = maps.find(key);
  if (found == maps.end()) {
    // Freed and reused addresses must not pile up: past 64 maps, a new cache. The old one lives
    // on until the next: a launcher still holds the maps it looked up just before this one (A's,
    // while it asks for B's and C's), and clear() would free them under it.
    if (maps.size() > 64) {
      retired = std::move(maps);
      maps.clear();
    }
    found = maps.emplace(key, make_tensor_map_2d(base, rows, cols, box_rows, box_cols)).first;
  }
  return &found->second;
}

int sm_count() {
  return course::current_device_info().limits.sm_count;
}

//! [wait_limit]
namespace {
ptx::WaitReport* wait_report_host = nullptr;

// What a kernel's expired wait reported, for the error message of the failed launch.
std::string expired_wait_note() {
  const volatile ptx::WaitReport* r = wait_report_host;
  if (r == nullptr || r->where == 0) return "";
  const std::uint32_t where = r->where;
  const std::string stage = std::to_string((where >> 3) & 0x1FFF),
                    parity = std::to_string((where >> 2) & 1);
  const std::string limit = std::to_string(wait_limit().ns / 1000000);
  const std::string who = " in block " + std::to_string(r->block) + " (thread " +
                          std::to_string(where >> 16) + ") gave up after " + limit + " ms: ";
  switch (static_cast<ptx::Waiter>(where & 3)) {
    case ptx::Waiter::kFull:
      return "a wait that never ended: the consumers' wait on the full barrier of stage " + stage +
             " for its phase of parity " + parity + who +
             "that k-block never landed (the parity names a phase that never completes, or "
             "stage_tx_bytes announces more bytes than TMA brings)";
    case ptx::Waiter::kEmpty:
      return "a wait that never ended: the producer's wait on the empty barrier of stage " + stage +
             " for its phase of parity " + parity + who +
             "the consumers never released the stage (the parity names a phase that never "
             "completes, or empty_barrier_arrivals asks for more arrivals than the consumer warps "
             "make)";
  }
  return "";
}
}  // namespace

const volatile ptx::WaitReport* expired_wait() {
  return wait_report_host;
}

// Every wait of the kernels gives up after a second (COURSE_WAIT_LIMIT_S seconds, at most 4, when
// set) and leaves its report in one block of mapped host memory, which the error message of the
// failed launch reads.
ptx::WaitLimit wait_limit() {
  static const ptx::WaitLimit limit = [] {
    ptx::WaitLimit l;
    if (const char* s = std::getenv("COURSE_WAIT_LIMIT_S"); s != nullptr && std::atof(s) > 0) {
      l.ns = static_cast<std::uint32_t>(std::min(std::atof(s), 4.0) * 1e9);  // the timer's 32 bits
    }
    void* host = nullptr;
    CUDA_CHECK(cudaHostAlloc(&host, sizeof(ptx::WaitReport), cudaHostAllocMapped));
    std::memset(host, 0, sizeof(ptx::WaitReport));
    wait_report_host = static_cast<ptx::WaitReport*>(host);
    void* device = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
    l.report = static_cast<ptx::WaitReport*>(device);
    course::add_failure_note(&expired_wait_note);
    return l;
  }();
  return limit;
}
//! [wait_limit]

}  // namespace detail

}  // namespace lesson11
