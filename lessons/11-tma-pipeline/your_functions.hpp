// Lesson 11: the functions you write in pipeline_exercises.cuh, declared for the given code that
// calls them, in this library's namespace (common/library.hpp). Only the files that compile a
// kernel (gemm/instance.cuh, the lab), the grader and the figures (your_ring.hpp) see their
// bodies: the table of rungs and the launch helpers do not, and a save does not recompile them.
#pragma once

#include "ring_slot.hpp"

#include "common/library.hpp"  // COURSE_LIBRARY
#include "common/todo.hpp"     // COURSE_HD

#include <cstdint>

namespace lesson11 {
inline namespace COURSE_LIBRARY {

COURSE_HD inline std::uint64_t make_smem_descriptor(std::uint32_t smem_address);
COURSE_HD inline RingSlot consumer_slot(int it, int stages);
COURSE_HD inline RingSlot producer_slot(int it, int stages);
COURSE_HD inline std::uint32_t stage_tx_bytes(int block_m, int block_n, int block_k);
COURSE_HD inline std::uint32_t empty_barrier_arrivals(int consumer_warps);

}  // namespace COURSE_LIBRARY
}  // namespace lesson11
