/// \file verify.hpp
/// \brief Checking a GEMM result against Eigen on the CPU, and saying why it is wrong.
///
/// What "passes" means (the course design):
/// - the reference is computed with Eigen in double precision from the same inputs;
/// - the relative Frobenius error ‖C − R‖ / ‖R‖ stays under Tolerance::frobenius, and every
///   element stays under its own bound, Tolerance::element × (|alpha|·(|A|·|B|)ᵢⱼ + |beta·C0ᵢⱼ|),
///   a bound that scales with the size of the terms summed, so it holds on cancelling sums too;
/// - NaN and infinity never pass;
/// - the output was poisoned before the run (NaN when beta == 0, else the random input C) and is
///   surrounded by canary bands: an element never written, or a write outside C, is caught;
/// - large problems compare sampled rows against the reference (every element is still scanned
///   for NaN, for being unwritten, and the canaries are all checked).
///
/// A failure reports the first mismatches as (row, col, got, expected), a map of the wrong tiles,
/// and the likely cause: the first rule of the table of causes (common/diagnosis.hpp) that
/// recognises the result. With the result alone, the rules that read the result speak; check_gemm()
/// also hands them the kernel, to run again and to probe.
#pragma once

#include "common/gemm.hpp"
#include "common/gemm_shape.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace course {

struct Kernel;  // what the diagnosis may run again (common/diagnosis.hpp)

/// The bit patterns the checks plant: a NaN that marks "never written", another that marks the
/// canary bands around C. Both are quiet NaNs, so no arithmetic can produce them by chance.
constexpr std::uint32_t kPoisonF32 = 0x7FC0DEADu;
constexpr std::uint32_t kCanaryF32 = 0x7FC0CA7Au;
constexpr std::uint16_t kPoisonBf16 = 0x7FEDu;
constexpr std::uint16_t kCanaryBf16 = 0x7FCAu;

/// Elements of canary placed before and after an M x N output (enough to catch writes a few
/// tiles past the last row).
std::size_t guard_band(int M, int N);

/// The output as the kernel must find it: [band canaries][C][band canaries], where C is the
/// poison when beta == 0 and `C0` otherwise. The kernel gets a pointer to the middle.
std::vector<float> make_guarded_output(const GemmShape& s, const std::vector<float>& C0);
/// The same for bf16 (kPoisonBf16, kCanaryBf16).
std::vector<bf16> make_guarded_output(const GemmShape& s, const std::vector<bf16>& C0);

/// A wrong element: where, what the kernel wrote, what Eigen says, and the bound it broke.
struct Mismatch {
  int row = 0, col = 0;
  double got = 0, expected = 0, bound = 0;
};

/// Options of a check.
struct VerifyOptions {
  /// Leave both at 0 to use Tolerance::fp32(K) (or bf16() for the bf16 check).
  Tolerance tolerance;
  /// Problems of at most this many multiply-adds are compared in full; larger ones by rows.
  double full_check_macs = 1 << 29;
  /// Rows compared when sampling (the first, the last and random ones in between).
  int sample_rows = 48;
  /// Mismatches listed in the report.
  int max_listed = 8;
  /// A name for the report ("naive_sgemm", say).
  std::string label;
  /// The lesson ("08") whose rules join the course's in the diagnosis (common/diagnosis.hpp); ""
  /// for every one the program registered.
  std::string lesson;
  /// The kernel, for the rules that run it again (nullptr: the result alone).
  const Kernel* kernel = nullptr;
};

/// What a check found. `passed` is the verdict; describe() is the diagnosis for people.
struct VerifyReport {
  bool passed = false;
  GemmShape shape;
  std::string label;
  bool sampled = false;      ///< only some rows were compared with the reference
  long rows_checked = 0;     ///< rows compared with the reference
  long checked = 0;          ///< elements compared with the reference
  long wrong = 0;            ///< of those, out of bounds (NaN/Inf included)
  long nonfinite = 0;        ///< NaN or Inf anywhere in C (all elements scanned)
  long unwritten = 0;        ///< still holding the poison or the untouched C0 (all scanned)
  long canary_before = 0;    ///< canary values overwritten before C
  long canary_after = 0;     ///< canary values overwritten after C
  long first_after = -1;     ///< offset past the end of C of the first overwritten canary
  double rel_frobenius = 0;  ///< ‖C − R‖ / ‖R‖ over the compared elements
  double frobenius_limit = 0;
  double worst_ratio = 0;            ///< max over elements of |C − R| / bound
  std::vector<Mismatch> mismatches;  ///< the first few
  std::string tile_map;              ///< which tiles are wrong, as text
  std::string cause;                 ///< the likely cause, or "" when passed
  /// The rule that named the cause ("swapped_roles", see cause_rules()), or "" when passed or no
  /// rule recognised it.
  std::string cause_id;
  /// When this shape cannot tell causes apart (a 1 x 1 x 1 problem whose one element several
  /// mistakes explain alike) and no kernel was at hand to try a larger one: every rule whose model
  /// explains the result, cause_id first. Empty when one cause fits.
  std::vector<std::string> candidates;
  /// True when the result is explained by more than one cause at this shape.
  bool ambiguous() const { return candidates.size() > 1; }
  /// The full diagnosis: verdict, likely cause, counts, errors, first mismatches, tile map.
  std::string describe() const;
};

/// Checks an FP32 result. A (M x K), B (K x N), C0 (M x N, the input C; ignored when beta == 0),
/// all row-major, and the guarded output as make_guarded_output laid it out, after the kernel.
VerifyReport verify_gemm(const GemmShape& s, const std::vector<float>& A,
                         const std::vector<float>& B, const std::vector<float>& C0,
                         const std::vector<float>& guarded_out, const VerifyOptions& options = {});

/// What the CPU does with the same product: Eigen's SGEMM timed on this machine's CPU.
struct CpuSgemm {
  int n = 0;        ///< M = N = K
  int threads = 1;  ///< the threads Eigen used (1: the course builds it without OpenMP)
  double ms = 0;    ///< the fastest of the runs, milliseconds per GEMM
  double gflops() const { return ms > 0 ? 2.0 * n * n * n / (ms * 1e6) : 0.0; }
};

/// Times C = A * B with Eigen in float on the CPU at n^3 (random inputs; the fastest of `runs`
/// after one untimed run): the baseline a GPU kernel is set beside in lesson 03.
CpuSgemm time_cpu_sgemm(int n, int runs = 3);

/// Checks a bf16 result: A (M x K), B (N x K, K-major), C0 and the guarded output in bf16.
VerifyReport verify_gemm(const GemmShape& s, const std::vector<bf16>& A, const std::vector<bf16>& B,
                         const std::vector<bf16>& C0, const std::vector<bf16>& guarded_out,
                         const VerifyOptions& options = {});

}  // namespace course
