// Lesson 11: what every launcher of the lesson and of its lab uses that calls nothing of yours,
// defined once in launch_support.cu: the tensor maps, the SM count and the bound on every wait.
#pragma once

#include "hopper_ptx.cuh"  // ptx::WaitLimit
#include "ring_slot.hpp"

#include <cuda.h>  // CUtensorMap

#include <cstdint>
#include <string>

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

/// Your ring's functions, and what your stage_tx_bytes announces for a stage of 64 k, as one
/// kernel's file compiled them (ring_gemm.cuh: require_ready).
struct YourRing {
  RingSlot (*producer_slot)(int it, int stages);
  RingSlot (*consumer_slot)(int it, int stages);
  std::uint32_t (*empty_barrier_arrivals)(int consumer_warps);
  std::uint32_t stage_tx_bytes;
};
/// Why `yours` cannot drive a ring of `stages` stages of block_m x 64 and block_n x 64 tiles
/// released by `releasing_warps` warps ("" when it can): the announced bytes, then the CPU model
/// (ring_model.hpp).
std::string ring_error(const YourRing& yours, int block_m, int block_n, int stages,
                       int releasing_warps);
/// Throws, naming `kernel`, when this GPU cannot run it (a wgmma kernel: compute capability 9.0;
/// else TMA) or when `ring_error` is not empty.
void require_ready(const char* kernel, bool wgmma, const std::string& ring_error);

/// What an expired wait reported (`where` is 0 until one did), for a note of the lab's own waits.
const volatile ptx::WaitReport* expired_wait();

}  // namespace lesson11::detail
