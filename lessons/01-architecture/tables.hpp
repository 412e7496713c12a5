/// \file tables.hpp
/// \brief Lesson 01's printing: a DeviceSpec and a DeviceSummary as tables with one column per
/// device (the lesson program's output; nothing here is part of the exercise).
#pragma once

#include "architecture.hpp"

#include "common/report.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lesson01 {

/// Adds one row to a table with one column per device: `label`, `cell(item)` for each item, `unit`.
template <typename T, typename Cell>
void add_row(course::Table& t, const std::string& label, const std::vector<T>& items,
             const std::string& unit, Cell cell) {
  std::vector<std::string> row{label};
  for (const T& item : items) row.push_back(cell(item));
  row.push_back(unit);
  t.add_row(row);
}

/// An empty table: "property", one column per device name, "unit".
inline course::Table device_table(const std::vector<std::string>& names) {
  std::vector<std::string> headers{"property"};
  headers.insert(headers.end(), names.begin(), names.end());
  headers.push_back("unit");
  return course::Table(headers);
}

/// A whole number as text.
inline std::string num(long v) {
  return std::to_string(v);
}
/// Bytes as whole KiB.
inline std::string kib(std::size_t bytes) {
  return course::fixed(bytes / 1024.0, 0);
}

/// What the driver reports, one column per device.
inline course::Table spec_table(const std::vector<std::string>& names,
                                const std::vector<DeviceSpec>& d) {
  course::Table t = device_table(names);
  add_row(t, "compute capability", d, "major.minor",
          [](auto& s) { return std::to_string(s.cc_major) + "." + std::to_string(s.cc_minor); });
  add_row(t, "SMs", d, "SMs", [](auto& s) { return num(s.sm_count); });
  add_row(t, "warp size", d, "threads", [](auto& s) { return num(s.warp_size); });
  add_row(t, "max threads per block", d, "threads",
          [](auto& s) { return num(s.max_threads_per_block); });
  add_row(t, "max threads per SM", d, "threads", [](auto& s) { return num(s.max_threads_per_sm); });
  add_row(t, "max blocks per SM", d, "blocks", [](auto& s) { return num(s.max_blocks_per_sm); });
  add_row(t, "registers per SM", d, "32-bit", [](auto& s) { return num(s.regs_per_sm); });
  add_row(t, "registers per block", d, "32-bit", [](auto& s) { return num(s.regs_per_block); });
  add_row(t, "shared memory per SM", d, "KiB", [](auto& s) { return kib(s.smem_per_sm_bytes); });
  add_row(t, "shared memory per block", d, "KiB",
          [](auto& s) { return kib(s.smem_per_block_bytes); });
  add_row(t, "  ... with opt-in", d, "KiB",
          [](auto& s) { return kib(s.smem_per_block_optin_bytes); });
  add_row(t, "L2 cache", d, "MiB",
          [](auto& s) { return course::fixed(s.l2_bytes / 1048576.0, 0); });
  add_row(t, "device memory", d, "GiB",
          [](auto& s) { return course::fixed(s.global_mem_bytes / 1073741824.0, 1); });
  add_row(t, "SM clock (boost)", d, "MHz", [](auto& s) { return num(s.sm_clock_khz / 1000); });
  add_row(t, "memory clock", d, "MHz", [](auto& s) { return num(s.mem_clock_khz / 1000); });
  add_row(t, "memory bus width", d, "bits", [](auto& s) { return num(s.mem_bus_width_bits); });
  return t;
}

/// What follows from it, one column per device; peaks of an unknown architecture print "unknown".
inline course::Table summary_table(const std::vector<std::string>& names,
                                   const std::vector<DeviceSummary>& d) {
  course::Table t = device_table(names);
  auto known = [](const DeviceSummary& s, double v, int digits) {
    return s.fp32_lanes_per_sm > 0 ? course::fixed(v, digits) : std::string("unknown");
  };
  add_row(t, "FP32 lanes per SM", d, "lanes", [](auto& s) { return num(s.fp32_lanes_per_sm); });
  add_row(t, "FP32 lanes in all", d, "lanes", [](auto& s) { return num(s.fp32_lanes_total); });
  add_row(t, "max warps per SM", d, "warps", [](auto& s) { return num(s.max_warps_per_sm); });
  add_row(t, "threads resident at once", d, "threads",
          [](auto& s) { return num(s.max_resident_threads); });
  add_row(t, "registers per thread, SM full", d, "32-bit",
          [](auto& s) { return num(s.regs_per_thread_at_full_occupancy); });
  add_row(t, "peak FP32", d, "TFLOP/s", [&](auto& s) { return known(s, s.peak_fp32_tflops, 1); });
  add_row(t, "peak memory bandwidth", d, "GB/s",
          [](auto& s) { return course::fixed(s.peak_bandwidth_gbs, 0); });
  add_row(t, "ridge point", d, "FLOP/byte",
          [&](auto& s) { return known(s, s.ridge_flop_per_byte, 1); });
  return t;
}

}  // namespace lesson01
