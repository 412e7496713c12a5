// Lesson 11: the launchers of rungs 1 to 4, the table of rungs, and the helpers every launcher
// shares (the checks before a first launch, the tensor maps, the bound on every wait). Given code
// that calls yours: calls-yours/pipeline_gemm.cu includes it, and the build compiles that file into
// both the exercise and the solution library, each with its own pipeline_exercises.cuh. Include it
// from one file only. Rungs 5 and 6 (hopper_gemm) and the portable rung are in hopper_gemm.cu.
// Before its first launch a launcher checks your ring on the CPU model (ring_model.hpp) and your
// expected byte count against the boxes it asks TMA for, so a protocol mistake is an error message,
// not a hung GPU.
#pragma once

#include "pipeline_exercises.cuh"
#include "ring_gemm.cuh"  // the helpers defined here, shared with the other launchers
#include "ring_model.hpp"
#include "stream_k.hpp"
#include "tensor_map.hpp"
#include "tma_pipeline.hpp"
#include "tma_wgmma_gemm.cuh"

#include "common/check.hpp"
#include "common/device.hpp"
#include "common/gemm.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
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

// The launchers' helpers, shared with the launchers compiled in other files (declared in
// ring_gemm.cuh).
namespace detail {

//! [ring_check]
// Once per process: the GPU can run the kernel. Once per ring shape: the protocol is sound.
void require_ready(const char* kernel, bool wgmma, int stages, int consumer_warps, int block_m,
                   int block_n) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int, int>, std::string> checked;
  std::lock_guard<std::mutex> lock(mutex);
  static const std::string wgmma_error = hopper_support_error(course::current_device_info());
  static const std::string tma_error = tma_support_error(course::current_device_info());
  const std::string& gpu_error = wgmma ? wgmma_error : tma_error;
  if (!gpu_error.empty()) throw std::runtime_error(std::string(kernel) + ": " + gpu_error);
  const auto key = std::make_tuple(stages, consumer_warps, block_m, block_n);
  auto found = checked.find(key);
  if (found == checked.end()) {
    std::string why;
    (void)make_smem_descriptor(0);  // a stub says "not implemented" here, on the host
    const std::uint32_t boxes = static_cast<std::uint32_t>((block_m + block_n) * 64 * 2);
    const std::uint32_t announced = stage_tx_bytes(block_m, block_n, 64);
    if (announced != boxes) {
      why = "stage_tx_bytes(" + std::to_string(block_m) + ", " + std::to_string(block_n) +
            ", 64) is " + std::to_string(announced) + " but the stage's two TMA boxes bring " +
            std::to_string(boxes) + " bytes: " +
            (announced > boxes ? "the full barrier would never complete (a hang)"
                               : "the full barrier would complete before the data landed");
    } else {
      why = check_ring_protocol(compiled::ring_protocol(), stages, consumer_warps, 4 * stages + 3);
    }
    found = checked.emplace(key, why).first;
  }
  if (!found->second.empty()) {
    throw std::logic_error(std::string(kernel) +
                           ": the ring's protocol is wrong: " + found->second);
  }
}
//! [ring_check]

// Encoding a tensor map takes microseconds; the timing loops call a launcher with the same
// matrices again and again, so maps are kept by (address, shape, box).
const CUtensorMap* tensor_map(const void* base, int rows, int cols, int box_rows, int box_cols) {
  static std::mutex mutex;
  static std::map<std::tuple<const void*, int, int, int, int>, CUtensorMap> maps;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(base, rows, cols, box_rows, box_cols);
  auto found = maps.find(key);
  if (found == maps.end()) {
    if (maps.size() > 64) maps.clear();  // freed and reused addresses must not pile up
    found = maps.emplace(key, make_tensor_map_2d(base, rows, cols, box_rows, box_cols)).first;
  }
  return &found->second;
}

int sm_count() {
  return course::current_device_info().limits.sm_count;
}

//! [wait_limit]
ptx::WaitLimit wait_limit();

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
    case ptx::Waiter::kFlag:
      return "a wait that never ended: a split tile's finisher waited for the partial sums of "
             "block " +
             stage + who + "that block never handed them over";
  }
  return "";
}
}  // namespace

// Every wait of the kernels gives up after a second (COURSE_WAIT_LIMIT_S seconds, at most 4, when
// set) and
// leaves its report in one block of mapped host memory, which the error message of the failed
// launch reads.
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

GemmParams make_params(int M, int N, int K, float alpha, float beta, bf16* C, int block_m,
                       int block_n, int consumer_warps) {
  GemmParams p;
  p.M = M, p.N = N, p.K = K, p.alpha = alpha, p.beta = beta, p.C = C;
  p.tiles_m = (M + block_m - 1) / block_m;
  p.tiles_n = (N + block_n - 1) / block_n;
  p.group = 8;
  p.stage_bytes = stage_tx_bytes(block_m, block_n, 64);
  p.empty_arrivals = empty_barrier_arrivals(consumer_warps);
  p.limit = wait_limit();
  return p;
}

//! [stream_k_workspace]
// One workspace for every stream-K launch of the process, grown when a launch needs more and never
// given back (the driver frees it at exit). Launches on one stream run one after the other, so one
// launch's pieces never meet the next one's; the flags are not reset between launches: each launch
// waits for its own epoch, a value no flag has held before.
StreamKWorkspace stream_k_workspace(int slots, int slot_floats, int flags) {
  static std::mutex mutex;
  static float* partials = nullptr;
  static std::uint32_t* flag_words = nullptr;
  static std::size_t partial_capacity = 0, flag_capacity = 0;
  static std::uint32_t epoch = 0;
  std::lock_guard<std::mutex> lock(mutex);
  // At least one tile of sums per SM, so that the first launch's size usually serves them all.
  const std::size_t floats =
      static_cast<std::size_t>(std::max(slots, sm_count())) * static_cast<std::size_t>(slot_floats);
  const std::size_t words = static_cast<std::size_t>(std::max(flags, sm_count()));
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

}  // namespace detail

namespace {

using detail::make_params;
using detail::require_ready;
using detail::sm_count;
using detail::tensor_map;

template <class Cfg>
void launch_tma_wgmma(const char* name, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C) {
  course::require_bf16_gemm_shape(name, M, N, K, 8, A, B, C);
  course::require_gemm_shape(name, M, N, K, (static_cast<long>(M) + 63) / 64);
  require_ready(name, true, Cfg::kStages, 4, 64, Cfg::kBlockN);
  const GemmParams p = make_params(M, N, K, alpha, beta, C, 64, Cfg::kBlockN, 4);
  static const bool configured = [] {
    CUDA_CHECK(cudaFuncSetAttribute(tma_wgmma_kernel<Cfg>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes));
    return true;
  }();
  (void)configured;
  const dim3 grid(p.tiles_n, p.tiles_m);
  tma_wgmma_kernel<Cfg><<<grid, Cfg::kThreads, Cfg::kSmemBytes>>>(
      *tensor_map(A, M, K, 64, 64), *tensor_map(B, N, K, Cfg::kBlockN, 64), p);
  CHECK_LAUNCH();
}

//! [configs]
using OneStage = TmaWgmmaConfig<128, 1>;
using FourStages = TmaWgmmaConfig<128, 4>;
// Rungs 3 and 4: the ring with two wgmma consumer warpgroups on 128 x 256 tiles; the producer keeps
// 40 registers and the consumers get 232 (40 x 128 + 232 x 256 = 64512 of the SM's 65536). Rungs 5
// and 6 are in hopper_gemm.cu.
using Specialized = RingConfig<WgmmaConsumer<128, 256>, 4, Epilogue::kRegisters>;
//! [configs]

}  // namespace

void tma_wgmma_1stage_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B,
                           float beta, bf16* C) {
  launch_tma_wgmma<OneStage>("tma_wgmma_1stage_gemm", M, N, K, alpha, A, B, beta, C);
}

void tma_wgmma_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                    bf16* C) {
  launch_tma_wgmma<FourStages>("tma_wgmma_gemm", M, N, K, alpha, A, B, beta, C);
}

//! [specialized]
// Rung 3: one block per tile. Rung 4: the same kernel on a persistent grid, tiles in bands of 8.
void specialized_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                      bf16* C) {
  TileSchedule one_tile_per_block;
  one_tile_per_block.persistent = false;
  launch_ring<Specialized>("specialized_gemm", &ring_gemm_kernel<Specialized>, one_tile_per_block,
                           M, N, K, alpha, A, B, beta, C);
}

void persistent_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                     bf16* C) {
  launch_ring<Specialized>("persistent_gemm", &ring_gemm_kernel<Specialized>, TileSchedule{}, M, N,
                           K, alpha, A, B, beta, C);
}
//! [specialized]

namespace detail {
void registers_gemm(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                    const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring<Specialized>(name, &ring_gemm_kernel<Specialized>, schedule, M, N, K, alpha, A, B,
                           beta, C);
}
Rung registers_gemm_rung(Rung r) {
  return describing<Specialized>(r);
}
}  // namespace detail

namespace compiled {
std::uint64_t make_smem_descriptor(std::uint32_t smem_address) {
  return lesson11::make_smem_descriptor(smem_address);
}
std::uint32_t stage_tx_bytes(int block_m, int block_n, int block_k) {
  return lesson11::stage_tx_bytes(block_m, block_n, block_k);
}
RingProtocol ring_protocol() {
  return RingProtocol{[](int it, int stages) { return producer_slot(it, stages); },
                      [](int it, int stages) { return consumer_slot(it, stages); },
                      [](int warps) { return empty_barrier_arrivals(warps); }};
}
}  // namespace compiled

namespace {

// An entry of the table of rungs: rung `step` of the ladder. The wgmma rungs' code is compiled for
// sm_90a and runs on compute capability 9.0 alone.
Rung rung(int step, const char* name, const char* what, Bf16Launcher run) {
  Rung r;
  r.name = name;
  r.what = what;
  r.step = step;
  r.run = run;
  r.min_cc = r.max_cc = 90;
  r.cc_why = "TMA, wgmma and setmaxnreg, compiled for sm_90a";
  return r;
}

// A rung of rungs 1 and 2 (no ring): what its kernel asks of an SM.
template <class Cfg>
Rung launching(Rung r) {
  r.threads = Cfg::kThreads;
  r.smem_bytes = static_cast<std::size_t>(Cfg::kSmemBytes);
  r.min_blocks = 0;
  return r;
}

}  // namespace

//! [rungs]
const std::vector<Rung>& rungs() {
  static const std::vector<Rung> ladder = {
      launching<OneStage>(rung(1, "tma_wgmma_1stage_gemm", "TMA + mbarrier + wgmma, one stage",
                               &tma_wgmma_1stage_gemm)),
      launching<FourStages>(rung(2, "tma_wgmma_gemm", "4 stages in flight", &tma_wgmma_gemm)),
      describing<Specialized>(
          rung(3, "specialized_gemm", "producer/consumer warpgroups, 128x256", &specialized_gemm)),
      describing<Specialized>(
          rung(4, "persistent_gemm", "persistent grid, tiles in bands", &persistent_gemm)),
      detail::staged_store_gemm_rung(rung(5, "staged_store_gemm",
                                          "epilogue through shared memory + TMA store",
                                          &staged_store_gemm)),
      detail::hopper_gemm_rung(
          rung(6, "hopper_gemm", "4 stages, streamed stmatrix epilogue", &hopper_gemm)),
      detail::portable_gemm_rung(rung(7, "portable_gemm",
                                      "the ring with mma.sync consumers: any GPU with TMA",
                                      &portable_gemm)),
  };
  return ladder;
}
//! [rungs]

}  // namespace lesson11