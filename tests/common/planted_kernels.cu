#include "planted_kernels.hpp"

#include "common/check.hpp"
#include "common/device.hpp"
#include "common/verify.hpp"

#include <cuda_bf16.h>

#include <cstdint>
#include <stdexcept>

namespace planted {
namespace {

constexpr unsigned kFullMask = 0xFFFFFFFFu;

__global__ void faulty_sgemm(Fault fault, int M, int N, int K, float alpha, const float* A,
                             const float* B, float beta, float* C, long c_limit) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (fault == Fault::kSwappedRoles) {  // x used as the row
    row = blockIdx.x * blockDim.x + threadIdx.x;
    col = blockIdx.y * blockDim.y + threadIdx.y;
  }
  const bool inside = row < M && col < N;
  if (!inside && fault != Fault::kNoWriteGuard) return;
  if (col >= N) return;  // even the unguarded kernel keeps its column in range
  float acc = 0.0f;
  if (inside) {
    const int a_row =
        fault == Fault::kSecondSubTile && row % 64 >= 16 && row % 64 < 32 ? row - 16 : row;
    for (int k = 0; k < K; k += fault == Fault::kKStride2 ? 2 : 1) {
      float a = A[a_row * K + k];
      if (fault == Fault::kWrongLdA) {
        const long x = static_cast<long>(row) * N + k;  // N where K belongs
        a = x < static_cast<long>(M) * K ? A[x] : 0.0f;
      }
      float b = B[k * N + col];
      if (fault == Fault::kBTransposed) {
        const long y = static_cast<long>(col) * K + k;  // B taken as N x K
        b = y < static_cast<long>(K) * N ? B[y] : 0.0f;
      }
      acc += a * b;
    }
    if (fault == Fault::kAlphaTwice) acc *= alpha;
  }
  switch (fault) {
    case Fault::kTransposed:
      C[col * M + row] = alpha * acc + (beta != 0.0f ? beta * C[col * M + row] : 0.0f);
      break;
    case Fault::kIgnoresBeta:
      C[row * N + col] = alpha * acc + C[row * N + col];
      break;
    case Fault::kReadsCWhenBeta0:
      C[row * N + col] = alpha * acc + beta * C[row * N + col];
      break;
    case Fault::kWrongLdC: {
      const long x = static_cast<long>(row) * K + col;  // K where N belongs
      if (x < c_limit) C[x] = alpha * acc + (beta != 0.0f ? beta * C[x] : 0.0f);
      break;
    }
    default:
      C[row * N + col] = alpha * acc + (beta != 0.0f && inside ? beta * C[row * N + col] : 0.0f);
  }
}

// A textbook shared-memory tiled kernel, but its K loop rounds the tile count down.
constexpr int kTile = 16;
__global__ void tiled_skips_k_tail(int M, int N, int K, float alpha, const float* A, const float* B,
                                   float beta, float* C) {
  __shared__ float As[kTile][kTile], Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < K / kTile; ++t) {  // the fault: (K + kTile - 1) / kTile belongs here
    const int ka = t * kTile + tx, kb = t * kTile + ty;
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + (beta != 0.0f ? beta * C[row * N + col] : 0.0f);
}

// Lesson 08's 2 x 2 cooperative outer product: quad lane q owns C[r0 + q / 2][c0 + q % 2]; lanes
// 0, 1 load A[r0][k], A[r0 + 1][k], lanes 2, 3 B[k][c0], B[k][c0 + 1]; 64 quads per 16 x 16 tile.
__global__ void quad_wrong_source(int M, int N, int K, float alpha, const float* A, const float* B,
                                  float beta, float* C) {
  const int q = threadIdx.x % 4, quad = threadIdx.x / 4;
  const int r0 = blockIdx.y * 16 + 2 * (quad / 8), c0 = blockIdx.x * 16 + 2 * (quad % 8);
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float v = 0.0f;
    if (q < 2) {
      if (r0 + q < M) v = A[(r0 + q) * K + k];
    } else if (c0 + q - 2 < N) {
      v = B[k * N + c0 + q - 2];
    }
    const float a = __shfl_sync(kFullMask, v, q % 2, 4);  // the fault: q / 2 belongs here
    const float b = __shfl_sync(kFullMask, v, 2 + q % 2, 4);
    acc += a * b;
  }
  const int row = r0 + q / 2, col = c0 + q % 2;
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + (beta != 0.0f ? beta * C[row * N + col] : 0.0f);
}

// ---- bf16 on tensor cores
// ------------------------------------------------------------------------

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ __forceinline__ std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
#endif

// One warp per 16 x 16 tile of C: two m16n8k16 per step of 16 along K, operands from zero-filled
// shared tiles through ldmatrix.x4 (A: rows x k; B: a row per column n, k along the row).
__global__ void mma_bf16(Bf16Fault fault, int M, int N, int K, float alpha, const course::bf16* A,
                         const course::bf16* B, float beta, course::bf16* C) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __shared__ __align__(16) course::bf16 As[16][16];
  __shared__ __align__(16) course::bf16 Bs[16][16];
  const int lane = threadIdx.x, row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;
  float acc[2][4] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = lane; e < 256; e += 32) {
      const int r = e / 16, c = e % 16;
      As[r][c] = (row0 + r < M && k0 + c < K) ? A[static_cast<long>(row0 + r) * K + k0 + c]
                                              : __float2bfloat16(0.0f);
      Bs[r][c] = (col0 + r < N && k0 + c < K) ? B[static_cast<long>(col0 + r) * K + k0 + c]
                                              : __float2bfloat16(0.0f);
    }
    __syncwarp();
    // ldmatrix.x4: lane L gives the address of row L % 8 of matrix L / 8; matrix q becomes
    // register q. A's register q is rows 8 (q % 2) .., k 8 (q / 2) ..
    int q = lane / 8;
    if (fault == Bf16Fault::kARegistersSwapped && (q == 1 || q == 2)) q = 3 - q;  // the fault
    std::uint32_t a[4], b[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(smem_address(&As[8 * (q % 2) + lane % 8][8 * (q / 2)])));
    // B's matrices: 0 and 1 are k 0-7 and 8-15 of columns 0-7, 2 and 3 those of columns 8-15.
    const int qb = lane / 8;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                 : "r"(smem_address(&Bs[8 * (qb / 2) + lane % 8][8 * (qb % 2)])));
    for (int n8 = 0; n8 < 2; ++n8) {
      float* d = acc[n8];
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
          "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * n8]), "r"(b[2 * n8 + 1]));
    }
    __syncwarp();
  }
  // The accumulators: c0, c1 at row group, c2, c3 at row group + 8; columns 2 (lane % 4) + i % 2.
  const int group = lane / 4, tig = lane % 4;
  for (int n8 = 0; n8 < 2; ++n8)
    for (int i = 0; i < 4; ++i) {
      int r = group + 8 * (i / 2);
      if (fault == Bf16Fault::kCRowsSwapped) r ^= 8;  // the fault
      const int row = row0 + r, col = col0 + n8 * 8 + 2 * tig + i % 2;
      if (row >= M || col >= N) continue;
      course::bf16& c = C[static_cast<long>(row) * N + col];
      const float old = beta != 0.0f ? beta * __bfloat162float(c) : 0.0f;
      c = __float2bfloat16(alpha * acc[n8][i] + old);
    }
#else
  (void)fault, (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
  __trap();
#endif
}

}  // namespace

void sgemm(Fault fault, int M, int N, int K, float alpha, const float* A, const float* B,
           float beta, float* C) {
  const dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  switch (fault) {
    case Fault::kSkipsKTail:
      tiled_skips_k_tail<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
      break;
    case Fault::kQuadWrongSource:
      quad_wrong_source<<<grid, 256>>>(M, N, K, alpha, A, B, beta, C);
      break;
    default: {
      if (fault == Fault::kGridTooSmall)
        grid = dim3(N / 16 > 0 ? N / 16 : 1, M / 16 > 0 ? M / 16 : 1);
      // C and its canary band after it: the most a stray store may reach.
      const long c_limit = static_cast<long>(M) * N + static_cast<long>(course::guard_band(M, N));
      faulty_sgemm<<<grid, block>>>(fault, M, N, K, alpha, A, B, beta, C, c_limit);
    }
  }
  CHECK_LAUNCH();
}

void gemm_bf16(Bf16Fault fault, int M, int N, int K, float alpha, const course::bf16* A,
               const course::bf16* B, float beta, course::bf16* C) {
  if (course::current_device_info().cc() < 80)
    throw std::runtime_error("planted::gemm_bf16 needs compute capability 8.0");
  mma_bf16<<<dim3((N + 15) / 16, (M + 15) / 16), 32>>>(fault, M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
}

}  // namespace planted
