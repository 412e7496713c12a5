// Lesson 11's lab: the ping-pong kernel (pingpong_gemm.cuh), built with the reference solution
// (lab.hpp).
#include "lab.hpp"
#include "launch.cuh"
#include "pingpong_gemm.cuh"

namespace lesson11::lab {

namespace {

//! [pingpong_configs]
// 6 stages of 32 KiB + 4 staging boxes of 8 KiB = 224 KiB; without the staging boxes, 7 stages.
using PingPong = PingPongConfig<6, StreamedEpilogue<>>;
using PingPongDirect = PingPongConfig<7, RegistersEpilogue>;
//! [pingpong_configs]

}  // namespace

void pingpong_gemm(Schedule schedule, int M, int N, int K, float alpha, const bf16* A,
                   const bf16* B, float beta, bf16* C) {
  if (N % 8 == 0) {
    launch<PingPong>("pingpong_gemm", &pingpong_gemm_kernel<PingPong>, schedule, M, N, K, alpha, A,
                     B, beta, C);
  } else {
    launch<PingPongDirect>("pingpong_gemm", &pingpong_gemm_kernel<PingPongDirect>, schedule, M, N,
                           K, alpha, A, B, beta, C);
  }
}

}  // namespace lesson11::lab
