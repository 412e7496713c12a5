// Lesson 11: your functions of pipeline_exercises.cuh as this library compiled them, for the grader
// (tma_pipeline.hpp), which is compiled once and linked against the exercise or the solution
// library. Plain C++, no kernel: a save compiles it in a moment.
#include "pipeline_exercises.cuh"
#include "ring_model.hpp"
#include "tma_pipeline.hpp"

#include <cstdint>

namespace lesson11::compiled {

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

}  // namespace lesson11::compiled
