/// \file figures.hpp
/// \brief Lesson 01's figures: the GPU's hierarchy and its memory levels, and the roofline, drawn
/// from a DeviceSpec and the DeviceSummary your summarize() makes of it.
///
/// Later chapters draw their kernels on the same roofline (lesson 03 adds the L1's roof and the
/// naive kernel), so the roofline takes its roofs and points from the caller.
#pragma once

#include "lessons/01-architecture/architecture.hpp"

#include "common/svg.hpp"

#include <string>
#include <vector>

namespace lesson01 {

/// Bytes in one 32-bit register.
constexpr double kRegisterBytes = 4;
/// Operands one FP32 FMA reads from registers (a * b + c).
constexpr double kFmaOperands = 3;
/// Bytes the L1 and shared memory deliver per clock per SM: 32 banks of 4 bytes (lesson 09's
/// banks), one 128-byte line per clock (lesson 03 times the naive kernel by it).
constexpr double kL1BytesPerClockPerSm = 128;

/// One level of the memory hierarchy, as the spec and the summary give it.
struct MemoryLevel {
  std::string name;            ///< "registers", "shared memory / L1", "L2 cache", "device memory"
  std::string shared_by;       ///< who sees the same data
  double bytes = 0;            ///< the whole level on the chip (or beside it)
  double per_sm_bytes = 0;     ///< its share in one SM (0: not per SM)
  double bandwidth_gbs = 0;    ///< the most it delivers, 10^9 B/s (0: the driver does not say)
  std::string bandwidth_rule;  ///< how bandwidth_gbs follows from the spec
};

/// The four levels, nearest first: registers (regs_per_sm x 4 bytes, feeding every FP32 lane's
/// FMA three operands a clock), shared memory / L1 (smem_per_sm_bytes, kL1BytesPerClockPerSm a
/// clock), the L2 (l2_bytes; its bandwidth is not in the spec: 0) and device memory
/// (global_mem_bytes at the summary's peak bandwidth). Clock rates are the spec's boost clock.
std::vector<MemoryLevel> memory_levels(const DeviceSpec& spec, const DeviceSummary& summary);

/// A kernel's arithmetic intensity: FLOP per byte moved, from its counts.
struct KernelIntensity {
  std::string name;
  double flop = 0;   ///< floating-point operations, per unit of work
  double bytes = 0;  ///< bytes moved for them
  double intensity() const { return bytes > 0 ? flop / bytes : 0; }
};

/// The kernels the chapter places on the roofline: a vector add (1 FLOP per 12 bytes), the naive
/// SGEMM of lesson 03 (2 FLOP per FMA, 8 bytes loaded for it) and an SGEMM of size `n` that moves
/// only its minimum traffic (2 n^3 FLOP, A and B read and C written once: 12 n^2 bytes).
std::vector<KernelIntensity> chapter_kernels(int n);

/// A sloped roof: a bandwidth, in 10^9 B/s, and what it is.
struct Roof {
  std::string label;
  double bandwidth_gbs = 0;
};

/// A kernel on the roofline: at `intensity` FLOP/byte under roof `roof` (an index into the roofs,
/// 0 the device memory's), it can reach min(peak, intensity x bandwidth).
struct RoofPoint {
  std::string label;
  double intensity = 0;
  int roof = 0;
};

/// The roofline of `device`: FLOP/byte across, TFLOP/s up, both on log scales; the compute roof at
/// summary.peak_fp32_tflops, the device memory's roof at summary.peak_bandwidth_gbs, any `extra`
/// roofs, the ridge point where the first roof meets the peak (drawn at
/// summary.ridge_flop_per_byte, tagged "ridge", with its number), and each point at what its roof
/// allows (tagged "point"). Throws std::invalid_argument when the summary has no peaks.
course::svg::Scene roofline_scene(const std::string& device, const DeviceSummary& summary,
                                  const std::vector<Roof>& extra,
                                  const std::vector<RoofPoint>& points);

/// The GPU of `device` from the outside in: every SM (tagged "sm", spec.sm_count of them), the L2
/// and device memory; one SM inside (its four partitions, FP32 lanes, registers, shared memory);
/// and the memory levels with their sizes and bandwidths on log scales (tagged "level").
course::svg::Scene hierarchy_scene(const std::string& device, const DeviceSpec& spec,
                                   const DeviceSummary& summary);

/// A number as the figures print it: 3 significant figures, no exponent ("20.0", "0.250",
/// "3352").
std::string figure_number(double v);

}  // namespace lesson01
