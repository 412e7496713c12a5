// Lesson 06: the tuned kernels whose occupancy the lesson measures (next to lesson 05's tiled
// kernel), and the launch planner around them. Given code that calls yours: tuned_tiled_sgemm
// chooses its configuration with your calculator (occupancy.cpp) and your query_sm_limits,
// kernel_usage and choose_launch (launch_choice.cpp). The build compiles this file twice, into
// the library of your exercise and into that of the reference solution.
//
// Row-major everywhere; x is the column, y the row.
#include "occupancy_sgemm.hpp"

#include "lessons/05-tiling/tiled_sgemm.hpp"  // lesson 05's tiled kernel (its solution)

#include "common/check.hpp"
#include "common/device.hpp"
#include "common/gemm.hpp"
#include "common/timing.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace lesson06 {

// ---- The tuned kernel family -------------------------------------------------------------------

// The threads one SM holds on the architecture being compiled: 2048 on 8.0, 9.0 and 10.x, 1024 on
// 7.5, 1536 on the others (8.6, 8.7, 8.9, 12.x). Each device pass of nvcc defines __CUDA_ARCH__;
// the host pass, which does not use launch bounds, takes 2048.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || \
    (__CUDA_ARCH__ >= 1000 && __CUDA_ARCH__ < 1100)
constexpr int kMaxThreadsPerSm = 2048;
#elif __CUDA_ARCH__ == 750
constexpr int kMaxThreadsPerSm = 1024;
#else
constexpr int kMaxThreadsPerSm = 1536;
#endif

// min_blocks blocks of `threads` per SM, or as many as one SM holds where that is fewer: a promise
// the compiler can keep (it ignores one that no SM of the architecture could hold).
constexpr int fit_min_blocks(int threads, int min_blocks) {
  return threads * min_blocks <= kMaxThreadsPerSm ? min_blocks : kMaxThreadsPerSm / threads;
}

//! [tuned_kernel]
// A BM x BN tile of C per block, BN columns of threads (a warp lies inside one row of threads),
// BM / ROWS rows of threads, each thread ROWS elements of one column, ROWS apart by BM / ROWS.
//
// Why this shape: the limit of a one-element-per-thread tiled kernel is shared memory. An SM's
// shared memory delivers one 128-byte wavefront per clock while its FP32 lanes complete four warp
// FMAs per clock; every FMA of lesson 05's kernel needs a fresh element of B per thread (a whole
// wavefront per warp), so at best a quarter of the FMA rate is reachable. Two rows per thread use
// each element of B twice. The elements of A are the same for the whole warp (one broadcast), and
// reading four consecutive k at once as a float4 makes that one load per four steps.
//
// __launch_bounds__(threads, MIN_BLOCKS) is the occupancy promise: the compiler must fit MIN_BLOCKS
// blocks per SM in the register file (at 2048 threads per SM: 32 registers per thread). An SM
// that holds fewer threads (1536 or 1024) gets as many blocks as it holds: fit_min_blocks.
template <int BM, int BN, int BK, int ROWS, int MIN_BLOCKS>
__global__ void __launch_bounds__(BN* BM / ROWS, fit_min_blocks(BN* BM / ROWS, MIN_BLOCKS))
    tuned_tile_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                      const float* __restrict__ B, float beta, float* __restrict__ C) {
  constexpr int kThreads = BN * BM / ROWS;
  constexpr int kThreadRows = BM / ROWS;  // rows of threads; a thread's rows are this far apart
  static_assert(BN % 32 == 0, "a warp must lie within one row of threads (A reads broadcast)");
  static_assert(BM % ROWS == 0 && BK % 4 == 0, "whole rows per thread, float4 steps along K");
  static_assert((BM * BK) % kThreads == 0 && (BK * BN) % kThreads == 0,
                "every thread loads the same number of elements of each tile");
  // float4 reads of As need 16-byte alignment: every row of As is BK floats, a multiple of 4.
  __shared__ __align__(16) float As[BM][BK];
  __shared__ float Bs[BK][BN];

  const int tid = threadIdx.x;
  const int tx = tid % BN;  // the column within the tile
  const int ty = tid / BN;  // the first row within the tile
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  const int col = col0 + tx;

  float acc[ROWS];
#pragma unroll
  for (int i = 0; i < ROWS; ++i) acc[i] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += BK) {
    // Load the tiles: element e of a tile goes to thread e % kThreads, so a warp reads 32
    // consecutive floats of one row (coalesced) and writes them to 32 consecutive banks.
#pragma unroll
    for (int i = 0; i < BM * BK / kThreads; ++i) {
      const int e = tid + i * kThreads;
      const int r = e / BK, c = e % BK;
      const int gr = row0 + r, gc = k0 + c;
      As[r][c] = (gr < M && gc < K) ? A[static_cast<std::size_t>(gr) * K + gc] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < BK * BN / kThreads; ++i) {
      const int e = tid + i * kThreads;
      const int r = e / BN, c = e % BN;
      const int gr = k0 + r, gc = col0 + c;
      Bs[r][c] = (gr < K && gc < N) ? B[static_cast<std::size_t>(gr) * N + gc] : 0.0f;
    }
    __syncthreads();  // the tiles are complete before anyone reads them

#pragma unroll
    for (int k = 0; k < BK; k += 4) {
      // One wavefront per warp for each element of B: consecutive tx, consecutive banks.
      const float b0 = Bs[k][tx], b1 = Bs[k + 1][tx], b2 = Bs[k + 2][tx], b3 = Bs[k + 3][tx];
#pragma unroll
      for (int i = 0; i < ROWS; ++i) {
        // The same 16 bytes for the whole warp: one broadcast covers four steps along K.
        const float4 a = *reinterpret_cast<const float4*>(&As[ty + i * kThreadRows][k]);
        acc[i] = fmaf(a.x, b0, acc[i]);
        acc[i] = fmaf(a.y, b1, acc[i]);
        acc[i] = fmaf(a.z, b2, acc[i]);
        acc[i] = fmaf(a.w, b3, acc[i]);
      }
    }
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }

#pragma unroll
  for (int i = 0; i < ROWS; ++i) {
    const int row = row0 + ty + i * kThreadRows;
    if (row < M && col < N) {
      float* c = C + static_cast<std::size_t>(row) * N + col;
      *c = (beta == 0.0f) ? alpha * acc[i] : alpha * acc[i] + beta * *c;  // C unread if beta == 0
    }
  }
}
//! [tuned_kernel]

namespace {

// Per device, once: the limits, the SM count, and each candidate's usage with its attributes set.
struct DeviceContext {
  SmLimits sm;
  int sm_count = 0;
  std::vector<LaunchCandidate> candidates;
};

const DeviceContext& context();

// Configuration <BM, BN, BK, ROWS, MIN_BLOCKS>, with `padding_smem_bytes` of dynamic shared memory
// that the kernel never touches (see tuned_config_sgemm).
template <int BM, int BN, int BK, int ROWS, int MIN_BLOCKS>
void launch_tuned(std::size_t padding_smem_bytes, int M, int N, int K, float alpha, const float* A,
                  const float* B, float beta, float* C) {
  course::require_gemm_shape("tuned_tiled_sgemm", M, N, K, (static_cast<long>(M) + BM - 1) / BM);
  context();  // attributes set (the dynamic shared-memory limit, the carve-out)
  const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  tuned_tile_kernel<BM, BN, BK, ROWS, MIN_BLOCKS>
      <<<grid, BN * BM / ROWS, padding_smem_bytes>>>(M, N, K, alpha, A, B, beta, C);
  CHECK_LAUNCH();
}

template <int BM, int BN, int BK, int ROWS, int MIN_BLOCKS>
void run_tuned(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
               float* C) {
  launch_tuned<BM, BN, BK, ROWS, MIN_BLOCKS>(0, M, N, K, alpha, A, B, beta, C);
}

// One compiled configuration: its entry in the table of variants, and its launcher with padding.
struct TunedEntry {
  TunedConfig config;
  void (*launch)(std::size_t padding_smem_bytes, int M, int N, int K, float alpha, const float* A,
                 const float* B, float beta, float* C);
};

template <int BM, int BN, int BK, int ROWS, int MIN_BLOCKS>
TunedEntry make_entry() {
  TunedEntry e;
  TunedConfig& c = e.config;
  c.name = "tuned " + std::to_string(BM) + "x" + std::to_string(BN);
  c.kernel = reinterpret_cast<const void*>(&tuned_tile_kernel<BM, BN, BK, ROWS, MIN_BLOCKS>);
  c.threads = BN * BM / ROWS;
  c.static_smem_bytes = sizeof(float) * (BM * BK + BK * BN);  // As and Bs
  c.min_blocks = MIN_BLOCKS;
  c.min_blocks_fit_sm = true;  // fit_min_blocks
  // FLOP per byte loaded from global memory: 2 BM BN / (4 (BM + BN)) for a BM x BN block tile.
  c.intensity = 2.0 * BM * BN / (4.0 * (BM + BN));
  c.run = &run_tuned<BM, BN, BK, ROWS, MIN_BLOCKS>;
  c.tile_m = BM;
  c.tile_n = BN;
  c.tile_k = BK;
  c.rows_per_thread = ROWS;
  e.launch = &launch_tuned<BM, BN, BK, ROWS, MIN_BLOCKS>;
  return e;
}

//! [configs]
// The candidates: the same kernel with 1024, 512 and 256 threads per block, each promising the
// compiler a full SM of 2048 threads (2, 4 and 8 blocks), i.e. at most 32 registers per thread
// (on an SM of 1536 threads: 1, 3 and 6 blocks).
const std::vector<TunedEntry>& entries() {
  static const std::vector<TunedEntry> list = {
      make_entry<64, 32, 32, 2, 2>(),
      make_entry<32, 32, 32, 2, 4>(),
      make_entry<16, 32, 32, 2, 8>(),
  };
  return list;
}
//! [configs]

//! [prepare]
DeviceContext prepare(int device) {
  DeviceContext ctx;
  ctx.sm = query_sm_limits(device);
  ctx.sm_count = course::current_device_info().limits.sm_count;
  for (const TunedEntry& e : entries()) {
    const void* kernel = e.config.kernel;
    KernelUsage u = kernel_usage(kernel, e.config.threads, 0);
    // Let the kernel take up to the per-block maximum of dynamic shared memory (for padding).
    CUDA_CHECK(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
        static_cast<int>(ctx.sm.smem_per_block_optin_bytes - u.static_smem_bytes)));
    // The carve-out: the smallest shared-memory configuration that still holds every block the
    // calculator allows, so the rest of the 256 KiB L1/shared block is L1 cache. p% of the
    // maximum is rounded up to the next configuration, so p = floor(100 * size / maximum).
    const Occupancy o = occupancy(ctx.sm, u);
    const std::size_t alloc = static_cast<std::size_t>(
        round_up(static_cast<long long>(u.static_smem_bytes + ctx.sm.smem_reserved_per_block_bytes),
                 static_cast<long long>(ctx.sm.smem_alloc_unit_bytes)));
    const std::size_t needed = alloc * static_cast<std::size_t>(o.blocks_per_sm);
    if (!ctx.sm.smem_capacities_kib.empty() && o.blocks_per_sm > 0) {
      const std::size_t size = smem_capacity_bytes(ctx.sm, 0, needed);
      const int percent = static_cast<int>(100 * size / ctx.sm.smem_per_sm_bytes);
      CUDA_CHECK(
          cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
      u = kernel_usage(kernel, e.config.threads, 0);  // now with the carve-out
    }
    ctx.candidates.push_back({e.config.name, e.config.tile_m, e.config.tile_n, u});
  }
  return ctx;
}
//! [prepare]

const DeviceContext& context() {
  static std::mutex mutex;
  static std::map<int, DeviceContext> contexts;
  const int device = course::current_device_info().index;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = contexts.find(device);
  if (it == contexts.end()) it = contexts.emplace(device, prepare(device)).first;
  return it->second;
}

}  // namespace

const std::vector<TunedConfig>& tuned_configs() {
  static const std::vector<TunedConfig> configs = [] {
    std::vector<TunedConfig> out;
    for (const TunedEntry& e : entries()) out.push_back(e.config);
    return out;
  }();
  return configs;
}

void prepare_tuned_kernels() {
  context();
}

std::vector<LessonKernel> lesson_kernels() {
  std::vector<LessonKernel> out(2);
  out[0].name = "tiled_sgemm<16> (lesson 05)";
  out[0].kernel = lesson05::tiled_sgemm_kernel<16>();
  out[0].threads = 16 * 16;
  out[0].static_smem_bytes = sizeof(float) * 2 * 16 * 16;  // a tile of A and one of B
  out[0].intensity = 16 / 4.0;  // TILE / 4 FLOP per byte for a TILE x TILE tile
  out[0].run = &lesson05::tiled_sgemm<16>;
  out[1].name = "tiled_sgemm<32> (lesson 05)";
  out[1].kernel = lesson05::tiled_sgemm_kernel<32>();
  out[1].threads = 32 * 32;
  out[1].static_smem_bytes = sizeof(float) * 2 * 32 * 32;
  out[1].intensity = 32 / 4.0;
  out[1].run = &lesson05::tiled_sgemm<32>;
  for (const TunedEntry& e : entries()) out.push_back(e.config);
  return out;
}

//! [plan]
TunedPlan plan_tuned_sgemm(int M, int N) {
  const DeviceContext& ctx = context();
  TunedPlan p;
  p.sm = ctx.sm;
  p.sm_count = ctx.sm_count;
  p.candidates = ctx.candidates;
  p.chosen = choose_launch(ctx.sm, ctx.sm_count, M, N, ctx.candidates);
  return p;
}

void tuned_config_sgemm(int index, std::size_t padding_smem_bytes, int M, int N, int K, float alpha,
                        const float* A, const float* B, float beta, float* C) {
  if (index < 0 || index >= static_cast<int>(entries().size())) {
    throw std::invalid_argument("tuned_config_sgemm: no configuration " + std::to_string(index));
  }
  entries()[index].launch(padding_smem_bytes, M, N, K, alpha, A, B, beta, C);
}

void tuned_tiled_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                       float* C) {
  // The grid (0: not known yet) is checked once a tile is chosen, by tuned_config_sgemm.
  course::require_gemm_shape("tuned_tiled_sgemm", M, N, K, 0);
  const TunedPlan plan = plan_tuned_sgemm(M, N);
  tuned_config_sgemm(plan.chosen, 0, M, N, K, alpha, A, B, beta, C);
}
//! [plan]

int api_blocks_per_sm(const void* kernel, int threads_per_block, std::size_t dynamic_smem_bytes) {
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads_per_block,
                                                           dynamic_smem_bytes));
  return blocks;
}

// ---- Wave quantization -------------------------------------------------------------------------

namespace {
//! [spin_kernel]
// Every block does the same fixed work: it waits `cycles` SM clocks. No memory traffic, no
// contention between blocks, so a block takes the same time wherever and whenever it runs.
__global__ void spin_block_kernel(long long cycles, int* never_written) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  // Never true (cycles > 0); keeps the compiler from treating the kernel as empty.
  if (cycles < 0 && never_written != nullptr) *never_written = 1;
}
//! [spin_kernel]
}  // namespace

const void* spin_kernel() {
  return reinterpret_cast<const void*>(&spin_block_kernel);
}

std::vector<WaveStep> measure_wave_quantization(const std::vector<long long>& grids,
                                                int threads_per_block, int blocks_per_sm,
                                                double spin_us, int reps, int warmup) {
  const course::DeviceInfo& device = course::current_device_info();
  const int clock_khz = device.sm_clock_khz, sm_count = device.limits.sm_count;
  if (clock_khz <= 0)
    throw std::runtime_error("the wave demo: the SM clock of this GPU is unknown");
  const long long cycles = static_cast<long long>(spin_us * 1e-6 * clock_khz * 1e3);
  course::TimingOptions timing;
  timing.reps = reps;
  timing.warmup = warmup;
  std::vector<WaveStep> steps;
  for (long long g : grids) {
    WaveStep s;
    s.grid_blocks = g;
    s.waves = waves(sm_count, blocks_per_sm, g);
    s.ms =
        course::time_gpu(
            [&] {
              spin_block_kernel<<<static_cast<unsigned>(g), threads_per_block>>>(cycles, nullptr);
              CHECK_LAUNCH();
            },
            timing)
            .ms();
    steps.push_back(s);
  }
  return steps;
}

}  // namespace lesson06
