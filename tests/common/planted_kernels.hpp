// Deliberately broken GEMM kernels, one fault each, to prove on a real GPU that the checks of
// common/ catch and name every fault the design lists, on the first shape of the grid that fails.
// Host launchers with the GemmFn<Fp32> / GemmFn<Bf16> signatures.
#pragma once

#include "common/gemm.hpp"

namespace planted {
enum class Fault {
  kNone,             // a correct (slow) kernel
  kNoWriteGuard,     // reads are guarded, writes are not: rows >= M land in the canary band
  kTransposed,       // writes C(col, row)
  kGridTooSmall,     // rounds the block count down
  kIgnoresBeta,      // computes alpha*A*B + C
  kReadsCWhenBeta0,  // the textbook alpha*acc + beta*C, even when beta == 0
  kSwappedRoles,     // the row taken from x and the column from y, the grid sized with x over N
  kWrongLdC,         // C indexed with row stride K instead of N (stores past the canaries dropped)
  kWrongLdA,         // A read with row stride N instead of K (reads past A give 0, to stay inside)
  kSkipsKTail,       // a 16 x 16 tiled kernel whose K loop runs K / 16 tiles, rounded down
  kQuadWrongSource,  // lesson 08's quad: quad lane q takes its A operand from lane q % 2
  // Kinds the result alone cannot name, which the probes must:
  kAlphaTwice,     // alpha * alpha * acc
  kKStride2,       // for (k = 0; k < K; k += 2): every other term lost
  kBTransposed,    // B read as B[col * K + k] (reads past B give 0, to stay inside)
  kSecondSubTile,  // rows 16..31 of every 64 computed with the A rows 16 above (a sub-tile offset)
};
void sgemm(Fault fault, int M, int N, int K, float alpha, const float* A, const float* B,
           float beta, float* C);

// bf16 kernels on mma.sync m16n8k16 with ldmatrix operands (compute capability 8.0 or newer):
// one warp per 16 x 16 tile of C.
enum class Bf16Fault {
  kNone,               // correct
  kARegistersSwapped,  // ldmatrix lanes 8-15 and 16-23 swapped: A's registers 1 and 2 exchanged
  kCRowsSwapped,       // accumulators c0, c1 stored at row group + 8 and c2, c3 at row group
};
/// \throws std::runtime_error on a device below compute capability 8.0
void gemm_bf16(Bf16Fault fault, int M, int N, int K, float alpha, const course::bf16* A,
               const course::bf16* B, float beta, course::bf16* C);
}  // namespace planted
