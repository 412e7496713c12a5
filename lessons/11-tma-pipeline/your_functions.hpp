// Lesson 11: the functions you write in pipeline_exercises.cuh, declared for the given code that
// calls them. Only the files that compile a kernel see their bodies (gemm/instance.cuh, the lab):
// the table of rungs and the launch helpers do not, and a save does not recompile them.
#pragma once

#include "ring_slot.hpp"

#include "common/todo.hpp"  // COURSE_HD

#include <cstdint>

namespace lesson11 {

COURSE_HD inline std::uint64_t make_smem_descriptor(std::uint32_t smem_address);
COURSE_HD inline RingSlot consumer_slot(int it, int stages);
COURSE_HD inline RingSlot producer_slot(int it, int stages);
COURSE_HD inline std::uint32_t stage_tx_bytes(int block_m, int block_n, int block_k);
COURSE_HD inline std::uint32_t empty_barrier_arrivals(int consumer_warps);

}  // namespace lesson11
