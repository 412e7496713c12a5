// Lesson 09: the final FP32 SGEMM's kernel, its launcher and the entry of a configuration in the
// table of variants. Given code that calls yours: the kernel stores and reads its A tile through
// your padded_index, Swizzle and swizzled_a_index. Included by the files that compile the
// configurations, a file a line of LESSON09_CONFIGS, which the build writes twice: with your
// exercises/09-swizzling/swizzle_parts.cuh (what `make lesson-9` runs and `make grade-9` grades)
// and with the reference, solutions/09-swizzling/swizzle_parts.cuh.
#pragma once

#include "swizzle_parts.cuh"  // yours: padded_index, Swizzle, swizzled_a_index

#include "swizzled_config.cuh"

#include "lessons/09-swizzling/cp_async.cuh"

#include "common/check.hpp"
#include "common/gemm.hpp"
#include "common/variants.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson09 {

namespace {

//! [kernel]
template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
    swizzled_sgemm_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                          const float* __restrict__ B, float beta, float* __restrict__ C,
                          bool vec) {
  // Dynamic shared memory: STAGES A tiles, then STAGES B tiles. More than 48 KB needs the
  // launcher's opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize); up to 227 KB on the H100.
  extern __shared__ __align__(128) float smem[];
  const char* const As = reinterpret_cast<const char*>(smem);
  const char* const Bs = As + sizeof(float) * T::STAGES * T::kAStage;
  const std::uint32_t as_u32 = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  const std::uint32_t bs_u32 = as_u32 + sizeof(float) * T::STAGES * T::kAStage;
  constexpr std::uint32_t kAStageBytes = sizeof(float) * T::kAStage;
  constexpr std::uint32_t kBStageBytes = sizeof(float) * T::kBStage;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int row0 = blockIdx.y * T::BM, col0 = blockIdx.x * T::BN;
  //! [kernel]

  //! [copies]
  // ---- The copies. Thread tid's first copy of A and first quad of B (a_copy_coords,
  // b_quad_coords); its other copies sit at fixed offsets from them, in global memory (whole rows
  // further down) and in the tile (a_index moves by whole panels and groups of 8 rows as the
  // plain index does: check_layout verifies it), so a stage's copies cost an add each.
  int ca_k, ca_m, cb_k, cb_n;
  a_copy_coords<T>(tid, 0, ca_k, ca_m);
  b_quad_coords<T>(tid, 0, cb_k, cb_n);
  const std::uint32_t a_dst = as_u32 + 4u * a_index<T>(ca_k, ca_m);
  const std::uint32_t b_dst = bs_u32 + 4u * (cb_k * T::BN + cb_n);
  // The sources of the next tile to load, moved on by one tile after each load.
  const float* a_src = A + static_cast<std::size_t>(row0 + ca_m) * K + ca_k;
  const float* b_src = B + static_cast<std::size_t>(cb_k) * N + (col0 + cb_n);
  // The copies of one stage. Checked: copies outside A or B become zeros (src_bytes 0, and a
  // source address that exists). Not checked: every copy lies inside A and B.
  auto load = [&](auto checked, int stage, int tile) {
    const std::uint32_t a_st = a_dst + stage * kAStageBytes;
    const std::uint32_t b_st = b_dst + stage * kBStageBytes;
    if constexpr (!decltype(checked)::value) {
#pragma unroll
      for (int i = 0; i < T::kACopies; ++i) {
        const int dk = a_copy_k<T>(i), dm = a_copy_m<T>(i);
        cp_async_4(a_st + 4u * (a_index<T>(dk, dm) - a_index<T>(0, 0)),
                   a_src + static_cast<std::size_t>(dm) * K + dk, 4);
      }
#pragma unroll
      for (int i = 0; i < T::kBQuads; ++i) {
        cp_async_16(b_st + 4u * (b_copy_k<T>(i) * T::BN),
                    b_src + static_cast<std::size_t>(b_copy_k<T>(i)) * N, 16);
      }
    } else {
      const int k0 = tile * T::BK;
#pragma unroll
      for (int i = 0; i < T::kACopies; ++i) {
        const int dk = a_copy_k<T>(i), dm = a_copy_m<T>(i);
        const bool ok = row0 + ca_m + dm < M && k0 + ca_k + dk < K;
        cp_async_4(a_st + 4u * (a_index<T>(dk, dm) - a_index<T>(0, 0)),
                   ok ? a_src + static_cast<std::size_t>(dm) * K + dk : A, ok ? 4 : 0);
      }
      if (vec) {  // N % 4 == 0: a quad lies wholly inside B or wholly outside
#pragma unroll
        for (int i = 0; i < T::kBQuads; ++i) {
          const bool ok = k0 + cb_k + b_copy_k<T>(i) < K && col0 + cb_n < N;
          cp_async_16(b_st + 4u * (b_copy_k<T>(i) * T::BN),
                      ok ? b_src + static_cast<std::size_t>(b_copy_k<T>(i)) * N : B, ok ? 16 : 0);
        }
      } else {  // one float at a time: any N, any alignment
        const std::uint32_t b_base = bs_u32 + stage * kBStageBytes;
#pragma unroll
        for (int i = 0; i < T::kBCopies; ++i) {
          const int e = tid + i * T::kThreads, k = e / T::BN, n = e % T::BN;
          const bool ok = k0 + k < K && col0 + n < N;
          cp_async_4(b_base + 4u * (k * T::BN + n),
                     ok ? B + static_cast<std::size_t>(k0 + k) * N + (col0 + n) : B, ok ? 4 : 0);
        }
      }
    }
    a_src += T::BK;
    b_src += static_cast<std::size_t>(T::BK) * N;
  };
  //! [copies]

  //! [compute]
  // ---- This thread's place in C: its warp tile, then its 4 x 8 lane position. Its rows are
  // a_m + 16 i + r and its columns b_n + 32 j + c (i < TM / 4, j < TN / 4, r, c < 4).
  const int a_m = (warp / T::WARPS_N) * T::WM + 4 * lane_row(lane);
  const int b_n = (warp % T::WARPS_N) * T::WN + 4 * lane_col(lane);
  // Where its float4s of A are, in bytes, for the first kPeriod rows of k. The layout repeats
  // every kPeriod rows (8 for the swizzle, whose XOR uses k % 8; 1 otherwise) up to a fixed offset,
  // so these registers and a constant give every row.
  constexpr int kPeriod = T::LAYOUT == ALayout::kSwizzled ? 8 : 1;
  std::uint32_t a_rd[kPeriod][T::TM / 4];
#pragma unroll
  for (int r = 0; r < kPeriod; ++r)
#pragma unroll
    for (int i = 0; i < T::TM / 4; ++i) a_rd[r][i] = 4u * a_index<T>(r, a_m + 16 * i);
  const std::uint32_t b_rd = 4u * b_n;

  float acc[T::TM][T::TN];
#pragma unroll
  for (int i = 0; i < T::TM; ++i)
#pragma unroll
    for (int j = 0; j < T::TN; ++j) acc[i][j] = 0.0f;

  // One stage's outer products: for each k of the slice, TM values of A and TN of B from shared
  // memory (float4 loads) and TM x TN FMAs from registers. The values for k + 1 are loaded
  // before the FMAs of k, so the loads are under way while the FMAs issue.
  auto compute = [&](int stage) {
    const char* a_tile = As + stage * kAStageBytes;
    const char* b_tile = Bs + stage * kBStageBytes + b_rd;
    float a[2][T::TM], b[2][T::TN];
    auto fetch = [&](int buf, int kk) {
      // The row's offset beyond the first kPeriod rows: a constant once kk is unrolled.
      constexpr int kRow0 = 0;
      const int shift = 4 * (a_index<T>(kk, kRow0) - a_index<T>(kk % kPeriod, kRow0));
#pragma unroll
      for (int i = 0; i < T::TM / 4; ++i) {
        const float4 v = *reinterpret_cast<const float4*>(a_tile + a_rd[kk % kPeriod][i] + shift);
        a[buf][4 * i] = v.x, a[buf][4 * i + 1] = v.y, a[buf][4 * i + 2] = v.z;
        a[buf][4 * i + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < T::TN / 4; ++j) {
        const float4 v = *reinterpret_cast<const float4*>(b_tile + 4 * (kk * T::BN + 32 * j));
        b[buf][4 * j] = v.x, b[buf][4 * j + 1] = v.y, b[buf][4 * j + 2] = v.z;
        b[buf][4 * j + 3] = v.w;
      }
    };
    fetch(0, 0);
#pragma unroll
    for (int kk = 0; kk < T::BK; ++kk) {
      if (kk + 1 < T::BK) fetch((kk + 1) & 1, kk + 1);
#pragma unroll
      for (int i = 0; i < T::TM; ++i)
#pragma unroll
        for (int j = 0; j < T::TN; ++j) acc[i][j] = fmaf(a[kk & 1][i], b[kk & 1][j], acc[i][j]);
    }
  };
  //! [compute]

  //! [pipeline]
  // The main loop, for a block with checked or unchecked copies.
  const int k_tiles = (K + T::BK - 1) / T::BK;
  auto main_loop = [&](auto checked) {
    if constexpr (T::STAGES == 1) {
      // No overlap: copy, wait, compute, and wait again before the next copy overwrites the tile.
      for (int t = 0; t < k_tiles; ++t) {
        load(checked, 0, t);
        cp_async_commit();
        cp_async_wait<0>();
        __syncthreads();
        compute(0);
        __syncthreads();
      }
    } else {
      // The pipeline. Before the loop, STAGES - 1 tiles are put in flight, one commit group each.
      // At step t: wait until tile t has landed (at most STAGES - 2 younger groups may still be
      // in flight), then one barrier, which does two jobs: every thread's copies of tile t are
      // visible to all, and every warp has finished computing tile t - 1, whose buffer the copies
      // issued next (tile t + STAGES - 1) overwrite. Then compute tile t while they fly.
      for (int s = 0; s < T::STAGES - 1; ++s) {
        if (s < k_tiles) load(checked, s, s);
        cp_async_commit();  // an empty group past the end keeps the count of groups uniform
      }
      int stage = 0;  // t % STAGES, the stage computed; the one loaded is the stage before it
      for (int t = 0; t < k_tiles; ++t) {
        cp_async_wait<T::STAGES - 2>();
        __syncthreads();
        if (t + T::STAGES - 1 < k_tiles) {
          load(checked, stage == 0 ? T::STAGES - 1 : stage - 1, t + T::STAGES - 1);
        }
        cp_async_commit();
        compute(stage);
        stage = stage == T::STAGES - 1 ? 0 : stage + 1;
      }
    }
  };
  // A whole tile of C inside the matrix, whole stages along K and float4 access allowed: no copy
  // of the block can fall outside A or B, and none is checked. Any other block checks them all.
  if (vec && row0 + T::BM <= M && col0 + T::BN <= N && K % T::BK == 0) {
    main_loop(std::false_type{});
  } else {
    main_loop(std::true_type{});
  }
  //! [pipeline]

  // ---- The epilogue: C = alpha * acc + beta * C, C read only when beta != 0. With N % 4 == 0
  // and C 16-byte aligned, a row's four columns are one float4 (inside C or wholly outside).
#pragma unroll
  for (int i = 0; i < T::TM; ++i) {
    const int row = row0 + a_m + 16 * (i / 4) + (i % 4);
    if (row >= M) continue;
    float* c_row = C + static_cast<std::size_t>(row) * N;
#pragma unroll
    for (int j = 0; j < T::TN / 4; ++j) {
      const int col = col0 + b_n + 32 * j;
      const float* r = &acc[i][4 * j];
      if (vec) {
        if (col < N) {
          float4 out = make_float4(alpha * r[0], alpha * r[1], alpha * r[2], alpha * r[3]);
          float4* c = reinterpret_cast<float4*>(c_row + col);
          if (beta != 0.0f) {
            const float4 old = *c;
            out.x += beta * old.x, out.y += beta * old.y, out.z += beta * old.z,
                out.w += beta * old.w;
          }
          *c = out;
        }
      } else {
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          if (col + c < N) {
            float* p = c_row + col + c;
            *p = beta == 0.0f ? alpha * r[c] : alpha * r[c] + beta * *p;
          }
        }
      }
    }
  }
}

// ---- Launching ----------------------------------------------------------------------------------

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

//! [check_layout]
// Before the first launch of a layout, on the host: every element of one stage of the A tile must
// get its own index inside the stage. A stub throws course::NotImplemented here; a layout that
// maps two elements to one place would make the kernel overwrite part of its tile, and is
// reported instead of a wrong C. The kernel also relies on two regularities that the three layouts
// share (it turns them into constant offsets): moving by whole groups of 8 along k and by whole
// panels of 32 along m moves the index as it moves (0, 0); and row k is row k % 8 (the swizzle's
// period) moved by a fixed amount.
template <class T>
void check_layout() {
  static const bool checked = [] {
    if (T::LAYOUT == ALayout::kPlain) return true;
    const std::string name = std::string(layout_name(T::LAYOUT)) + " A tile " +
                             std::to_string(T::BK) + " x " + std::to_string(T::BM);
    auto at = [](int k, int m) {
      return "(k, m) = (" + std::to_string(k) + ", " + std::to_string(m) + ")";
    };
    std::vector<int> owner(T::kAStage, -1);
    for (int k = 0; k < T::BK; ++k) {
      for (int m = 0; m < T::BM; ++m) {
        const int idx = a_index<T>(k, m);
        const std::string where = name + ": " + at(k, m) + " goes to index " + std::to_string(idx);
        if (idx < 0 || idx >= T::kAStage) {
          throw std::logic_error(where + ", outside the stage of " + std::to_string(T::kAStage) +
                                 " floats");
        }
        if (owner[idx] >= 0) {
          throw std::logic_error(where + ", which " + at(owner[idx] / T::BM, owner[idx] % T::BM) +
                                 " has already: the layout must be a bijection");
        }
        owner[idx] = k * T::BM + m;
        const int k0 = k % 8, m0 = m % 32;
        const int moved = a_index<T>(k0, m0) + a_index<T>(k - k0, m - m0) - a_index<T>(0, 0);
        const int period = a_index<T>(k0, m) + a_index<T>(k, 0) - a_index<T>(k0, 0);
        if (idx != moved || idx != period) {
          throw std::logic_error(where + ", not where the kernel expects it (" +
                                 std::to_string(moved) +
                                 "): the layout must move with whole "
                                 "panels of 32 columns and repeat every 8 rows");
        }
      }
    }
    return true;
  }();
  (void)checked;
}
//! [check_layout]

//! [launch]
template <class T>
void run_tile(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
              float* C) {
  course::require_gemm_shape("swizzled_sgemm", M, N, K, (static_cast<long>(M) + T::BM - 1) / T::BM);
  check_layout<T>();
  // Above 48 KB of dynamic shared memory a kernel must opt in, once per device.
  course::allow_dynamic_shared_memory(reinterpret_cast<const void*>(&swizzled_sgemm_kernel<T>),
                                      T::kSmemBytes);
  // float4 copies of B and float4 writes of C need every row of B and C to start 16-byte aligned.
  const bool vec = N % 4 == 0 && aligned16(B) && aligned16(C);
  const dim3 grid((N + T::BN - 1) / T::BN, (M + T::BM - 1) / T::BM);
  swizzled_sgemm_kernel<T>
      <<<grid, T::kThreads, T::kSmemBytes>>>(M, N, K, alpha, A, B, beta, C, vec);
  CHECK_LAUNCH();
}
//! [launch]

// The shared-memory accesses of one stage of configuration T (see final_kernel_shared_accesses).
template <class T>
std::vector<SharedAccess> shared_accesses_of() {
  constexpr int kWarps = T::kThreads / 32;
  SharedAccess a_store{"A store (cp.async, 4 B)", 4, {}};
  SharedAccess a_load{"A load (LDS.128)", 16, {}};
  SharedAccess b_store{"B store (cp.async, 16 B)", 16, {}};
  SharedAccess b_load{"B load (LDS.128)", 16, {}};
  for (int w = 0; w < kWarps; ++w) {
    for (int i = 0; i < T::kACopies; ++i) {
      WarpAddresses addr{};
      for (int lane = 0; lane < 32; ++lane) {
        int k, m;
        a_copy_coords<T>(32 * w + lane, i, k, m);
        addr[lane] = 4u * static_cast<std::uint32_t>(a_index<T>(k, m));
      }
      a_store.warps.push_back(addr);
    }
    for (int i = 0; i < T::kBQuads; ++i) {
      WarpAddresses addr{};
      for (int lane = 0; lane < 32; ++lane) {
        int k, n;
        b_quad_coords<T>(32 * w + lane, i, k, n);
        addr[lane] = 4u * static_cast<std::uint32_t>(k * T::BN + n);
      }
      b_store.warps.push_back(addr);
    }
    for (int kk = 0; kk < T::BK; ++kk) {
      for (int i = 0; i < T::TM / 4; ++i) {
        WarpAddresses addr{};
        for (int lane = 0; lane < 32; ++lane) {
          const int a_m = (w / T::WARPS_N) * T::WM + 4 * lane_row(lane);
          addr[lane] = 4u * static_cast<std::uint32_t>(a_index<T>(kk, a_m + 16 * i));
        }
        a_load.warps.push_back(addr);
      }
      for (int j = 0; j < T::TN / 4; ++j) {
        WarpAddresses addr{};
        for (int lane = 0; lane < 32; ++lane) {
          const int b_n = (w % T::WARPS_N) * T::WN + 4 * lane_col(lane);
          addr[lane] = 4u * static_cast<std::uint32_t>(kk * T::BN + b_n + 32 * j);
        }
        b_load.warps.push_back(addr);
      }
    }
  }
  return {a_store, a_load, b_store, b_load};
}

}  // namespace

// The entry of one configuration in sgemm_configs(), and its kernel (declared in
// calls-yours/swizzled_sgemm.cu).
template <class T>
SgemmConfig make_config(int ladder_step) {
  SgemmConfig c;
  c.name = std::to_string(T::BM) + "x" + std::to_string(T::BN) + "x" + std::to_string(T::BK) + " " +
           std::to_string(T::TM) + "x" + std::to_string(T::TN) + " s" + std::to_string(T::STAGES) +
           " " + layout_name(T::LAYOUT);
  c.kernel = reinterpret_cast<const void*>(&swizzled_sgemm_kernel<T>);
  c.threads = T::kThreads;
  c.smem_bytes = T::kSmemBytes;
  c.min_blocks = T::kMinBlocks;
  c.intensity = static_cast<double>(T::BM) * T::BN / (2.0 * (T::BM + T::BN));
  c.step = ladder_step;
  c.run = &run_tile<T>;
  c.bm = T::BM, c.bn = T::BN, c.bk = T::BK, c.warps_m = T::WARPS_M, c.warps_n = T::WARPS_N;
  c.thread_m = T::TM, c.thread_n = T::TN, c.stages = T::STAGES, c.layout = T::LAYOUT;
  c.shared_accesses = &shared_accesses_of<T>;
  return c;
}

template <class T>
const void* kernel_of() {
  return reinterpret_cast<const void*>(&swizzled_sgemm_kernel<T>);
}

}  // namespace lesson09

// Compiles one configuration, T, in namespace lesson09: its kernel, its launcher and its entry in
// the table. The build writes a file for each line of LESSON09_CONFIGS that calls it with
// the line's ladder step (unused here) and T.
#define LESSON09_CONFIG(step, ...)                    \
  template SgemmConfig make_config<__VA_ARGS__>(int); \
  template const void* kernel_of<__VA_ARGS__>();
