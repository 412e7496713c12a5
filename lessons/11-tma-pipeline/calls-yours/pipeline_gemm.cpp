// Lesson 11: the table of rungs and what every launcher does with your code before its first
// launch. Given code that calls yours, compiled into both the exercise and the solution library,
// each time with that library's pipeline_exercises.cuh: plain C++, no kernel, so that a save
// compiles it in a moment. The headline, the portable rung and rungs 3
// and 4's kernel are in hopper_gemm.cu, rungs 1 to 5 in pipeline_gemm_part2.cu; what calls nothing
// of yours in launch_support.cu. Before its first launch a launcher checks your ring on the CPU
// model (ring_model.hpp) and your expected byte count against the boxes it asks TMA for, so a
// protocol mistake is an error message, not a hung GPU.
#include "pipeline_exercises.cuh"
#include "ring_model.hpp"
#include "tma_pipeline.hpp"

#include "common/device.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace lesson11 {

// The launchers' helpers, shared with the launchers compiled in other files (declared in
// tma_pipeline.hpp).
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

//! [rungs]
// Rungs 1 to 5 are in pipeline_gemm_part2.cu. A save's grader (COURSE_QUICK) compiles the last two
// rungs alone: they run every function you write, and the others follow once they pass.
const std::vector<Rung>& rungs() {
  static const std::vector<Rung> ladder = [] {
    std::vector<Rung> l;
#ifndef COURSE_QUICK
    l = detail::rungs_1_to_5();
#endif
    l.push_back(detail::hopper_gemm_rung(
        detail::rung(6, "hopper_gemm", "4 stages, streamed stmatrix epilogue", &hopper_gemm)));
    l.push_back(detail::portable_gemm_rung(detail::rung(
        7, "portable_gemm", "the ring with mma.sync consumers: any GPU with TMA", &portable_gemm)));
    return l;
  }();
  return ladder;
}
//! [rungs]

}  // namespace lesson11