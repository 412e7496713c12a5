// Lesson 06: the given part of the occupancy calculator (occupancy.hpp): the per-SM limits of the
// GPUs the course knows (the course's table, common/reference_gpus.hpp, with the allocation
// rules), the names of the limits, the shared-memory capacity rule and the input checks. Compiled
// once and linked into both the exercise and the solution; the functions you
// write are in exercises/06-occupancy/occupancy.cpp and launch_choice.cpp.
#include "occupancy.hpp"
#include "occupancy_given.hpp"

#include "common/device.hpp"
#include "common/reference_gpus.hpp"

#include <stdexcept>
#include <string>

namespace lesson06 {

// ---- Given: the per-SM limits of the GPUs the course knows ------------------------------------

namespace {
constexpr std::size_t kKiB = 1024;
}  // namespace

// The allocation rules shared by compute capability 8.0 and later.
SmLimits ampere_and_later(int major, int minor) {
  SmLimits s;
  s.name = "CC " + std::to_string(major) + "." + std::to_string(minor);
  s.cc_major = major;
  s.cc_minor = minor;
  s.warp_size = 32;
  s.max_threads_per_block = 1024;
  s.regs_per_sm = 65536;
  s.max_regs_per_block = 65536;
  s.max_regs_per_thread = 255;
  s.reg_alloc_unit = 256;
  s.reg_partitions = 4;
  s.smem_reserved_per_block_bytes = 1 * kKiB;
  s.smem_alloc_unit_bytes = 128;
  return s;
}

SmLimits sm_limits_for(int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  // What the driver would report: the course's table of compute capabilities.
  course::DeviceLimits d;
  try {
    d = course::limits_for_compute_capability(cc);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("sm_limits_for: compute capability " + course::cc_string(cc) +
                                " is not in the table (7.5, 8.0, 8.6, 8.9, 9.0, 12.0)");
  }
  return sm_limits_of(d);
}

SmLimits sm_limits_of(const course::DeviceLimits& d) {
  SmLimits s = ampere_and_later(d.cc_major, d.cc_minor);
  // The allocation rules the driver does not report, per compute capability; a GPU newer than the
  // table gets those of 8.0 and later, without a list of carve-outs.
  switch (d.cc()) {
    case 75:  // Turing: 256-byte units, 32 or 64 KiB of shared memory
      s.smem_alloc_unit_bytes = 256;
      s.smem_capacities_kib = {32, 64};
      break;
    case 80:  // A100
      s.smem_capacities_kib = {0, 8, 16, 32, 64, 100, 132, 164};
      break;
    case 86:   // GA10x: RTX 30, A10, A40
    case 89:   // Ada: RTX 40, L4, L40
    case 120:  // GeForce RTX 50: the sizes of 8.6 and 8.9 (the tuning guide gives the largest)
      s.smem_capacities_kib = {0, 8, 16, 32, 64, 100};
      break;
    case 90:  // Hopper: H100, H200
      s.smem_capacities_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
      break;
    default:
      break;
  }
  // What the driver reports.
  s.warp_size = d.warp_size;
  s.max_threads_per_block = d.max_threads_per_block;
  s.max_threads_per_sm = d.max_threads_per_sm;
  s.max_warps_per_sm = d.max_threads_per_sm / d.warp_size;
  s.max_blocks_per_sm = d.max_blocks_per_sm;
  s.regs_per_sm = d.regs_per_sm;
  s.max_regs_per_block = d.regs_per_block;
  s.smem_per_sm_bytes = d.smem_per_sm_bytes;
  s.smem_per_block_optin_bytes = d.smem_per_block_optin_bytes;
  s.smem_reserved_per_block_bytes = d.smem_reserved_per_block_bytes;
  return s;
}

SmLimits h100_limits() {
  SmLimits s = sm_limits_for(9, 0);
  s.name = "H100 (CC 9.0)";
  return s;
}
SmLimits a100_limits() {
  SmLimits s = sm_limits_for(8, 0);
  s.name = "A100 (CC 8.0)";
  return s;
}
SmLimits cc86_limits() {
  return sm_limits_for(8, 6);
}
SmLimits cc89_limits() {
  return sm_limits_for(8, 9);
}

std::string limit_name(Limit limit) {
  switch (limit) {
    case Limit::kThreads:
      return "threads";
    case Limit::kRegisters:
      return "registers";
    case Limit::kSharedMemory:
      return "shared memory";
    case Limit::kBlocks:
      return "blocks";
  }
  return "?";
}

bool Occupancy::binds(Limit l) const {
  switch (l) {
    case Limit::kThreads:
      return by_threads == blocks_per_sm;
    case Limit::kRegisters:
      return by_registers == blocks_per_sm;
    case Limit::kSharedMemory:
      return by_shared_memory == blocks_per_sm;
    case Limit::kBlocks:
      return by_blocks == blocks_per_sm;
  }
  return false;
}

//! [capacity]
std::size_t smem_capacity_bytes(const SmLimits& sm, int carveout_percent, std::size_t alloc_bytes) {
  if (sm.smem_capacities_kib.empty()) return sm.smem_per_sm_bytes;
  // The smallest configurable size that holds `bytes` (the largest if none does).
  auto config_at_least = [&sm](std::size_t bytes) {
    for (int kib : sm.smem_capacities_kib) {
      if (static_cast<std::size_t>(kib) * kKiB >= bytes)
        return static_cast<std::size_t>(kib) * kKiB;
    }
    return static_cast<std::size_t>(sm.smem_capacities_kib.back()) * kKiB;
  };
  // No preference: as much shared memory as the SM has. A preference: that share of it, up to
  // the next size the hardware can be set to.
  const std::size_t preferred = carveout_percent < 0
                                    ? sm.smem_per_sm_bytes
                                    : config_at_least(static_cast<std::size_t>(carveout_percent) *
                                                      sm.smem_per_sm_bytes / 100);
  // A preference is only a preference: a block that needs more gets a larger configuration.
  return preferred >= alloc_bytes ? preferred : config_at_least(alloc_bytes);
}
//! [capacity]

// The checks every calculator function starts with: a usage and limits that make sense.
void validate(const SmLimits& sm, const KernelUsage& k, const char* who) {
  const std::string where = std::string(who) + ": ";
  if (sm.warp_size < 1 || sm.max_threads_per_sm < 1 || sm.max_warps_per_sm < 1 ||
      sm.max_blocks_per_sm < 1 || sm.regs_per_sm < 1 || sm.reg_alloc_unit < 1 ||
      sm.reg_partitions < 1 || sm.smem_alloc_unit_bytes < 1) {
    throw std::invalid_argument(where + "the SmLimits '" + sm.name +
                                "' were never filled in (a zero limit or unit)");
  }
  if (k.threads_per_block < 1) {
    throw std::invalid_argument(where + "threads_per_block must be at least 1, got " +
                                std::to_string(k.threads_per_block));
  }
  if (k.regs_per_thread < 0) {
    throw std::invalid_argument(where + "regs_per_thread cannot be negative, got " +
                                std::to_string(k.regs_per_thread));
  }
  if (k.carveout_percent < -1 || k.carveout_percent > 100) {
    throw std::invalid_argument(where + "carveout_percent must be -1 (none) or 0..100, got " +
                                std::to_string(k.carveout_percent));
  }
}

}  // namespace lesson06
