/// \file variants.hpp
/// \brief A lesson's table of variants: the compiled configurations of its kernels (or the rungs of
/// its ladder), each described once, in one struct, for the lesson's tables, its ladder and its
/// sweep.
///
/// From lesson 06 on, a kernel is a template compiled several times (tile sizes, stages, layouts),
/// and a lesson lists what it compiled: a `std::vector` of Variant<P>, or of a struct of the
/// lesson's that derives from it and adds its template parameters (lesson 09's SgemmConfig: the
/// block tile, the stages, the layout). The driver (common/gemm_driver.hpp) prints such a table
/// with what the GPU gives each variant (print_config_table()), times every variant
/// (sweep_variants()) and turns the ladder into kernels to measure (ladder_kernels()); the lesson
/// keeps its kernels and its choice of a variant for a problem.
///
/// Plain C++ (the graders include the lessons' headers with a C++ compiler): kernels are passed as
/// `const void*`, the form the CUDA runtime's C API takes them in.
#pragma once

#include "common/precision.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace course {

/// What a lesson's tables say about one variant, whatever its precision.
struct VariantInfo {
  std::string name;  ///< its name in tables, e.g. "128x256x8 8x16 s4 swizzled"
  /// The `__global__` function its launches run (for cudaFuncGetAttributes and the occupancy
  /// calculator), or null when its launcher chooses among several.
  const void* kernel = nullptr;
  /// Threads per block. Its kernel is compiled with `__launch_bounds__(threads)` or
  /// `__launch_bounds__(threads, min_blocks)`, which caps the registers a thread may have
  /// (common/fit.hpp); 0 when its launcher chooses among kernels and the table does not describe
  /// them (then only its compute capability is checked).
  int threads = 0;
  std::size_t smem_bytes = 0;  ///< dynamic shared memory per block
  /// `__shared__` arrays of fixed size per block, by design: what the compiler reports as
  /// KernelAttributes::static_smem. With smem_bytes, the shared memory a block needs.
  std::size_t static_smem_bytes = 0;
  /// The blocks per SM it asks the compiler for (the second argument of `__launch_bounds__`), 0
  /// when it asks for none.
  int min_blocks = 0;
  /// True when its kernel asks for min_blocks only on an SM that holds that many of its blocks,
  /// and elsewhere for as many as one holds (lesson 06's kernels: a promise no SM of the
  /// architecture could keep would be dropped by the compiler, with a warning).
  bool min_blocks_fit_sm = false;
  int min_cc =
      0;  ///< the oldest compute capability it runs on (80 for 8.0), 0: any of the course's
  int max_cc = 0;      ///< the newest (90 for code compiled for sm_90a alone), 0: no limit
  std::string cc_why;  ///< what needs that compute capability, e.g. "bf16 tensor cores"
  /// FLOP per byte it loads from global memory, by design (0: not stated): where the book's
  /// roofline places it.
  double intensity = 0;
  /// Its step on the chapter's ladder (1, 2, ...: one change a step), 0 when it is not on it.
  int step = 0;
  /// Timed by the lesson's `--sweep`.
  bool swept = true;
  /// What it adds or changes, in a few words; empty when the name says it all.
  std::string what;
};

/// One variant of a GEMM of precision P (course::Fp32 or course::Bf16): its description and its
/// launcher.
template <class P>
struct Variant : VariantInfo {
  using Precision = P;  ///< the precision of its operands
  /// Launches it: the GEMM signature of precision P (common/precision.hpp).
  GemmLauncher<P> run = nullptr;
};

/// `table[index]`, or std::invalid_argument("WHO: no configuration INDEX (there are N)").
template <class V>
const V& variant_at(const std::vector<V>& table, int index, const std::string& who) {
  if (index < 0 || index >= static_cast<int>(table.size())) {
    throw std::invalid_argument(who + ": no configuration " + std::to_string(index) +
                                " (there are " + std::to_string(table.size()) + ")");
  }
  return table[index];
}

/// The index of the variant whose kernel is `kernel`; std::logic_error when none is (a variant
/// the lesson chooses but forgot to list).
template <class V>
int variant_index(const std::vector<V>& table, const void* kernel) {
  for (int i = 0; i < static_cast<int>(table.size()); ++i) {
    if (table[i].kernel == kernel) return i;
  }
  throw std::logic_error("a configuration is missing from the table of variants");
}

/// The index of the variant on step `step` of the ladder (the last one, should several be), or -1.
template <class V>
int step_index(const std::vector<V>& table, int step) {
  int found = -1;
  for (int i = 0; i < static_cast<int>(table.size()); ++i) {
    if (table[i].step == step) found = i;
  }
  return found;
}

/// Raises the dynamic shared memory `kernel` may have to `bytes` on the current device, once per
/// kernel and device; above 48 KiB a kernel must opt in before its first launch (nothing to do at
/// or below). First it checks the block fits the device, as course::fits() does
/// (fits_shared_memory(), common/fit.hpp). \throws std::runtime_error("needs 144 KiB of shared
/// memory per block; this GPU gives 99 KiB (NAME)") when the device has less \throws
/// course::CudaError when the device refuses for another reason
void allow_dynamic_shared_memory(const void* kernel, std::size_t bytes);

/// Blocks of `v` that fit on one SM of the current GPU: the CUDA runtime's occupancy calculator
/// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) for v.kernel with v.threads threads and
/// v.smem_bytes of dynamic shared memory (allowed first).
int occupancy_blocks_per_sm(const VariantInfo& v);

/// What the compiler gave a kernel (cudaFuncGetAttributes).
struct KernelAttributes {
  int regs = 0;                   ///< registers per thread
  std::size_t local_bytes = 0;    ///< local memory per thread (more than 0: it spilled)
  std::size_t static_smem = 0;    ///< `__shared__` arrays of fixed size, per block
  int max_threads_per_block = 0;  ///< the most threads a block of it may have
};

/// The compiler's figures for `kernel`. \throws course::CudaError when they cannot be read
KernelAttributes kernel_attributes(const void* kernel);

}  // namespace course
