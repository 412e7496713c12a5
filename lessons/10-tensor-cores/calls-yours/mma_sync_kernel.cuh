// Lesson 10: the mma.sync GEMM's kernel, its launcher, the checks of your mappings and the entry of
// a configuration in the table of variants. Given code that calls yours: the kernel calls your
// mma_stage and places C with your c_fragment_coord, the lane offsets (lane_offsets.hpp) call
// your A and B mappings. Included by the files that compile the configurations,
// a file a line of LESSON10_CONFIGS, which the build writes twice: with your
// exercises/10-tensor-cores/mma_sync_parts.cuh (what `make lesson-10` runs and `make grade-10`
// grades) and with the reference, solutions/10-tensor-cores/mma_sync_parts.cuh.
#pragma once

#include "mma_sync_parts.cuh"  // yours: the fragment mappings and mma_stage

#include "lane_offsets.hpp"  // a_ldmatrix_offset, b_ldmatrix_offset
#include "mma_sync_config.cuh"

namespace lesson10 {

// ---- The kernel (given code) -------------------------------------------------------------------

namespace {

//! [kernel]
template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
    mma_sync_gemm_kernel(int M, int N, int K, float alpha, const bf16* __restrict__ A,
                         const bf16* __restrict__ B, float beta, bf16* __restrict__ C, int tiles_m,
                         int tiles_n) {
  // Dynamic shared memory: STAGES x (A tile, B tile), later reused for C on its way out. More
  // than 48 KB needs the launcher's opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize).
  extern __shared__ __align__(128) unsigned char smem[];
  const std::uint32_t smem_u32 = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  int tile_m, tile_n;
  block_tile(blockIdx.x, tiles_m, tiles_n, tile_m, tile_n);
  const int row0 = tile_m * T::BM, col0 = tile_n * T::BN;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  //! [kernel]

  //! [copies]
  // ---- The copies: thread tid copies chunk tid % kChunks (8 values of k) of rows tid / kChunks
  // + i kCopyRows of A's and of B's tile. Rows past M or N and chunks past K become zeros
  // (cp.async with a source size of 0, from an address that exists: A or B itself).
  const int copy_row = tid / T::kChunks, copy_k = 8 * (tid % T::kChunks);
  const std::uint32_t copy_dst = copy_offset<T>(tid);
  const bf16* a_src = A + static_cast<std::size_t>(row0 + copy_row) * K + copy_k;
  const bf16* b_src = B + static_cast<std::size_t>(col0 + copy_row) * K + copy_k;
  std::uint32_t a_rows = 0, b_rows = 0;  // bit i: copy i's row lies inside A (B)
#pragma unroll
  for (int i = 0; i < T::kACopies; ++i) a_rows |= (row0 + copy_row + i * T::kCopyRows < M) << i;
#pragma unroll
  for (int i = 0; i < T::kBCopies; ++i) b_rows |= (col0 + copy_row + i * T::kCopyRows < N) << i;
  const std::size_t pass = static_cast<std::size_t>(T::kCopyRows) * K;  // a pass's rows, in A
  auto load = [&](int stage, int tile) {
    const std::uint32_t dst = smem_u32 + stage * T::kStageBytes + copy_dst;
    const bool k_in = tile * T::BK + copy_k < K;  // K % 8 == 0: a chunk is wholly in or out
    const std::size_t k0 = static_cast<std::size_t>(tile) * T::BK;
#pragma unroll
    for (int i = 0; i < T::kACopies; ++i) {
      const bool in = k_in && ((a_rows >> i) & 1);
      cp_async_16(dst + i * T::kCopyRows * T::kRowBytes, in ? a_src + k0 + i * pass : A,
                  in ? 16 : 0);
    }
#pragma unroll
    for (int i = 0; i < T::kBCopies; ++i) {
      const bool in = k_in && ((b_rows >> i) & 1);
      cp_async_16(dst + T::kAStageBytes + i * T::kCopyRows * T::kRowBytes,
                  in ? b_src + k0 + i * pass : B, in ? 16 : 0);
    }
  };
  //! [copies]

  //! [pipeline]
  // ---- The lane's ldmatrix addresses, for every step of k of a stage, and the accumulators.
  std::uint32_t a_off[T::KSTEPS], b_off[T::KSTEPS];
#pragma unroll
  for (int kk = 0; kk < T::KSTEPS; ++kk) {
    a_off[kk] = a_ldmatrix_offset<T>(warp, lane, kk);
    b_off[kk] = b_ldmatrix_offset<T>(warp, lane, kk);
  }
  float acc[T::MT][T::NT][4];
#pragma unroll
  for (int i = 0; i < T::MT; ++i)
#pragma unroll
    for (int j = 0; j < T::NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

  // The pipeline (lesson 09): STAGES - 1 tiles in flight before the loop, one commit group each.
  // At step t: wait until tile t has landed (STAGES - 2 younger groups may still fly), then one
  // barrier, which makes every thread's copies of tile t visible to all and proves that every
  // warp is done with tile t - 1, whose buffer the copies issued next overwrite.
  const int k_tiles = (K + T::BK - 1) / T::BK;
#pragma unroll
  for (int s = 0; s < T::STAGES - 1; ++s) {
    if (s < k_tiles) load(s, s);
    cp_async_commit();  // an empty group past the end keeps the count uniform
  }
  int stage = 0;  // t % STAGES
  for (int t = 0; t < k_tiles; ++t) {
    cp_async_wait<T::STAGES - 2>();
    __syncthreads();
    if (t + T::STAGES - 1 < k_tiles) {
      load(stage == 0 ? T::STAGES - 1 : stage - 1, t + T::STAGES - 1);
    }
    cp_async_commit();
    mma_stage<T>(acc, smem_u32 + stage * T::kStageBytes, a_off, b_off);
    stage = stage == T::STAGES - 1 ? 0 : stage + 1;
  }
  //! [pipeline]

  //! [epilogue]
  // ---- The epilogue. First every accumulator to its place in a bf16 tile of C in shared memory
  // (alpha and beta applied in fp32, then one rounding): your C mapping says where, and the two
  // values of a pair are neighbours in a row, one 4-byte store. Then the tile leaves in rows of
  // 16-byte chunks, a warp writing 512 contiguous bytes of a row of C at a time.
  cp_async_wait<0>();
  __syncthreads();  // every warp is done with the pipeline's buffers, which now hold C
  bf16* out = reinterpret_cast<bf16*>(smem);
  const int warp_row = (warp / T::WARPS_N) * T::WM, warp_col = (warp % T::WARPS_N) * T::WN;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const FragmentCoord c = c_fragment_coord(lane, 2 * h);  // c_{2h} and, one column on, c_{2h+1}
#pragma unroll
    for (int i = 0; i < T::MT; ++i) {
#pragma unroll
      for (int j = 0; j < T::NT; ++j) {
        const int r = warp_row + 16 * i + c.row, col = warp_col + 8 * j + c.col;
        float v0 = alpha * acc[i][j][2 * h], v1 = alpha * acc[i][j][2 * h + 1];
        if (beta != 0.0f && row0 + r < M) {
          const bf16* old = C + static_cast<std::size_t>(row0 + r) * N + col0 + col;
          if (col0 + col < N) v0 += beta * __bfloat162float(old[0]);
          if (col0 + col + 1 < N) v1 += beta * __bfloat162float(old[1]);
        }
        *reinterpret_cast<__nv_bfloat162*>(out + r * T::kOutLd + col) =
            __floats2bfloat162_rn(v0, v1);
      }
    }
  }
  __syncthreads();
  const bool vec = N % 8 == 0;  // every row of C starts 16-byte aligned: whole chunks
  constexpr int kRowChunks = T::BN / 8;
#pragma unroll 4
  for (int e = tid; e < T::BM * kRowChunks; e += T::kThreads) {
    const int r = e / kRowChunks, col = 8 * (e % kRowChunks);
    const int row = row0 + r;
    if (row >= M || col0 + col >= N) continue;
    const uint4 v = *reinterpret_cast<const uint4*>(out + r * T::kOutLd + col);
    bf16* dst = C + static_cast<std::size_t>(row) * N + col0 + col;
    if (vec) {
      *reinterpret_cast<uint4*>(dst) = v;
    } else {
      // The last chunk of a row of an odd-sized C, one value at a time (the loop is unrolled,
      // so that v stays in registers: a run-time index would put it in local memory).
      const __nv_bfloat162 pairs[4] = {*reinterpret_cast<const __nv_bfloat162*>(&v.x),
                                       *reinterpret_cast<const __nv_bfloat162*>(&v.y),
                                       *reinterpret_cast<const __nv_bfloat162*>(&v.z),
                                       *reinterpret_cast<const __nv_bfloat162*>(&v.w)};
#pragma unroll
      for (int q = 0; q < 8; ++q) {
        if (col0 + col + q < N) dst[q] = q % 2 ? pairs[q / 2].y : pairs[q / 2].x;
      }
    }
  }
  //! [epilogue]
}

// ---- Launching
// -----------------------------------------------------------------------------------

//! [check_fragments]
// Before the first launch, on the host: the kernel relies on your three mappings, so they are
// checked once against what the hardware does. A stub throws course::NotImplemented here; a wrong
// mapping is reported by the first element that breaks it instead of as a wrong C.
//  - each is a bijection onto its matrix;
//  - ldmatrix.x4, with every lane pointing where a_ldmatrix_offset / b_ldmatrix_offset point it,
//    puts into each lane's registers exactly the elements the mapping says (the rows it points at
//    start on a 16-byte chunk);
//  - the two accumulators of a pair, c_{2h} and c_{2h+1}, are neighbours in a row, starting at
//    an even column (the epilogue stores them as one 4-byte pair).
std::string coord(const char* m, int lane, int i, FragmentCoord p) {
  return std::string("lane ") + std::to_string(lane) + " " + m + std::to_string(i) + " at (" +
         std::to_string(p.row) + ", " + std::to_string(p.col) + ")";
}

template <typename F>
void check_bijection(const char* m, int rows, int cols, int elements, F f) {
  std::vector<int> owner(rows * cols, -1);
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < elements; ++i) {
      const FragmentCoord p = f(lane, i);
      if (p.row < 0 || p.row >= rows || p.col < 0 || p.col >= cols) {
        throw std::logic_error("fragment mapping: " + coord(m, lane, i, p) + " is outside the " +
                               std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
      }
      int& o = owner[p.row * cols + p.col];
      if (o >= 0) {
        throw std::logic_error("fragment mapping: " + coord(m, lane, i, p) + " is also " +
                               coord(m, o / elements, o % elements, p) +
                               ": every element must have one owner");
      }
      o = lane * elements + i;
    }
  }
}

void check_fragments() {
  static const bool checked = [] {
    check_bijection("a", 16, 16, kAFragment, a_fragment_coord);
    check_bijection("b", 16, 8, kBFragment, b_fragment_coord);
    check_bijection("c", 16, 8, kCFragment, c_fragment_coord);
    auto expect = [](const char* m, int lane, int i, FragmentCoord got, FragmentCoord want,
                     const char* why) {
      if (got.row != want.row || got.col != want.col) {
        throw std::logic_error("fragment mapping: " + coord(m, lane, i, got) + ", but " + why +
                               " puts (" + std::to_string(want.row) + ", " +
                               std::to_string(want.col) + ") there");
      }
    };
    for (int lane = 0; lane < 32; ++lane) {
      for (int q = 0; q < 4; ++q) {
        // ldmatrix: register q of `lane` holds row lane / 4 of matrix q, values 2 (lane % 4) and
        // 2 (lane % 4) + 1; the lane pointing at that row points at element 2q of lane 4 (lane /
        // 4) for A, element 2 (q % 2) of the same lane for B (tile q / 2).
        const FragmentCoord a_row = a_fragment_coord(4 * (lane / 4), 2 * q);
        const FragmentCoord b_row = b_fragment_coord(4 * (lane / 4), 2 * (q % 2));
        if (a_row.col % 8 != 0 || b_row.row % 8 != 0) {
          throw std::logic_error(
              "fragment mapping: the rows ldmatrix loads must start on a 16-byte chunk; " +
              (a_row.col % 8 ? coord("a", 4 * (lane / 4), 2 * q, a_row)
                             : coord("b", 4 * (lane / 4), 2 * (q % 2), b_row)) +
              " does not");
        }
        for (int h = 0; h < 2; ++h) {
          expect("a", lane, 2 * q + h, a_fragment_coord(lane, 2 * q + h),
                 {a_row.row, a_row.col + 2 * (lane % 4) + h}, "ldmatrix");
          if (q < 2) {
            expect("b", lane, 2 * q + h, b_fragment_coord(lane, 2 * q + h),
                   {b_row.row + 2 * (lane % 4) + h, b_row.col}, "ldmatrix");
          }
        }
      }
      for (int h = 0; h < 2; ++h) {
        const FragmentCoord c0 = c_fragment_coord(lane, 2 * h);
        if (c0.col % 2 != 0) {
          throw std::logic_error("fragment mapping: " + coord("c", lane, 2 * h, c0) +
                                 ": the pair c" + std::to_string(2 * h) + ", c" +
                                 std::to_string(2 * h + 1) + " must start at an even column");
        }
        expect("c", lane, 2 * h + 1, c_fragment_coord(lane, 2 * h + 1), {c0.row, c0.col + 1},
               "the pair's other half");
      }
    }
    return true;
  }();
  (void)checked;
}
//! [check_fragments]

//! [launch]
template <class T>
void run_tile(int M, int N, int K, float alpha, const bf16* A, const bf16* B, float beta, bf16* C) {
  course::require_bf16_gemm_shape("mma_sync_gemm", M, N, K, 8, A, B, C);
  require_bf16_tensor_cores("mma_sync_gemm");
  check_fragments();
  // Above 48 KB of dynamic shared memory a kernel must opt in, once per device.
  course::allow_dynamic_shared_memory(reinterpret_cast<const void*>(&mma_sync_gemm_kernel<T>),
                                      T::kSmemBytes);
  const int tiles_m = (M + T::BM - 1) / T::BM, tiles_n = (N + T::BN - 1) / T::BN;
  mma_sync_gemm_kernel<T><<<tiles_m * tiles_n, T::kThreads, T::kSmemBytes>>>(
      M, N, K, alpha, A, B, beta, C, tiles_m, tiles_n);
  CHECK_LAUNCH();
}
//! [launch]

// The shared-memory accesses of one stage of configuration T (see config_shared_accesses).
template <class T>
std::vector<lesson09::SharedAccess> shared_accesses_of() {
  lesson09::SharedAccess a_store{"A store (cp.async, 16 B)", 16, {}};
  lesson09::SharedAccess b_store{"B store (cp.async, 16 B)", 16, {}};
  lesson09::SharedAccess a_load{"A load (ldmatrix.x4)", 16, {}};
  lesson09::SharedAccess b_load{"B load (ldmatrix.x4)", 16, {}};
  for (int w = 0; w < T::kThreads / 32; ++w) {
    lesson09::WarpAddresses addr{};
    for (int i = 0; i < T::kACopies; ++i) {
      for (int lane = 0; lane < 32; ++lane) {
        const int tid = 32 * w + lane;
        addr[lane] = tile_offset<T::kRowBytes, T::SWIZZLED>(tid / T::kChunks + i * T::kCopyRows,
                                                            tid % T::kChunks);
      }
      a_store.warps.push_back(addr);
    }
    for (int i = 0; i < T::kBCopies; ++i) {
      for (int lane = 0; lane < 32; ++lane) {
        const int tid = 32 * w + lane;
        addr[lane] = T::kAStageBytes + tile_offset<T::kRowBytes, T::SWIZZLED>(
                                           tid / T::kChunks + i * T::kCopyRows, tid % T::kChunks);
      }
      b_store.warps.push_back(addr);
    }
    for (int kk = 0; kk < T::KSTEPS; ++kk) {
      for (int i = 0; i < T::MT; ++i) {
        for (int lane = 0; lane < 32; ++lane)
          addr[lane] = a_ldmatrix_offset<T>(w, lane, kk) + i * T::k16RowsBytes;
        a_load.warps.push_back(addr);
      }
      for (int j = 0; j < T::NT / 2; ++j) {
        for (int lane = 0; lane < 32; ++lane)
          addr[lane] = b_ldmatrix_offset<T>(w, lane, kk) + j * T::k16RowsBytes;
        b_load.warps.push_back(addr);
      }
    }
  }
  return {a_store, b_store, a_load, b_load};
}

// ---- The configurations ----------------------------------------------------------------------

}  // namespace

// The entry of one configuration in mma_configs(), and its kernel (declared in
// calls-yours/mma_sync_gemm.cu).
template <class T>
MmaConfig make_config(int ladder_step) {
  MmaConfig c;
  c.name = std::to_string(T::BM) + "x" + std::to_string(T::BN) + "x" + std::to_string(T::BK) +
           " w" + std::to_string(T::WM) + "x" + std::to_string(T::WN) + " s" +
           std::to_string(T::STAGES) + (T::SWIZZLED ? " swizzled" : " plain");
  c.kernel = reinterpret_cast<const void*>(&mma_sync_gemm_kernel<T>);
  c.threads = T::kThreads;
  c.smem_bytes = T::kSmemBytes;
  c.min_blocks = T::kMinBlocks;
  c.min_cc = kBf16TensorCoresCc;
  c.cc_why = "bf16 tensor cores";
  c.intensity = static_cast<double>(T::BM) * T::BN / (T::BM + T::BN);
  c.step = ladder_step;
  c.run = &run_tile<T>;
  c.bm = T::BM, c.bn = T::BN, c.bk = T::BK, c.warps_m = T::WARPS_M, c.warps_n = T::WARPS_N;
  c.warp_m = T::WM, c.warp_n = T::WN, c.stages = T::STAGES, c.swizzled = T::SWIZZLED;
  c.shared_accesses = &shared_accesses_of<T>;
  return c;
}

template <class T>
const void* kernel_of() {
  return reinterpret_cast<const void*>(&mma_sync_gemm_kernel<T>);
}

}  // namespace lesson10

// Compiles one configuration, T, in namespace lesson10: its kernel, its launcher and its entry in
// the table. The build writes a file for each line of LESSON10_CONFIGS that calls it with
// the line's ladder step (unused here) and T.
#define LESSON10_CONFIG(step, ...)                  \
  template MmaConfig make_config<__VA_ARGS__>(int); \
  template const void* kernel_of<__VA_ARGS__>();
