// Wrong solutions of every GEMM lesson (wrong_solutions.cpp), graded the way a grader grades: the
// shape grid in order, each shape through check_gemm_run() (fresh random inputs, the check, and
// on failure the probes), the first failing shape's report read. Its first line must name the
// mistake. Run with -s to print the table: lesson, kind, first failing shape, first line.
#include "catch_compat.hpp"

#include "wrong_solutions.hpp"

#include "common/diagnosis.hpp"
#include "common/gemm_check.hpp"
#include "common/precision.hpp"
#include "lessons/03-naive/causes.hpp"
#include "lessons/08-warp-shuffle/causes.hpp"
#include "lessons/10-tensor-cores/causes.hpp"
#include "lessons/11-tma-pipeline/causes.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

namespace {

// Does `line` hold every group of `expect` (a group: alternatives separated by '|')?
bool names(const std::string& line, const std::vector<std::string>& expect) {
  for (const std::string& group : expect) {
    bool any = false;
    std::istringstream alternatives(group);
    for (std::string alt; std::getline(alternatives, alt, '|');)
      any = any || line.find(alt) != std::string::npos;
    if (!any) return false;
  }
  return true;
}

// The grader's loop: the first shape of the grid that fails, with its report.
course::VerifyReport grade(const wrong::Case& c) {
  const std::vector<course::GemmShape> grid =
      c.bf16 ? course::shape_grid<course::Bf16>(false) : course::shape_grid<course::Fp32>(false);
  for (const course::GemmShape& s : grid) {
    course::VerifyOptions options;
    options.lesson = c.lesson;  // as in the lesson's grader: its rules and the course's
    course::VerifyReport r = course::check_gemm_run(c.run, s, c.bf16, options);
    if (!r.passed) return r;
  }
  course::VerifyReport passed;
  passed.passed = true;
  return passed;
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

}  // namespace

TEST_CASE("wrong solutions of every GEMM lesson: the first line names the mistake",
          "[cpu][verify][diagnosis]") {
  int hits = 0, total = 0;
  std::vector<std::string> lessons;
  for (const wrong::Case& c : wrong::cases()) {
    const auto start = std::chrono::steady_clock::now();
    const course::VerifyReport r = grade(c);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string line = first_line(r.cause);
    const bool hit = !r.passed && names(line, c.expect);
    hits += hit;
    ++total;
    if (std::find(lessons.begin(), lessons.end(), c.lesson) == lessons.end())
      lessons.push_back(c.lesson);
    std::printf("%s\t%s\t%s\t%s\t%s\n", c.lesson, c.kind, r.passed ? "-" : r.shape.str().c_str(),
                hit ? "hit" : "MISS", r.passed ? "PASSED" : line.c_str());
    INFO("lesson " << c.lesson << ", " << c.kind << " (" << c.what << ")\n" << r.describe());
    CHECK_FALSE(r.passed);
    CHECK(hit);
    CHECK(seconds < 10.0);
  }
  std::printf("first line names the mistake: %d of %d\n", hits, total);
  CHECK(lessons.size() == 8);  // 03, 04, 05, 07, 08, 09, 10, 11
  for (const std::string& l : lessons) {
    const long n = std::count_if(wrong::cases().begin(), wrong::cases().end(),
                                 [&](const wrong::Case& c) { return c.lesson == l; });
    INFO("lesson " << l);
    CHECK(n >= 4);
  }
}
