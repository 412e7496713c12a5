// Lesson 11's lab: the variants of the last rungs that the chapter measures against the headline,
// and that lost (ping-pong consumers, stream-K, staggered consumers, the Hilbert order, clusters
// with TMA multicast, 256 x 128 tiles). `make lesson-11 ARGS=--sweep` checks and times them.
//
// Given code built apart from the ladder (the target lesson11_lab), from the kernel of gemm/, the
// lab's own policies (policies.cuh) and the *reference solution's* pipeline_exercises.cuh: the lab
// measures designs, so a save of your file never rebuilds it. Its launchers check the protocol
// they are compiled with on the CPU before their first launch, as the ladder's do.
//
// What it compiles of the ladder's headers is named for the reference (lesson11::reference, as
// your build's is lesson11::yours: common/library.hpp), so the lesson's program, which links the
// lab and your library, never takes one for the other. Its variants are in namespace lesson11::lab.
#pragma once

#include "../tma_pipeline.hpp"  // Rung
#include "tile_orders.hpp"      // TileOrder

#include <vector>

namespace lesson11::lab {

/// The variants of the last rungs (`make lesson-11 ARGS=--sweep`), each checked and timed.
const std::vector<Rung>& variants();

struct Schedule;  // launch.cuh

/// A persistent launcher that walks the tiles as a Schedule says.
using ScheduledLauncher = void (*)(Schedule, int, int, int, float, const bf16*, const bf16*, float,
                                   bf16*);

/// Rung 5's kernel (3 stages and a whole staging tile; the register epilogue when N % 8 != 0).
void staged_store_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                       const bf16* B, float beta, bf16* C);
/// Rung 5 with one tile per block instead of a persistent grid.
void staged_store_one_tile_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B,
                                float beta, bf16* C);
/// Rung 5 on clusters of two blocks on vertically adjacent tiles, which share their B tile (each
/// block loads half of it and TMA multicasts it to both); `poll`: waits with test_wait.
void clustered_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                    bf16* C);
void clustered_poll_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
                         bf16* C);

// The ring with wgmma consumers (gemm/ring_gemm.cuh) in other configurations. Each takes
// the register epilogue when N % 8 != 0; the schedule may split the last wave along K.

/// 128 x 256 tiles, 4 stages, staging written with stmatrix: the headline's kernel.
void cooperative_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                      const bf16* B, float beta, bf16* C);
/// The same, staging written with st.shared.
void cooperative_st_shared_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                                const bf16* B, float beta, bf16* C);
/// The second consumer starting 1200 clock cycles after the first.
void cooperative_staggered_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                                const bf16* B, float beta, bf16* C);
/// 192 x 160 tiles (three consumers of 64 x 160), 4 stages, stmatrix, slices of 32 columns: the
/// headline's tile where it fits the shape better, here at every shape.
void cooperative_192x160_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                              const bf16* B, float beta, bf16* C);
/// Clusters of two tiles adjacent along M, which share B by TMA multicast.
void cooperative_multicast_b_gemm(Schedule schedule, int M, int N, int K, float alpha,
                                  const bf16* A, const bf16* B, float beta, bf16* C);
/// 256 x 128 tiles (each consumer 128 x 128 as two m64n128 wgmma results), 4 stages, stmatrix.
void cooperative_256x128_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                              const bf16* B, float beta, bf16* C);
/// 256 x 128 on clusters of two tiles adjacent along N, which share A.
void cooperative_256x128_multicast_a_gemm(Schedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C);
/// 256 x 128 on clusters of two tiles adjacent along M, which share B.
void cooperative_256x128_multicast_b_gemm(Schedule schedule, int M, int N, int K, float alpha,
                                          const bf16* A, const bf16* B, float beta, bf16* C);
/// Ping-pong: each consumer owns whole 128 x 128 tiles, the two take turns at the tensor cores so
/// that one's epilogue overlaps the other's K loop; 6 stages, stmatrix; whole tiles only.
void pingpong_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                   const bf16* B, float beta, bf16* C);

}  // namespace lesson11::lab
