// Deliberately broken SGEMM kernels, one fault each, to prove on a real GPU that the checks of
// common/ catch and name every fault the design lists. Host launchers, SgemmFn signature.
#pragma once

namespace planted {
enum class Fault {
  kNone,             // a correct (slow) kernel
  kNoWriteGuard,     // reads are guarded, writes are not: rows >= M land in the canary band
  kTransposed,       // writes C(col, row)
  kGridTooSmall,     // rounds the block count down
  kIgnoresBeta,      // computes alpha*A*B + C
  kReadsCWhenBeta0,  // the textbook alpha*acc + beta*C, even when beta == 0
};
void sgemm(Fault fault, int M, int N, int K, float alpha, const float* A, const float* B,
           float beta, float* C);
}  // namespace planted
