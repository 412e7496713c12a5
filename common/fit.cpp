#include "common/fit.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace course {

namespace {

constexpr int kRegisterUnit = 256;  // registers go to a warp in units of 256

// The warps of a block of `threads` threads (a partial warp is a warp).
int warps_of(int threads, int warp_size) {
  return (threads + warp_size - 1) / warp_size;
}

// The registers one warp holds at `regs` per thread: rounded up to the unit.
long warp_registers(int regs, int warp_size) {
  const long raw = static_cast<long>(regs) * warp_size;
  return (raw + kRegisterUnit - 1) / kRegisterUnit * kRegisterUnit;
}

}  // namespace

int promised_blocks(const VariantInfo& v, const DeviceLimits& device) {
  if (!v.min_blocks_fit_sm || v.threads < 1 || device.max_threads_per_sm < 1) return v.min_blocks;
  return std::min(v.min_blocks, device.max_threads_per_sm / v.threads);
}

namespace {

// The registers per thread of `v` on `d`: the compiler's, or the most its __launch_bounds__ allows
// (the promise as the kernel makes it for d's architecture).
int registers_of(const VariantInfo& v, const DeviceLimits& d, const KernelAttributes* compiled) {
  if (compiled != nullptr) return compiled->regs;
  return launch_bounds_registers(v.threads, promised_blocks(v, d));
}

std::size_t shared_memory_of(const VariantInfo& v, const KernelAttributes* compiled) {
  return (compiled != nullptr ? compiled->static_smem : v.static_smem_bytes) + v.smem_bytes;
}

std::string cc_range_string(const VariantInfo& v) {
  if (v.max_cc > 0 && v.max_cc == v.min_cc) return cc_string(v.min_cc);
  if (v.max_cc > 0) return cc_string(v.min_cc) + " to " + cc_string(v.max_cc);
  return cc_string(v.min_cc);
}

Fit no(std::string why) {
  return Fit{false, std::move(why)};
}

}  // namespace

std::string kib_string(std::size_t bytes) {
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return text;
}

int launch_bounds_registers(int threads, int min_blocks) {
  if (threads < 1) return 0;
  const long warps = warps_of(threads, 32);
  const long blocks = std::max(1, min_blocks);
  // The most whole units a warp can have, as registers per thread (a unit is 8 a thread).
  const long units = kCompiledRegistersPerSm / (blocks * warps * kRegisterUnit);
  return static_cast<int>(std::min(255L, units * (kRegisterUnit / 32)));
}

Fit fits_shared_memory(std::size_t smem, const DeviceLimits& d) {
  const std::size_t per_block = std::max(d.smem_per_block_optin_bytes, d.smem_per_block_bytes);
  if (smem > per_block) {
    return no("needs " + kib_string(smem) + " of shared memory per block; this GPU gives " +
              kib_string(per_block));
  }
  if (smem + d.smem_reserved_per_block_bytes > d.smem_per_sm_bytes) {
    return no("needs " + kib_string(smem) + " of shared memory per block and " +
              kib_string(d.smem_reserved_per_block_bytes) +
              " for the driver; an SM of this GPU has " + kib_string(d.smem_per_sm_bytes));
  }
  return {};
}

Fit fits(const VariantInfo& v, const DeviceLimits& d, const KernelAttributes* compiled) {
  // The compute capability first: on a GPU outside its range nothing else matters.
  const int cc = d.cc();
  if ((v.min_cc > 0 && cc < v.min_cc) || (v.max_cc > 0 && cc > v.max_cc)) {
    return no("needs compute capability " + cc_range_string(v) +
              (v.cc_why.empty() ? "" : " (" + v.cc_why + ")") + "; this GPU has " + cc_string(cc));
  }
  if (v.threads < 1) return {};  // not described: nothing more to check

  // Threads: a block must be launchable and must fit on one SM.
  const std::string threads = std::to_string(v.threads) + " threads per block";
  if (v.threads > d.max_threads_per_block) {
    return no("has " + threads + "; this GPU allows " + std::to_string(d.max_threads_per_block));
  }
  if (v.threads > d.max_threads_per_sm) {
    return no("has " + threads + "; an SM of this GPU holds " +
              std::to_string(d.max_threads_per_sm) + " threads");
  }
  if (compiled != nullptr && v.threads > compiled->max_threads_per_block) {
    return no("has " + threads + "; its kernel was compiled for at most " +
              std::to_string(compiled->max_threads_per_block));
  }

  // Shared memory: a block's own, then with the driver's reserve on an SM.
  if (Fit f = fits_shared_memory(shared_memory_of(v, compiled), d); !f) return f;

  // The __launch_bounds__ promise: blocks of its threads that one SM must be able to hold.
  const int promised = promised_blocks(v, d);
  if (promised > 0 && (static_cast<long>(promised) * v.threads > d.max_threads_per_sm ||
                       promised > d.max_blocks_per_sm)) {
    return no("asks the compiler for " + std::to_string(promised) + " blocks of " +
              std::to_string(v.threads) +
              " threads per SM (__launch_bounds__); an SM of this GPU "
              "holds " +
              std::to_string(d.max_threads_per_sm) + " threads and " +
              std::to_string(d.max_blocks_per_sm) + " blocks");
  }

  // Registers: per thread, and for the whole block.
  const int regs = registers_of(v, d, compiled);
  if (d.max_regs_per_thread > 0 && regs > d.max_regs_per_thread) {
    return no("needs " + std::to_string(regs) + " registers per thread; this GPU allows " +
              std::to_string(d.max_regs_per_thread));
  }
  const long block_regs = warps_of(v.threads, d.warp_size) * warp_registers(regs, d.warp_size);
  if (block_regs > d.regs_per_block || block_regs > d.regs_per_sm) {
    return no("needs " + std::to_string(block_regs) + " registers per block (" +
              std::to_string(regs) + " a thread); this GPU gives " +
              std::to_string(std::min(d.regs_per_block, d.regs_per_sm)));
  }
  return {};
}

int resident_blocks(const VariantInfo& v, const DeviceLimits& d, const KernelAttributes* compiled) {
  if (v.threads < 1 || !fits(v, d, compiled)) return 0;
  const int warps = warps_of(v.threads, d.warp_size);
  int blocks = std::min(d.max_blocks_per_sm, d.max_threads_per_sm / (warps * d.warp_size));
  const std::size_t smem = shared_memory_of(v, compiled) + d.smem_reserved_per_block_bytes;
  if (smem > 0) blocks = std::min(blocks, static_cast<int>(d.smem_per_sm_bytes / smem));
  const long block_regs = warps * warp_registers(registers_of(v, d, compiled), d.warp_size);
  if (block_regs > 0) blocks = std::min(blocks, static_cast<int>(d.regs_per_sm / block_regs));
  return blocks;
}

Fit fits_current_device(const VariantInfo& v) {
  const DeviceLimits& d = current_device_info().limits;
  if (v.kernel == nullptr) return fits(v, d);
  // The compute capability before anything is read: on an older GPU the kernel may not be there.
  VariantInfo cc_only;
  cc_only.min_cc = v.min_cc;
  cc_only.max_cc = v.max_cc;
  cc_only.cc_why = v.cc_why;
  if (const Fit f = fits(cc_only, d); !f) return f;
  const KernelAttributes compiled = kernel_attributes(v.kernel);
  return fits(v, d, &compiled);
}

int choose_fitting(const std::vector<VariantInfo>& table, const std::vector<int>& candidates,
                   const DeviceLimits& device) {
  int first_fit = -1;
  for (int i : candidates) {
    const VariantInfo& v = table.at(static_cast<std::size_t>(i));
    if (!fits(v, device)) continue;
    if (resident_blocks(v, device) >= std::max(1, promised_blocks(v, device))) return i;
    if (first_fit < 0) first_fit = i;
  }
  return first_fit;
}

std::string why_none_fits(const std::vector<VariantInfo>& table, const std::vector<int>& candidates,
                          const DeviceLimits& device) {
  std::vector<std::string> named;  // "NAME: WHY"
  std::string same;                // the reason, while every one has the same
  bool all_same = true;
  for (int i : candidates) {
    const VariantInfo& v = table.at(static_cast<std::size_t>(i));
    const Fit f = fits(v, device);
    if (f) continue;
    if (named.empty()) same = f.why;
    all_same = all_same && f.why == same;
    named.push_back(v.name + ": " + f.why);
  }
  if (all_same) return same;
  std::string out;
  for (const std::string& n : named) out += (out.empty() ? "" : "; ") + n;
  return out;
}

}  // namespace course
