/// \file occupancy.hpp
/// \brief Lesson 06, the contract: an occupancy calculator (how many blocks of a kernel fit on one
/// SM, and which resource runs out first), waves (how many rounds of blocks a grid takes), and a
/// launch planner that uses both to choose a configuration.
///
/// The calculator is pure host code: it runs, and is graded, without a GPU. It works from two
/// descriptions: what one SM offers (SmLimits, from the compute capability's table and the
/// driver) and what one block of a kernel asks for (KernelUsage, from the compiler via
/// cudaFuncGetAttributes). Its answer must equal the CUDA runtime's own,
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor, for every kernel: the GPU half of the grader
/// checks exactly that.
///
/// The learner writes the regions marked "BEGIN EXERCISE" in
/// `exercises/06-occupancy/occupancy.cpp` (the calculator and the waves) and `launch_choice.cpp`
/// (the driver's numbers and the choice of a launch); the reference is `solutions/06-occupancy/`.
///
/// This header is plain C++ (the graders are compiled by a C++ compiler): no CUDA types.
#pragma once

#include "common/device.hpp"

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

namespace lesson06 {

/// `ceil(x / unit)` for x >= 0, unit >= 1.
constexpr long long ceil_div(long long x, long long unit) {
  return (x + unit - 1) / unit;
}
/// x rounded up to a multiple of `unit` (x >= 0, unit >= 1): round_up(1184, 256) == 1280.
constexpr long long round_up(long long x, long long unit) {
  return ceil_div(x, unit) * unit;
}

/// "No limit from this resource": a kernel that uses no registers (or no shared memory at all, on
/// a GPU without a per-block reserve) is not limited by it. Larger than any real block count.
constexpr int kNoLimit = INT_MAX;

/// What one streaming multiprocessor (SM) offers the blocks resident on it, and the rules by
/// which it hands its resources out. Most fields are what the driver reports
/// (cudaDeviceGetAttribute); the allocation rules (units, partitions, the shared-memory sizes an
/// SM can be configured to) are per compute capability and come from NVIDIA's tables.
struct SmLimits {
  std::string name;  ///< e.g. "H100 (CC 9.0)"
  int cc_major = 0;  ///< compute capability, major
  int cc_minor = 0;  ///< compute capability, minor

  int warp_size = 32;                ///< threads per warp (32 on every NVIDIA GPU)
  int max_threads_per_block = 1024;  ///< the largest block a launch may have
  // ---- threads and blocks
  int max_threads_per_sm = 0;  ///< resident threads per SM (2048 on CC 8.0 and 9.0)
  int max_warps_per_sm = 0;    ///< resident warps per SM: max_threads_per_sm / warp_size
  int max_blocks_per_sm = 0;   ///< resident blocks per SM, however small (32 on CC 8.0 and 9.0)
  // ---- registers
  int regs_per_sm = 0;          ///< 32-bit registers in one SM's register file (65536)
  int max_regs_per_block = 0;   ///< registers one block may hold in all (65536)
  int max_regs_per_thread = 0;  ///< the most a kernel may use per thread (255)
  /// Registers are handed to a **warp** in units of this many (256): a warp's
  /// `regs_per_thread * warp_size` is rounded up to a multiple of it. Per thread that is the same
  /// as rounding the register count up to a multiple of reg_alloc_unit / warp_size (8).
  int reg_alloc_unit = 256;
  /// The register file is split evenly among the SM's partitions (4: one per warp scheduler);
  /// all registers of one warp come from one partition, so each partition holds a whole number
  /// of warps.
  int reg_partitions = 4;
  // ---- shared memory
  std::size_t smem_per_sm_bytes = 0;  ///< the most shared memory one SM can have (228 KiB on H100)
  /// The most one block may have (static + dynamic), with an opt-in above 48 KiB (227 KiB on H100).
  std::size_t smem_per_block_optin_bytes = 0;
  /// Shared memory the driver reserves for its own use in every block, on top of the kernel's
  /// (1 KiB from CC 8.0 on, 0 before; cudaDevAttrReservedSharedMemoryPerBlock).
  std::size_t smem_reserved_per_block_bytes = 0;
  /// A block's shared memory (its own + the reserve) is allocated in units of this many bytes
  /// (128 from CC 8.0 on, 256 on CC 7.x).
  std::size_t smem_alloc_unit_bytes = 128;
  /// The sizes, in KiB, the shared-memory part of the SM's L1/shared block can be configured to
  /// (the carve-out); the rest is L1 cache. H100: 0, 8, 16, 32, 64, 100, 132, 164, 196, 228.
  std::vector<int> smem_capacities_kib;

  /// Registers per thread are in effect allocated in steps of this many (256 / 32 = 8).
  int regs_per_thread_granularity() const { return reg_alloc_unit / warp_size; }
};

/// The per-SM limits of compute capability `cc_major.cc_minor`, from NVIDIA's tables (CUDA C++
/// Programming Guide, "Technical Specifications per Compute Capability", and the tuning guides;
/// the course keeps them in common/reference_gpus.hpp): 7.5, 8.0, 8.6, 8.9, 9.0 and 12.0. The name
/// says "CC x.y". Throws std::invalid_argument for a compute capability the table does not have
/// (better no answer than a guessed one).
SmLimits sm_limits_for(int cc_major, int cc_minor);
/// The per-SM limits of a GPU described by `device` (what course::probe_device() reports, or a
/// reference GPU's published limits, common/reference_gpus.hpp): every field the driver reports
/// from `device`, the allocation rules from the table of its compute capability (those of 8.0 and
/// later, without carve-outs, for one the table lacks). The name says "CC x.y". Given (not an
/// exercise): what query_sm_limits() does with the driver, for limits known without the GPU.
SmLimits sm_limits_of(const course::DeviceLimits& device);
/// H100 (CC 9.0): 2048 threads, 32 blocks, 65536 registers, 228 KiB of shared memory per SM,
/// 227 KiB per block with opt-in, 1 KiB reserved per block.
SmLimits h100_limits();
/// A100 (CC 8.0): 2048 threads, 32 blocks, 65536 registers, 164 KiB per SM, 163 KiB per block.
SmLimits a100_limits();
/// CC 8.6 (RTX 30, A10, A40): 1536 threads, 16 blocks, 65536 registers, 100 KiB per SM.
SmLimits cc86_limits();
/// CC 8.9 (Ada: RTX 40, L4, L40): 1536 threads, 24 blocks, 65536 registers, 100 KiB per SM.
SmLimits cc89_limits();

/// What one block of a kernel asks of the SM. `regs_per_thread` and `static_smem_bytes` are the
/// compiler's (cudaFuncAttributes::numRegs and ::sharedSizeBytes); the rest are the launch's.
struct KernelUsage {
  int threads_per_block = 0;           ///< blockDim.x * blockDim.y * blockDim.z
  int regs_per_thread = 0;             ///< registers per thread, as the compiler allocated them
  std::size_t static_smem_bytes = 0;   ///< `__shared__` arrays of fixed size
  std::size_t dynamic_smem_bytes = 0;  ///< the launch's third `<<<...>>>` argument
  /// The kernel's preferred shared-memory carve-out, in percent of smem_per_sm_bytes
  /// (cudaFuncAttributePreferredSharedMemoryCarveout); -1 = no preference (the default).
  int carveout_percent = -1;

  std::size_t smem_per_block_bytes() const { return static_smem_bytes + dynamic_smem_bytes; }
};

/// The four limits on blocks per SM, in the order the calculator names a tie.
enum class Limit {
  kThreads,       ///< the SM's warp slots (max_threads_per_sm / warp size)
  kRegisters,     ///< the register file
  kSharedMemory,  ///< shared memory
  kBlocks,        ///< the hardware's block slots (max_blocks_per_sm)
};
/// "threads", "registers", "shared memory", "blocks".
std::string limit_name(Limit limit);

/// The calculator's answer for one kernel on one SM.
struct Occupancy {
  int by_threads = 0;        ///< blocks per SM the warp slots allow
  int by_registers = 0;      ///< blocks per SM the register file allows (kNoLimit: no registers)
  int by_shared_memory = 0;  ///< blocks per SM shared memory allows (kNoLimit: none used)
  int by_blocks = 0;         ///< the hardware's block limit, max_blocks_per_sm
  int blocks_per_sm = 0;     ///< the smallest of the four: what really fits (0: cannot launch)
  /// The binding limit: the one that gives blocks_per_sm. When several give the same number, the
  /// first of threads, registers, shared memory, blocks (the order of Limit); binds() tells all.
  Limit limit = Limit::kThreads;
  int warps_per_block = 0;  ///< ceil(threads per block / warp size): a partial warp is a warp
  int active_warps = 0;     ///< warps resident per SM: blocks_per_sm * warps_per_block
  double occupancy = 0;     ///< active_warps / max_warps_per_sm, 0 .. 1

  /// Whether `l` gives blocks_per_sm, i.e. is one of the binding limits.
  bool binds(Limit l) const;
};

/// **Exercise (task 1).** Blocks per SM allowed by the SM's warp slots: max_warps_per_sm divided
/// by the block's warps (a partial warp occupies a whole warp slot), rounded down; 0 when the
/// block has more than max_threads_per_block threads (it cannot launch).
/// Example: H100, 256 threads -> 64 / 8 = 8; 96 threads -> 64 / 3 = 21; 1025 threads -> 0.
int blocks_limited_by_threads(const SmLimits& sm, const KernelUsage& k);

/// **Exercise (task 2).** Blocks per SM allowed by the register file. Registers go to warps:
/// - a warp gets `regs_per_thread * warp_size` rounded up to a multiple of reg_alloc_unit (256);
/// - each of the reg_partitions (4) quarters of the file, `regs_per_sm / reg_partitions`
///   registers, holds as many whole warps as fit, rounded down;
/// - blocks = (warps per partition * partitions) / warps per block, rounded down.
/// 0 when regs_per_thread > max_regs_per_thread or one block would need more than
/// max_regs_per_block registers (it cannot launch); kNoLimit when regs_per_thread == 0.
/// Example: H100, 256 threads x 64 registers: 2048 per warp, 16384 / 2048 = 8 warps per
/// partition, 32 per SM, 32 / 8 = 4 blocks. 33 registers count as 40: 6 blocks, not 7.
int blocks_limited_by_registers(const SmLimits& sm, const KernelUsage& k);

/// The SM's shared-memory capacity that a block allocation of `alloc_bytes` (reserve and rounding
/// included) gets under the kernel's carve-out preference `carveout_percent`:
/// - no preference (-1): smem_per_sm_bytes, the most there is;
/// - a preference p: p% of smem_per_sm_bytes, rounded **up** to the next size in
///   smem_capacities_kib;
/// - but never less than one block needs: if the preference is below `alloc_bytes`, the smallest
///   configurable size that holds one block.
/// With an empty smem_capacities_kib, always smem_per_sm_bytes. Given (not an exercise).
std::size_t smem_capacity_bytes(const SmLimits& sm, int carveout_percent, std::size_t alloc_bytes);

/// **Exercise (task 3).** Blocks per SM allowed by shared memory:
/// - a block allocates its static + dynamic shared memory **plus** the per-block reserve,
///   rounded up to a multiple of smem_alloc_unit_bytes;
/// - the SM's capacity is smem_capacity_bytes(sm, carveout_percent, allocation);
/// - blocks = capacity / allocation, rounded down.
/// 0 when the allocation exceeds smem_per_block_optin_bytes + the reserve (it cannot launch);
/// kNoLimit when the allocation is 0 (no shared memory and no reserve).
/// Example: H100, 48 KiB per block: (48 + 1) KiB = 50176 bytes; 233472 / 50176 = 4 blocks.
/// 57 KiB per block: 228 / 58 -> 3 blocks, where 228 / 57 would have said 4.
int blocks_limited_by_shared_memory(const SmLimits& sm, const KernelUsage& k);

/// **Exercise (task 4).** The occupancy of a kernel: the four limits (the three above and
/// max_blocks_per_sm), the smallest of them, which one binds, the active warps per SM and the
/// occupancy fraction. Throws std::invalid_argument for a usage that makes no sense
/// (threads_per_block < 1, negative registers or carve-out above 100) or limits never filled in.
/// Example: H100, 256 threads x 64 registers, no shared memory: 8 / 4 / 228 / 32 -> 4 blocks,
/// registers bind, 32 warps, occupancy 0.5.
Occupancy occupancy(const SmLimits& sm, const KernelUsage& k);

/// How a grid of blocks runs on the whole GPU: in waves of sm_count * blocks_per_sm blocks.
struct Waves {
  long long grid_blocks = 0;      ///< blocks in the grid
  long long blocks_per_wave = 0;  ///< sm_count * blocks_per_sm: blocks resident at once
  long long full_waves = 0;       ///< waves in which every block slot is busy
  long long waves = 0;            ///< waves in all, ceil(grid / per wave); the last may be partial
  long long tail_blocks = 0;      ///< blocks in the last wave (== blocks_per_wave when it is full)
  double last_wave_fill = 0;      ///< tail_blocks / blocks_per_wave, in (0, 1]
  double efficiency = 0;          ///< grid / (waves * blocks_per_wave): busy share of the slots
  double exact = 0;               ///< grid / blocks_per_wave, the waves as a fraction (31.03)
};

/// **Exercise (task 5).** The waves of a grid of `grid_blocks` blocks on `sm_count` SMs that each
/// hold `blocks_per_sm` blocks at once. Throws std::invalid_argument unless all three are >= 1.
/// Example: 132 SMs x 2 blocks: 264 blocks are 1 full wave; 265 blocks are 2 waves, the second
/// holding 1 block (last_wave_fill 1/264, efficiency 265 / 528).
Waves waves(int sm_count, int blocks_per_sm, long long grid_blocks);

/// **Exercise (task 6, GPU).** The limits of CUDA device `device`: the table for its compute
/// capability (sm_limits_for; for one the table lacks, the allocation rules of CC 8.0 and later:
/// 255 registers per thread, units of 256 registers and 128 bytes, 4 partitions, no carve-out
/// list), with every field the driver reports taken from the driver
/// (cudaDeviceGetAttribute: warp size, threads per block and per SM, blocks per SM, registers
/// per SM and per block, shared memory per SM, per block with opt-in, and the reserve,
/// cudaDevAttrReservedSharedMemoryPerBlock). max_warps_per_sm follows from the threads. The name
/// is the device's. Throws course::CudaError when the device cannot be queried.
SmLimits query_sm_limits(int device);

/// **Exercise (task 6, GPU).** What one block of `kernel` (a `__global__` function, passed as
/// `(const void*)kernel`) asks for when launched with `threads_per_block` threads and
/// `dynamic_smem_bytes` of dynamic shared memory: registers and static shared memory from
/// cudaFuncGetAttributes (numRegs, sharedSizeBytes), the carve-out preference too
/// (preferredShmemCarveout). Throws course::CudaError when the attributes cannot be read.
KernelUsage kernel_usage(const void* kernel, int threads_per_block, std::size_t dynamic_smem_bytes);

/// One launch configuration a planner can choose from: a kernel that computes a tile_m x tile_n
/// tile of C per block, with the usage of one block.
struct LaunchCandidate {
  std::string name;  ///< e.g. "64x32 tile, 1024 threads"
  int tile_m = 0;    ///< rows of C per block
  int tile_n = 0;    ///< columns of C per block
  KernelUsage usage;
};

/// Candidates whose wave efficiencies differ by less than this count as equally good (a 2% tail
/// is within the noise of a measurement).
constexpr double kEfficiencyTie = 0.02;

/// **Exercise (task 7).** The index of the candidate to launch for an M x N output on a GPU of
/// `sm_count` SMs with limits `sm`, by these rules, in order:
/// 1. the highest occupancy (active warps per SM); a candidate with 0 blocks per SM never wins;
/// 2. among those, the best wave efficiency for its grid of ceil(M / tile_m) * ceil(N / tile_n)
///    blocks; efficiencies within kEfficiencyTie of the best count as equal;
/// 3. among those, the largest tile (tile_m * tile_n: the fewest global loads per multiply-add);
/// 4. among those, the earliest in the list.
/// Throws std::invalid_argument when the list is empty, M or N is below 1, or no candidate can
/// launch.
int choose_launch(const SmLimits& sm, int sm_count, int M, int N,
                  const std::vector<LaunchCandidate>& candidates);

}  // namespace lesson06
