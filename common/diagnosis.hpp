/// \file diagnosis.hpp
/// \brief Why a GEMM is wrong: one ordered table of causes, walked over one record of the
/// evidence. The first rule that recognises the evidence names the cause, in the learner's terms.
///
/// The evidence is the failed result (its values, the canaries, the elements never written) and,
/// when the kernel can run again, what it shows then, taken the first time a rule asks:
/// - **again**: the failing shape run once or twice more on the same inputs: elements whose value
///   changes between runs are a race, or shared memory read before it was written;
/// - **probes**: the kernel run on inputs designed to answer questions, at three shapes (odd N for
///   the scalar paths, N and K multiples of 4 for the vector paths, K over several k-tiles), each
///   with interior and edge tiles:
///   - term counts: A all ones, B's rows k weighted 3^(k - k_first) over a window: each element of
///     C is a number in base 3 whose digit m counts how often the term k_first + m was summed;
///   - codes: every element of A (or B) holds its own flat index, and only row k of B (column k of
///     A) is one: each element of C is the index the kernel read for the term k. Read at one
///     middle k first, and at every k of its k-tile when a rule asks (an order permuted inside a
///     vector load, a fragment or a k-step);
///   - scalars: alpha = 2, beta = 0; alpha = 2, beta = 3 with C filled with codes; beta = 0 with C
///   filled with NaN; products of 5/16, whose sums are not whole: a lost
///     fraction (an integer accumulator) shows.
///
/// A rule is a function of the evidence that returns the cause in one line, its fix after " -> ",
/// or "" when it does not recognise the evidence. The course's rules are in common/causes.cpp; a
/// lesson adds its own from its folder (lessons/NN-*/causes.hpp), at a rank among them.
#pragma once

#include "common/gemm_job.hpp"
#include "common/gemm_shape.hpp"
#include "common/verify.hpp"

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace course {

namespace verify_detail {
class Result;  // the failed result, as the checks compared it (common/verify_detail.hpp)
}

/// What the probes read off the kernel at one shape. Per element of C (row-major, M x N):
/// the A row and B column whose product landed there for the k probed (-1: none, or several),
/// and the term counts.
struct ProbeReading {
  GemmShape s;
  bool whole = true;  ///< every probe ran here (false: the term counts and canaries only)
  /// Per element: never written in any probe.
  std::vector<char> unwritten;
  /// The reads of the term k: per element, the row of A (`a_row`) and column of B (`b_col`) of
  /// the product that landed there (-1 when none or several did), and the k each was read at
  /// (`a_k`, `b_row_k`).
  struct AtK {
    int k = -1;
    std::vector<int> a_row, a_k, b_row_k, b_col;
  };
  AtK at_k0;  ///< at the middle k (k0 = at_k0.k; -1: no code probe ran)
  /// Per element: the flat index of A and of B it read for k0 (kUnknown when not readable).
  std::vector<long> a_index, b_index;
  static constexpr long kUnknown = -(1L << 62);
  /// The same reads at the other k of k0's 16-wide k-tile (below K): taken when a rule asks.
  std::vector<AtK> tile_k;
  bool b_n_by_k = false;  ///< B is N x K (bf16)
  /// Per element and k (element e, term k at e * K + k): how many times the term k was summed
  /// there (-1: not readable).
  std::vector<signed char> count;
  long canaries_hit = 0;  ///< writes outside C during the probes
  /// With A (B) holding small codes and the other all ones, C held the sums of the right rows of A
  /// (columns of B): that operand is read right, whatever the other does.
  bool a_sums_right = false, b_sums_right = false;
  /// Per element: wrong in some probe (a value, a place, a count).
  std::vector<char> wrong;
  /// The scalar probes here (NaN when unknown): `got = x * (A·B) + y * C` fitted for alpha,
  /// beta = (2, 0) and (2, 3).
  double x20 = NAN, x23 = NAN, y23 = NAN;
  bool reads_c_when_beta0 = false;  ///< beta == 0 and C full of NaN gave NaN
  bool c_added_when_beta0 = false;  ///< beta == 0 and C holding codes gave A*B + C
  /// A and B all ones: every element / K when all are alike (else NaN), with alpha = 1, beta = 0
  /// (1: the scale is right), and with alpha = 0, beta = 2, C zero (2: alpha and beta swapped).
  double ones_scale = NAN, ones_swapped = NAN;
  /// A ones, B 5/16: every element / (5/16 K) when all are alike (else NaN): 1 when fractions
  /// are kept, below 1 when they are lost.
  double fraction_scale = NAN;
  int k0() const { return at_k0.k; }
  bool any_wrong() const;
  /// any_wrong(), or a scalar probe off (alpha, beta, C read, a scale, a lost fraction).
  bool shows_wrong() const;
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * s.N + j; }
};

/// What the probes found: the readings at the probe shapes, the main one first.
struct ProbeFindings {
  std::vector<ProbeReading> readings;
  GemmShape laps{0, 0, 0};  ///< the shape of a ring's second lap, read when a rule asks
  /// The first reading with a wrong element (the main one when none is).
  const ProbeReading& primary() const;
};

/// What the diagnosis may run again: the kernel, its precision, and the failing shape on the same
/// inputs (returns C, M x N, in float).
struct Kernel {
  GemmRun run;
  bool bf16 = false;
  std::function<std::vector<float>()> again;
  const void* id = nullptr;  ///< what identifies the kernel: its probes are taken once
};

/// The record a rule reads: the failed result, and what the kernel shows when run again.
class Evidence {
 public:
  Evidence(const verify_detail::Result& result, const Kernel* kernel);
  const verify_detail::Result& result() const { return result_; }
  const Kernel* kernel() const { return kernel_; }
  std::string lesson;  ///< the lesson whose grader asks ("05"), "" when none
  /// The probes, taken the first time a rule asks (once per kernel and program); nullptr when
  /// there is no kernel or they could not run (probe_error() says why).
  const ProbeFindings* probes();
  /// The probes if a rule took them, else nullptr (nothing is run).
  const ProbeFindings* taken_probes() const { return probes_.get(); }
  /// probes(), with the term counts at the shape of a ring's second lap (K over 4 k-tiles of 64).
  const ProbeFindings* probes_laps();
  /// probes(), with every reading's codes at every k of its k0's k-tile.
  const ProbeFindings* probes_every_k();
  const std::string& probe_error() const { return probe_error_; }
  /// The kernel failed when run again (`why`): the rules go on with the result alone.
  void kernel_failed(const std::string& why) { probe_error_ = why, kernel_ = nullptr; }
  /// Per element of C: its value changed when the failing shape ran again on the same inputs,
  /// after a run on other inputs (empty without a kernel). When none did there, the same at the
  /// main probe shape (a shape too small may never show a race), with unstable_shape() saying so.
  const std::vector<char>& unstable();
  const GemmShape& unstable_shape() const { return unstable_shape_; }
  /// Elements that changed between runs.
  long unstable_count();
  /// edge_tile() of the elements that changed between runs, confirmed at a larger shape when the
  /// kernel is at hand (on a tiny shape the edge is most of C): 0 when they are not all on it.
  int unstable_edge_tile();

 private:
  const verify_detail::Result& result_;
  const Kernel* kernel_;
  std::shared_ptr<ProbeFindings> probes_;
  bool probed_ = false, every_k_ = false, ran_again_ = false;
  std::string probe_error_;
  std::vector<char> unstable_;
  GemmShape unstable_shape_;
};

/// The tile size T (8 .. 256) whose ragged edge in an M x N matrix (rows past M / T * T, columns
/// past N / T * T) holds every element in `where`, with a whole tile inside: 0 when none does.
int edge_tile(const std::vector<char>& where, int M, int N);

/// The shapes the probes run at, in sets: the first set the kernel accepts (a kernel refuses a
/// shape with std::invalid_argument).
std::vector<std::vector<GemmShape>> probe_sets();

/// A code path of a lesson's kernels and the shapes that take it (the float4 path: N and K
/// multiples of 4, say). A lesson declares its paths from its folder; a test holds the probes to
/// taking every one.
struct KernelPath {
  std::string lesson, name;
  bool bf16;  ///< the lesson's kernels are bf16 ones: K a multiple of 8
  std::function<bool(const GemmShape&)> takes;
};
bool declare_path(KernelPath path);
const std::vector<KernelPath>& kernel_paths();

/// One rule of the table: its name, the lesson whose graders it speaks for ("" every one), its
/// rank (the table is walked in rank order), whether its cause is a model that accounts for every
/// element (on a tiny shape several models may fit: the walk then takes a larger one), and what it
/// says of the evidence ("" when it does not recognise it).
struct Rule {
  std::string id, lesson;
  int rank = 0;
  bool model = false;
  std::function<std::string(Evidence&)> says;
};

/// Adds a rule to the table. Returns true, so a lesson registers from a header its grader includes:
/// `inline const bool kQuads = course::register_rule({"quad_source", "08", 750, false, quads});`
bool register_rule(Rule rule);

/// The table, in the order it is walked.
const std::vector<Rule>& cause_rules();

/// The walk: the first rule that recognises the evidence names the cause (report.cause, cause_id,
/// candidates). `lesson`: only that lesson's rules and the course's speak ("" every one).
void explain(Evidence& evidence, VerifyReport& report, const std::string& lesson);

/// "the wrong values change from run to run: N element(s) differ between two runs on the same
/// inputs" (and at which shape, when not the failing one), or "" when none changed.
std::string changes_words(Evidence& e);

/// The command that confirms a race in `lesson` ("05"): `make sanitize-5 MINE=1 (racecheck)`.
std::string sanitize_command(const std::string& lesson);

/// The count words of the terms along K at one reading (what the course's rule "terms" says), ""
/// when every term is summed once. For lessons that word the same evidence in their terms.
std::string terms_words(const ProbeReading& r);

/// The graders' path for any kernel wrapped as a GemmRun: fresh random inputs seeded from the
/// run seed and the shape (C poisoned and guarded), the kernel run once, the result checked
/// against Eigen, and, when it fails, the table walked with the kernel at hand.
/// check_gemm() calls it with the GPU kernel; the tests of the diagnosis with kernels emulated on
/// the CPU. `kernel`: what identifies the kernel (its function's address), or nullptr: the probes
/// do not depend on the failing shape, so a kernel is probed once per program.
VerifyReport check_gemm_run(const GemmRun& run, const GemmShape& shape, bool bf16,
                            const VerifyOptions& options = {}, const void* kernel = nullptr);

}  // namespace course
