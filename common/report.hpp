/// \file report.hpp
/// \brief Reporting: an aligned table for people, one JSON line per measurement for tools.
///
/// The measurement lines a lesson program prints with `--json` are declared here, once: every line
/// carries `"schema": "course.measurement/2"` (kMeasurementSchema) and is either a GemmMeasurement
/// (one GEMM kernel timed against cuBLAS) or a lesson's own measurement (measurement_line(), with
/// a `"what"` key). `make grade`, `make bench` and the book read them through one reader,
/// common/tools/course/measurements.py, which checks the schema and the fields.
#pragma once

#include "common/timing.hpp"  // BlockReading

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// `value` with `digits` after the point ("%.*f"); NaN and infinities print as "nan"/"inf".
std::string fixed(double value, int digits);

/// A text table whose columns line up. Numbers are right-aligned, text left-aligned.
class Table {
 public:
  explicit Table(std::vector<std::string> headers);
  /// Adds a row; it must have as many cells as there are headers.
  void add_row(std::vector<std::string> cells);
  /// The table, header underlined, one line per row, each line ending in '\n'.
  std::string str() const;
  /// Prints str() to stdout.
  void print() const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

/// One JSON object on one line, for tools (the grader, `make bench`, the book's charts). Keys keep
/// the order they were added in; strings are escaped; NaN and infinities are written as null.
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& value);
  JsonLine& add(const std::string& key, const char* value);
  JsonLine& add(const std::string& key, double value);
  JsonLine& add(const std::string& key, long value);
  JsonLine& add(const std::string& key, int value);
  JsonLine& add(const std::string& key, bool value);
  /// A number that may be unknown: null when empty.
  JsonLine& add(const std::string& key, const std::optional<double>& value);
  /// An array of strings: `"key": ["a", "b"]`.
  JsonLine& add(const std::string& key, const std::vector<std::string>& values);
  /// A value that is already JSON (an object from another JsonLine's str(), or an array of them),
  /// written as it is.
  JsonLine& add_json(const std::string& key, const std::string& encoded);
  /// `{"key": value, ...}` on one line, no trailing newline.
  std::string str() const;
  /// Prints str() and a newline to stdout.
  void print() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;  // key, encoded value
};

/// The schema of the measurement lines: the value of their "schema" field. Version 2 added the
/// regime, the order and what NVML saw (clock, power, energy) to the GEMM lines; version 1 (the
/// H100 data of 2026-11-21..24) timed cuBLAS's repetitions first, then the kernel's, in burst.
inline constexpr const char* kMeasurementSchema = "course.measurement/2";

/// One GEMM kernel, checked and timed next to cuBLAS in the same process: the line every GEMM
/// lesson program prints per kernel with `--json` (through measure_kernels(), or print() directly),
/// and what `make grade` reads its % of cuBLAS from.
struct GemmMeasurement {
  std::string lesson;              ///< the lesson's number, "03"
  std::string kernel;              ///< the kernel's name, as in the lesson's table
  int M = 0, N = 0, K = 0;         ///< the problem: C is M x N, the sum runs over K
  double ms = 0;                   ///< the kernel's time per run, ms (TimingStats::ms())
  double spread = 0;               ///< (max - min) / median of its repetitions
  double tflops = 0;               ///< 2 M N K / ms, in TFLOP/s
  double cublas_ms = 0;            ///< cuBLAS's time per run on the same inputs, ms
  double cublas_tflops = 0;        ///< cuBLAS's TFLOP/s
  double pct_of_cublas = 0;        ///< 100 * cublas_ms / ms
  bool checked = false;            ///< the kernel was checked against Eigen before it was timed
  bool passed = false;             ///< ... and the check passed
  bool headline = false;           ///< the lesson's headline kernel (`make grade`'s % of cuBLAS)
  std::string gpu;                 ///< the device's name
  std::string precision = "fp32";  ///< "fp32" or "bf16": of A, B and C
  double intensity = 0;  ///< FLOP per byte the kernel loads by design; 0: not stated (left out)
  std::string regime = "burst";  ///< "burst" or "sustained" (common/timing.hpp)
  int samples = 0;               ///< timed repetitions (burst) or blocks (sustained) of each
  bool kernel_first = false;     ///< the kernel, not cuBLAS, took the first turn
  std::optional<double> sm_clock_mhz, cublas_sm_clock_mhz;  ///< mean SM clock while each ran
  std::optional<double> power_w, cublas_power_w;            ///< mean board power, watts (sustained)
  std::optional<double> energy_j, cublas_energy_j;          ///< energy per GEMM, joules (sustained)
  /// Sustained: each one's blocks over time (TimingStats::blocks), written as `"blocks":
  /// [[from_s, to_s, sm_clock_mhz, power_w], ...]` (null where unknown); left out when empty.
  std::vector<BlockReading> blocks, cublas_blocks;

  /// The line: `{"schema": "course.measurement/2", "lesson": ..., "kernel": ..., ...}`, the
  /// fields in the order above (an unknown reading as null).
  JsonLine json() const;
  /// Prints json() and a newline to stdout.
  void print() const;
};

/// The start of a lesson's own measurement line (lesson 01's ceilings, lesson 06's occupancy, a
/// `--sweep` row): `{"schema": "course.measurement/1", "lesson": lesson, "what": what}`; the lesson
/// adds its fields and prints it. `what` names the kind of measurement (the book's charts know
/// some kinds by name).
JsonLine measurement_line(const std::string& lesson, const std::string& what);

}  // namespace course
