/// \file fit.hpp
/// \brief Does a compiled configuration of a kernel (a variant, common/variants.hpp) fit a GPU?
/// The one check behind every lesson's choice of a configuration and every table and sweep of its
/// variants: the threads of a block, its shared memory (and the driver's reserve) against what a
/// block may opt in to and what an SM has, the blocks per SM its `__launch_bounds__` asks for, its
/// registers, and the compute capability it needs.
///
/// On the CPU it runs against the published limits of a GPU (common/reference_gpus.hpp), with the
/// registers the kernel's `__launch_bounds__` allows at most; on a GPU against what the driver
/// reports, with the compiler's own figures for the kernel (fits_current_device()).
///
/// Plain C++: the graders include it with a C++ compiler.
#pragma once

#include "common/device.hpp"
#include "common/variants.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace course {

/// Whether a variant fits a GPU, and when it does not, why, in one line.
struct Fit {
  bool ok = true;
  /// Why not, e.g. "needs 144 KiB of shared memory per block; this GPU gives 99 KiB".
  std::string why;
  explicit operator bool() const { return ok; }
};

/// The registers per SM (and per block) of every architecture the course compiles for, compute
/// capability 7.5 to 12.0: what the compiler fits a `__launch_bounds__` promise into.
constexpr int kCompiledRegistersPerSm = 65536;

/// The most registers per thread the compiler gives a kernel compiled with
/// `__launch_bounds__(threads, min_blocks)` (min_blocks 0: `__launch_bounds__(threads)`; for a
/// variant on a device, min_blocks is promised_blocks()):
/// min_blocks blocks (at least one) of `threads` threads must fit in kCompiledRegistersPerSm,
/// registers going to a warp in units of 256, and never more than 255. Example: 256 threads and 2
/// blocks: 128; 1024 threads and 2 blocks: 32; 256 threads and 1 block: 255.
int launch_bounds_registers(int threads, int min_blocks);

/// The blocks per SM `v` asks the compiler for on `device`: v.min_blocks, or with
/// v.min_blocks_fit_sm as many as one SM of the device holds, where that is fewer.
int promised_blocks(const VariantInfo& v, const DeviceLimits& device);

/// Whether `v` fits `device`, and if not, why. In order:
/// - its compute capability (VariantInfo::min_cc, max_cc): "needs compute capability 8.0 (bf16
///   tensor cores); this GPU has 7.5";
/// - its threads per block against the device's per block and per SM (and, with `compiled`, the
///   kernel's own maximum, its `__launch_bounds__`);
/// - its shared memory per block (static and dynamic) against the most a block may opt in to, and
///   with the driver's reserve against an SM's;
/// - its `__launch_bounds__` promise (promised_blocks() blocks of its threads) against the threads
///   and blocks of an SM: a promise the compiler would drop for this architecture;
/// - its registers per thread and per block: the compiler's with `compiled`, otherwise the most
///   its `__launch_bounds__` allows (launch_bounds_registers(), an upper bound).
/// A variant with 0 threads (not described, VariantInfo::threads) is checked for its compute
/// capability alone. `compiled`: what the compiler gave its kernel (kernel_attributes()), whose
/// static shared memory and registers then replace the table's.
Fit fits(const VariantInfo& v, const DeviceLimits& device,
         const KernelAttributes* compiled = nullptr);

/// Whether a block with `bytes` of shared memory (static and dynamic) fits `device`: the most a
/// block may have (the opt-in limit), then with the driver's reserve on one SM. The shared-memory
/// part of fits(), and the check course::allow_dynamic_shared_memory() makes before it opts a
/// kernel in.
Fit fits_shared_memory(std::size_t bytes, const DeviceLimits& device);

/// How many blocks of `v` can be resident on one SM of `device` at once: the least of what its
/// threads, the SM's block slots, its shared memory with the reserve, and its registers (as in
/// fits()) allow; 0 when it does not fit. The simple count a lesson's choice needs, without the
/// allocation units, register partitions and carve-outs that lesson 06's calculator models.
int resident_blocks(const VariantInfo& v, const DeviceLimits& device,
                    const KernelAttributes* compiled = nullptr);

/// fits() against the current GPU (current_device_info()), with the compiler's figures for
/// v.kernel when it has one (kernel_attributes(); read only when the compute capability fits).
Fit fits_current_device(const VariantInfo& v);

/// Of `candidates` (indices into `table`, in the order of preference), the first whose variant
/// fits `device` and holds the blocks per SM it was tuned for (resident_blocks() at least
/// promised_blocks()), else the first that fits at all; -1 when none fits.
int choose_fitting(const std::vector<VariantInfo>& table, const std::vector<int>& candidates,
                   const DeviceLimits& device);

/// choose_fitting() for a lesson's table of variants (a vector of Variant<P>, or of a struct that
/// derives from it).
template <class V>
int choose_fitting(const std::vector<V>& table, const std::vector<int>& candidates,
                   const DeviceLimits& device) {
  return choose_fitting(std::vector<VariantInfo>(table.begin(), table.end()), candidates, device);
}

/// For the error when none of `candidates` fits: the reason, when it is the same for all (say
/// "needs compute capability 8.0 (bf16 tensor cores); this GPU has 7.5"), else "NAME: WHY" for
/// each, joined by "; ".
std::string why_none_fits(const std::vector<VariantInfo>& table, const std::vector<int>& candidates,
                          const DeviceLimits& device);

/// why_none_fits() for a lesson's table of variants.
template <class V>
std::string why_none_fits(const std::vector<V>& table, const std::vector<int>& candidates,
                          const DeviceLimits& device) {
  return why_none_fits(std::vector<VariantInfo>(table.begin(), table.end()), candidates, device);
}

/// "144 KiB", "48.5 KiB": a size in shared memory's units, as the reasons say it.
std::string kib_string(std::size_t bytes);

}  // namespace course
