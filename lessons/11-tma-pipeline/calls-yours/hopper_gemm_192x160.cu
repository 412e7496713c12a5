// Lesson 11: the headline's second tile, 192 x 160, for the shapes it fits better than 128 x 256
// (headline_tile_for, tile_order.hpp). Given code that calls yours, compiled into both the exercise
// and the solution library with that library's pipeline_exercises.cuh, in a file of its own so
// that it compiles in parallel with hopper_gemm.cu.
#include "pipeline_exercises.cuh"
#include "ring_gemm.cuh"
#include "tma_pipeline.hpp"

namespace lesson11 {

namespace {

//! [config_192x160]
// Three wgmma consumer warpgroups of 64 x 160 (80 accumulators a thread), 4 stages of 44 KiB and 6
// staging boxes (the epilogue's slices are 32 columns wide) = 224 KiB. 512 threads: 128 registers
// each at launch; the producer keeps 40 and the consumers get 152 (40 x 128 + 152 x 384 = 63488).
using Tile192x160 =
    RingConfig<WgmmaConsumer<192, 160, 3>, 4, Epilogue::kStreamed, true, 1, 1, 0, 40, 152>;
//! [config_192x160]

}  // namespace

namespace detail {
void gemm_192x160(const char* name, TileSchedule schedule, int M, int N, int K, float alpha,
                  const bf16* A, const bf16* B, float beta, bf16* C) {
  launch_ring<Tile192x160>(name, &ring_gemm_kernel<Tile192x160>, schedule, M, N, K, alpha, A, B,
                           beta, C);
}
Rung gemm_192x160_rung(Rung r) {
  return describing<Tile192x160>(r);
}
}  // namespace detail

}  // namespace lesson11
