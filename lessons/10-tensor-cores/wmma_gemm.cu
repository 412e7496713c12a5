// Lesson 10, given code: the WMMA GEMM, the first tensor-core kernel of the course, and the
// compute-capability check of the lesson's launchers. The contract is wmma_gemm.hpp; the chapter,
// lessons/10-tensor-cores/README.md, explains it. Row-major everywhere; x is the column, y the row.
#include "wmma_gemm.hpp"

#include "common/lesson.hpp"

#include "common/check.hpp"
#include "common/gemm.hpp"

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>
#include <stdexcept>
#include <string>

// The record's minimum compute capability is the one bf16 tensor cores need.
static_assert(COURSE_LESSON_MIN_CC == lesson10::kBf16TensorCoresCc,
              "lesson 10's record (min_cc) and kBf16TensorCoresCc disagree");

namespace lesson10 {

using course::bf16;

namespace {

//! [wmma_tile]
// A block computes a 64 x 64 tile of C with 4 warps (2 x 2), each warp a 32 x 32 piece as 2 x 2
// wmma tiles of 16 x 16. Per step the block stages 32 values of k of A and of B in shared memory.
constexpr int kBM = 64, kBN = 64, kBK = 32;
constexpr int kWarpsN = 2, kThreads = 128;
// Rows of the staged tiles are padded from 32 to 40 bf16 (80 bytes): wmma::load_matrix_sync wants
// a row length that is a multiple of 8 elements and rows that do not all start in the same bank.
constexpr int kLd = kBK + 8;
constexpr int kCLd = kBN + 4;  // the fp32 tile of C on its way out, rows padded by 16 bytes
static_assert(kBN == 32 * kWarpsN && kBM == 32 * (kThreads / 32 / kWarpsN),
              "the warps cover the block's tile, 32 x 32 each");
static_assert(kLd % 8 == 0 && kCLd % 4 == 0, "wmma's leading dimensions: multiples of 16 bytes");
//! [wmma_tile]

// Only the kernel's code for compute capability 8.0 and later uses it (bf16 wmma needs 8.0; the
// code for older GPUs is a trap, never reached: the launcher refuses them).
#if __CUDA_ARCH__ >= 800
__device__ __forceinline__ uint4 load_chunk(const bf16* matrix, int rows, int K, int row, int k) {
  // One 16-byte chunk (8 bf16 along k) of a K-major matrix; zeros outside it. K % 8 == 0, so a
  // chunk lies wholly inside the matrix or wholly outside.
  if (row < rows && k < K) {
    return *reinterpret_cast<const uint4*>(matrix + static_cast<std::size_t>(row) * K + k);
  }
  return make_uint4(0, 0, 0, 0);
}
#endif

//! [wmma_kernel]
__global__ void __launch_bounds__(kThreads)
    wmma_gemm_kernel(int M, int N, int K, float alpha, const bf16* __restrict__ A,
                     const bf16* __restrict__ B, float beta, bf16* __restrict__ C, int tiles_n) {
#if __CUDA_ARCH__ >= 800
  using namespace nvcuda;
  // wmma::load_matrix_sync needs 32-byte aligned pointers: every 16-row, 16-k corner of these
  // tiles is (16 * 80 bytes, 32 bytes).
  __shared__ __align__(128) bf16 As[kBM][kLd];  // A[row0 + r][k0 + k]
  __shared__ __align__(128) bf16 Bs[kBN][kLd];  // B[col0 + n][k0 + k]: B^T's tile, column-major
  __shared__ __align__(128) float Cs[kBM][kCLd];
  const int tile_m = blockIdx.x / tiles_n, tile_n = blockIdx.x % tiles_n;
  const int row0 = tile_m * kBM, col0 = tile_n * kBN;
  const int tid = threadIdx.x, warp = tid / 32;
  const int wm = (warp / kWarpsN) * 32, wn = (warp % kWarpsN) * 32;

  // The warp's 2 x 2 accumulator tiles. What each lane holds of them is not specified: a
  // wmma::fragment is opaque, it can only be loaded, multiplied and stored whole.
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += kBK) {
    // Stage the tiles: 64 rows x 4 chunks of 16 bytes each, two chunks of A and two of B a thread.
    for (int e = tid; e < kBM * (kBK / 8); e += kThreads) {
      const int r = e / 4, c = 8 * (e % 4);
      *reinterpret_cast<uint4*>(&As[r][c]) = load_chunk(A, M, K, row0 + r, k0 + c);
      *reinterpret_cast<uint4*>(&Bs[r][c]) = load_chunk(B, N, K, col0 + r, k0 + c);
    }
    __syncthreads();
    for (int kk = 0; kk < kBK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> b[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &As[wm + 16 * i][kk], kLd);
      // B's tile holds n along rows and k along columns: as the K x N matrix wmma multiplies,
      // that is column-major with a column length of kLd.
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &Bs[wn + 16 * j][kk], kLd);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();  // everyone is done with the tiles before the next step overwrites them
  }

  // The accumulators go through shared memory: a fragment's layout is opaque, so this is the only
  // way to know which element of C each value is, and to check it against M and N.
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&Cs[wm + 16 * i][wn + 16 * j], acc[i][j], kCLd, wmma::mem_row_major);
  __syncthreads();
  for (int e = tid; e < kBM * kBN; e += kThreads) {
    const int row = row0 + e / kBN, col = col0 + e % kBN;
    if (row < M && col < N) {
      bf16* c = C + static_cast<std::size_t>(row) * N + col;
      float v = alpha * Cs[e / kBN][e % kBN];
      if (beta != 0.0f) v += beta * __bfloat162float(*c);
      *c = __float2bfloat16(v);
    }
  }
#else
  (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C, (void)tiles_n;
  __trap();  // bf16 wmma needs compute capability 8.0; the launcher refuses older GPUs
#endif
}
//! [wmma_kernel]

}  // namespace

void wmma_gemm(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta,
               bf16* C) {
  course::require_bf16_gemm_shape("wmma_gemm", M, N, K, 8, A, B, C);
  require_bf16_tensor_cores("wmma_gemm");
  const int tiles_m = (M + kBM - 1) / kBM, tiles_n = (N + kBN - 1) / kBN;
  wmma_gemm_kernel<<<tiles_m * tiles_n, kThreads>>>(M, N, K, alpha, A, B, beta, C, tiles_n);
  CHECK_LAUNCH();
}

const course::Variant<course::Bf16>& wmma_variant() {
  static const course::Variant<course::Bf16> v = [] {
    course::Variant<course::Bf16> w;
    w.name = "wmma_gemm (64x64x32)";
    w.kernel = reinterpret_cast<const void*>(&wmma_gemm_kernel);
    w.threads = kThreads;
    w.static_smem_bytes =
        sizeof(bf16) * (kBM + kBN) * kLd + sizeof(float) * kBM * kCLd;  // As, Bs, Cs
    w.min_cc = kBf16TensorCoresCc;
    w.cc_why = "bf16 tensor cores";
    w.intensity = 1.0 * kBM * kBN / (kBM + kBN);
    w.run = &wmma_gemm;
    return w;
  }();
  return v;
}

}  // namespace lesson10
