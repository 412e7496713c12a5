// The main() of every test program (Catch2 2.x or 3.x), and the report the course's tools read.
//
// It understands one option of its own, --gpu-min-cc=NN: before any test runs, it checks for a
// CUDA device of at least compute capability NN and, when there is none, prints the reason and
// exits with course::kExitSkipped, which CTest reports as "skipped" (SKIP_RETURN_CODE).
//
// When the environment variable COURSE_REPORT names a file, the program also writes its results
// there, one JSON object per line, for `make grade` (common/tools/course/report.py reads it); the
// console output is Catch2's own, unchanged. The lines, in order:
//
//   {"schema": "course.test-report/1", "type": "run", "program": "grade05", "filters": ["[cpu]"],
//    "catch2": "2.13.10"}                 first; with "skipped": "<reason>" when --gpu-min-cc
//                                         found no usable GPU (then every test case the filters
//                                         select follows as a "case" line with "skipped": true)
//   {"type": "start", "name": "...", "tags": ["cpu", "task_1"]}
//                                         when a test case starts (a crash leaves it unfinished)
//   {"type": "case", "name": "...", "tags": ["cpu", "task_1"], "passed": false, "skipped": false,
//    "todo": true, "assertions": {"passed": 3, "failed": 1}, "failures": [ ... ]}
//                                         when it ends; "todo": a failure is a stub's
//                                         NOT IMPLEMENTED (common/todo.hpp)
//   {"type": "end", "passed": 4, "failed": 1, "skipped": 0}
//                                         the test cases of the run, when it ends
//
// Each failure: {"kind": "expression" | "exception" | "message" | "fatal" | "other", "macro":
// "CHECK", "expression": "r.passed", "expanded": "false", "message": "<the exception's or FAIL's
// text>", "info": ["<each INFO / CAPTURE in scope>"], "file": "...", "line": 42, "todo": false}.
#if defined(COURSE_CATCH2_V3)
#include <catch2/catch_all.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "common/device.hpp"
#include "common/report.hpp"
#include "common/todo.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr const char* kReportSchema = "course.test-report/1";

// The report file: opened by main() when COURSE_REPORT is set, written line by line (each line
// flushed, so a crash loses nothing already written).
class ReportFile {
 public:
  static ReportFile& get() {
    static ReportFile file;
    return file;
  }
  bool open(const char* path) {
    file_ = std::fopen(path, "w");
    return file_ != nullptr;
  }
  bool on() const { return file_ != nullptr; }
  void write(const course::JsonLine& line) {
    if (file_ == nullptr) return;
    std::fputs(line.str().c_str(), file_);
    std::fputc('\n', file_);
    std::fflush(file_);
  }

 private:
  std::FILE* file_ = nullptr;
};

// "[cpu][task_1]" -> {"cpu", "task_1"}
std::vector<std::string> split_tags(const std::string& tags) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = tags.find('[', at)) != std::string::npos) {
    const std::size_t end = tags.find(']', at);
    if (end == std::string::npos) break;
    out.push_back(tags.substr(at + 1, end - at - 1));
    at = end + 1;
  }
  return out;
}

bool is_todo(const std::string& text) {
  return text.find(course::kNotImplementedPrefix) != std::string::npos;
}

// TestCaseStats::testInfo: a TestCaseInfo in Catch2 2.x, a pointer to one in 3.x.
template <typename Info>
const Catch::TestCaseInfo& info_of(const Info& info) {
  if constexpr (std::is_pointer_v<Info>) {
    return *info;
  } else {
    return info;
  }
}

#if defined(COURSE_CATCH2_V3)
using ListenerBase = Catch::EventListenerBase;
#else
using ListenerBase = Catch::TestEventListenerBase;
#endif

// Writes the "start", "case" and "end" lines of the report.
class ReportListener : public ListenerBase {
 public:
  using ListenerBase::ListenerBase;

  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    ListenerBase::testCaseStarting(info);
    failures_.clear();
    todo_ = false;
    if (ReportFile::get().on()) {
      ReportFile::get().write(course::JsonLine()
                                  .add("type", "start")
                                  .add("name", info.name)
                                  .add("tags", split_tags(info.tagsAsString())));
    }
  }

#if defined(COURSE_CATCH2_V3)
  void assertionEnded(const Catch::AssertionStats& stats) override {
    record(stats);
  }
#else
  bool assertionEnded(const Catch::AssertionStats& stats) override {
    record(stats);
    return true;
  }
#endif

  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    if (ReportFile::get().on()) {
      const Catch::TestCaseInfo& info = info_of(stats.testInfo);
      const Catch::Counts& a = stats.totals.assertions;
      std::string failures = "[";
      for (std::size_t i = 0; i < failures_.size(); ++i) {
        failures += (i > 0 ? ", " : "") + failures_[i];
      }
      ReportFile::get().write(
          course::JsonLine()
              .add("type", "case")
              .add("name", info.name)
              .add("tags", split_tags(info.tagsAsString()))
              .add("passed", a.failed == 0 && failures_.empty())
              .add("skipped", skipped(a))
              .add("todo", todo_)
              .add_json("assertions", course::JsonLine()
                                          .add("passed", static_cast<long>(a.passed))
                                          .add("failed", static_cast<long>(a.failed))
                                          .str())
              .add_json("failures", failures + "]"));
    }
    ListenerBase::testCaseEnded(stats);
  }

  void testRunEnded(const Catch::TestRunStats& stats) override {
    if (ReportFile::get().on()) {
      const Catch::Counts& c = stats.totals.testCases;
      ReportFile::get().write(course::JsonLine()
                                  .add("type", "end")
                                  .add("passed", static_cast<long>(c.passed))
                                  .add("failed", static_cast<long>(c.failed))
                                  .add("skipped", static_cast<long>(skipped_count(c))));
    }
    ListenerBase::testRunEnded(stats);
  }

 private:
  static bool skipped(const Catch::Counts& c) {
    return skipped_count(c) > 0 && c.failed == 0;
  }
  static std::uint64_t skipped_count(const Catch::Counts& c) {
#if defined(CATCH_VERSION_MAJOR) && \
    (CATCH_VERSION_MAJOR > 3 || (CATCH_VERSION_MAJOR == 3 && CATCH_VERSION_MINOR >= 3))
    return c.skipped;
#else
    (void)c;
    return 0;
#endif
  }

  void record(const Catch::AssertionStats& stats) {
    const Catch::AssertionResult& r = stats.assertionResult;
    if (r.isOk() || !ReportFile::get().on()) return;
    const char* kind = "other";
    switch (r.getResultType()) {
      case Catch::ResultWas::ExpressionFailed:
        kind = "expression";
        break;
      case Catch::ResultWas::ThrewException:
        kind = "exception";
        break;
      case Catch::ResultWas::ExplicitFailure:
        kind = "message";
        break;
      case Catch::ResultWas::FatalErrorCondition:
        kind = "fatal";
        break;
      default:
        break;
    }
    const std::string message = r.hasMessage() ? std::string(r.getMessage()) : std::string();
    std::vector<std::string> info;
    bool todo = is_todo(message);
    for (const Catch::MessageInfo& m : stats.infoMessages) {
      // The failure's own message comes back among the messages of a FAIL: keep it once.
      if (m.message == message) continue;
      info.push_back(m.message);
      todo = todo || is_todo(m.message);
    }
    const Catch::SourceLineInfo where = r.getSourceInfo();
    course::JsonLine failure;
    failure.add("kind", kind)
        .add("macro", std::string(r.getTestMacroName()))
        .add("expression", r.hasExpression() ? r.getExpression() : std::string())
        .add("expanded", r.hasExpression() ? r.getExpandedExpression() : std::string())
        .add("message", message)
        .add("info", info)
        .add("file", std::string(where.file ? where.file : ""))
        .add("line", static_cast<long>(where.line))
        .add("todo", todo);
    failures_.push_back(failure.str());
    todo_ = todo_ || todo;
  }

  std::vector<std::string> failures_;  // this test case's failures, each an encoded JSON object
  bool todo_ = false;
};

std::string program_name(const char* argv0) {
  const std::string path = argv0 ? argv0 : "";
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

CATCH_REGISTER_LISTENER(ReportListener)

int main(int argc, char** argv) {
  std::vector<char*> args;
  std::vector<std::string> filters;
  int min_cc = -1;
  const std::string flag = "--gpu-min-cc=";
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind(flag, 0) == 0) {
      min_cc = std::atoi(a.c_str() + flag.size());
    } else {
      args.push_back(argv[i]);
      if (i > 0 && !a.empty() && a[0] != '-') filters.push_back(a);
    }
  }
  Catch::Session session;
  int rc = session.applyCommandLine(static_cast<int>(args.size()), args.data());
  if (rc != 0) return rc;

  const char* report_path = std::getenv("COURSE_REPORT");
  if (report_path != nullptr && *report_path != '\0' && !ReportFile::get().open(report_path)) {
    std::fprintf(stderr, "cannot write the report COURSE_REPORT=%s\n", report_path);
    return 2;
  }
  course::JsonLine run;
  run.add("schema", kReportSchema)
      .add("type", "run")
      .add("program", program_name(argc > 0 ? argv[0] : nullptr))
      .add("filters", filters)
      .add("catch2", std::to_string(CATCH_VERSION_MAJOR) + "." +
                         std::to_string(CATCH_VERSION_MINOR) + "." +
                         std::to_string(CATCH_VERSION_PATCH));

  if (min_cc >= 0) {
    std::string why = course::device_unusable_reason(course::probe_device(0), min_cc);
    if (!why.empty()) {
      std::printf("SKIPPED: %s\n", why.c_str());
      if (ReportFile::get().on()) {
        // The test cases that would have run, each skipped: the tools still know their tasks.
        ReportFile::get().write(run.add("skipped", why));
        Catch::Config& config = session.config();
        long count = 0;
        for (const auto& test :
             Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config)) {
          const Catch::TestCaseInfo& info = test.getTestCaseInfo();
          ReportFile::get().write(course::JsonLine()
                                      .add("type", "case")
                                      .add("name", info.name)
                                      .add("tags", split_tags(info.tagsAsString()))
                                      .add("passed", false)
                                      .add("skipped", true)
                                      .add("todo", false)
                                      .add_json("failures", "[]"));
          ++count;
        }
        ReportFile::get().write(course::JsonLine()
                                    .add("type", "end")
                                    .add("passed", 0L)
                                    .add("failed", 0L)
                                    .add("skipped", count));
      }
      return course::kExitSkipped;
    }
  }
  ReportFile::get().write(run);
  return session.run();
}
