// Lesson 11: the launcher of the ping-pong kernel (pingpong_gemm.cuh). Given code that calls yours,
// compiled by calls-yours/pingpong_gemm.cu with each library's pipeline_exercises.cuh, apart from
// the other launchers so that the kernels compile in parallel. Include it from one file only.
#pragma once

#include "persistent_launch.cuh"
#include "pingpong_gemm.cuh"
#include "tma_pipeline.hpp"

namespace lesson11 {

namespace {

//! [pingpong_configs]
// 6 stages of 32 KiB + 4 staging boxes of 8 KiB = 224 KiB; without the staging boxes, 7 stages.
using PingPong = PingPongConfig<6, true, true>;
using PingPongDirect = PingPongConfig<7, false, false>;
//! [pingpong_configs]

}  // namespace

void pingpong_gemm(TileSchedule schedule, int M, int N, int K, float alpha, const bf16* A,
                   const bf16* B, float beta, bf16* C) {
  launch_persistent_for_n<PingPong, PingPongDirect>(
      "pingpong_gemm", &pingpong_gemm_kernel<PingPong>, &pingpong_gemm_kernel<PingPongDirect>,
      schedule, M, N, K, alpha, A, B, beta, C);
}

}  // namespace lesson11
