// Tests of common/cli and common/report: the command line every lesson takes, and the output.
#include "catch_compat.hpp"

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/gemm_driver.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"
#include "common/todo.hpp"

#include <unistd.h>

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
std::string parse(course::Cli& cli, std::vector<const char*> args) {
  args.insert(args.begin(), "prog");
  return cli.try_parse(static_cast<int>(args.size()), args.data());
}
course::Cli sizes() {
  course::Cli cli("prog", "test program");
  cli.number("size", 64, "matrix size").text("out", "grid.svg", "file").flag("json", "json lines");
  return cli;
}

// What `body` prints on stdout and stderr, in the order it prints it.
std::string printed(const std::function<void()>& body) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  const int saved_out = dup(1), saved_err = dup(2);
  dup2(fileno(file), 1);
  dup2(fileno(file), 2);
  body();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  std::rewind(file);
  std::string out;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file))
    out.push_back(static_cast<char>(c));
  std::fclose(file);
  return out;
}
}  // namespace

TEST_CASE("parse_positive accepts positive whole numbers only", "[cpu][cli]") {
  CHECK(course::parse_positive("1").value() == 1);
  CHECK(course::parse_positive("4096").value() == 4096);
  for (const char* bad : {"0", "-3", "12x", "", "1e3", "3.5", " 4", "abc", "99999999999999"}) {
    INFO("input '" << bad << "'");
    CHECK_FALSE(course::parse_positive(bad).has_value());
  }
}

TEST_CASE("Cli reads numbers, text and switches", "[cpu][cli]") {
  auto cli = sizes();
  REQUIRE(parse(cli, {"--size", "257", "--out=pic.svg", "--json"}).empty());
  CHECK(cli.get("size") == 257);
  CHECK(cli.str("out") == "pic.svg");
  CHECK(cli.on("json"));
  CHECK(cli.given("size"));
  auto defaults = sizes();
  REQUIRE(parse(defaults, {}).empty());
  CHECK(defaults.get("size") == 64);
  CHECK_FALSE(defaults.on("json"));
  CHECK_FALSE(defaults.given("size"));
}

TEST_CASE("Cli rejects bad input with a message that names it", "[cpu][cli]") {
  struct Case {
    std::vector<const char*> args;
    std::string expect;
  };
  std::vector<Case> cases = {
      {{"--size", "0"}, "positive whole number, got '0'"},
      {{"--size", "-5"}, "got '-5'"},
      {{"--size", "ten"}, "got 'ten'"},
      {{"--size"}, "needs a value"},
      {{"--bogus"}, "unknown option --bogus"},
      {{"stray"}, "unexpected argument 'stray'"},
      {{"--json=1"}, "takes no value"},
      {{"--size", "999999999999"}, "--size is at most 2147483647, got '999999999999'"},
      {{"--size", "99999999999999999999"}, "is at most 2147483647"},
      {{"--size", "2147483648"}, "is at most 2147483647"},
  };
  for (auto& c : cases) {
    auto cli = sizes();
    std::string err = parse(cli, c.args);
    INFO("args[0]=" << c.args[0] << " error='" << err << "'");
    CHECK(err.find(c.expect) != std::string::npos);
  }
  CHECK(sizes().usage().find("--size N") != std::string::npos);
  auto max = sizes();
  REQUIRE(parse(max, {"--size", "2147483647"}).empty());
  CHECK(max.get("size") == 2147483647);
}

TEST_CASE("The usage shows the declared defaults, not the values given", "[cpu][cli]") {
  auto cli = sizes();
  REQUIRE(parse(cli, {"--size", "4097", "--out", "other.svg"}).empty());
  const std::string usage = cli.usage();
  INFO(usage);
  CHECK(usage.find("(default 64)") != std::string::npos);
  CHECK(usage.find("(default grid.svg)") != std::string::npos);
  CHECK(usage.find("4097") == std::string::npos);
  CHECK(usage.find("other.svg") == std::string::npos);
}

TEST_CASE("--only names kernels by any of its comma-separated texts", "[cpu][cli]") {
  CHECK(course::named_in("", "hopper_gemm"));
  CHECK(course::named_in("hopper", "hopper_gemm"));
  CHECK(course::named_in("portable,multicast B", "coop 128x256 s4 multicast B"));
  CHECK(course::named_in("portable,multicast B", "portable_gemm"));
  CHECK_FALSE(course::named_in("portable,multicast B", "hopper_gemm"));
  CHECK_FALSE(course::named_in(",", "hopper_gemm"));
  CHECK(course::named_in("x,,hopper,", "hopper_gemm"));
}

TEST_CASE("a stub ends a lesson program with what is left to write, and exit 0", "[cpu][cli]") {
  const course::LessonId lesson{"03", 75};
  CHECK(lesson.hint_command() == "make hint-3");
  CHECK(lesson.grade_command() == "make grade-3");
  CHECK(course::guarded_main(lesson, [] {
          course::not_implemented("naive_sgemm (exercises/03-naive/naive_sgemm.cu)");
          return 1;
        }) == course::kExitOk);
  CHECK(course::try_yours([] { course::not_implemented("x (exercises/03-naive/x.cu)"); }) == false);
  CHECK(course::try_yours([] {}) == true);
  // A wrong result still fails; an error is still an error.
  CHECK(course::guarded_main(lesson, [] { return static_cast<int>(course::kExitFailed); }) ==
        course::kExitFailed);
  CHECK(course::guarded_main(lesson, []() -> int { throw std::runtime_error("boom"); }) ==
        course::kExitFailed);
}

TEST_CASE("without a GPU, a lesson program names the stubs its CPU part met, and exits 0",
          "[cpu][cli]") {
  // Compute capability 99.9: no GPU here can run it, with or without one.
  const course::LessonId lesson{"04", 999};
  bool stub = true, wrong = false, gpu_ran = false;
  course::GemmLesson<course::Fp32> program(lesson, "a lesson with a CPU part");
  program.cpu_part = [&](course::LessonRun& run) {
    std::printf("given: what does not depend on the learner\n");
    course::try_yours([&] {
      if (stub) course::not_implemented("warp_access (exercises/04-coalescing/warp_access.cpp)");
      if (wrong) run.failed = true;
    });
  };
  program.gpu_part = [&](course::LessonRun&) { gpu_ran = true; };
  program.kernels = [&](course::LessonRun&) {
    gpu_ran = true;
    return std::vector<course::NamedGemm<course::Fp32>>{};
  };
  char name[] = "lesson04";
  char* argv[] = {name, nullptr};
  int rc = -1;
  std::string out = printed([&] { rc = program.run(1, argv); });
  INFO(out);
  CHECK(rc == course::kExitOk);
  CHECK(out.find("given: what does not depend on the learner") != std::string::npos);
  CHECK(out.find("lesson 04's program needs a GPU to run its kernels") != std::string::npos);
  CHECK(out.find("\nnot written yet: warp_access (exercises/04-coalescing/warp_access.cpp); "
                 "make hint-4 gives a hint, make grade-4 grades your code\n") != std::string::npos);
  CHECK_FALSE(gpu_ran);

  // Written: the no-GPU exit code, and no stub named. Wrong: a failure.
  stub = false;
  out = printed([&] { rc = program.run(1, argv); });
  CHECK((rc == course::kExitNoDevice || rc == course::kExitDeviceTooOld));
  CHECK(out.find("not written yet") == std::string::npos);
  wrong = true;
  out = printed([&] { rc = program.run(1, argv); });
  CHECK(rc == course::kExitFailed);
  CHECK_FALSE(gpu_ran);
}

TEST_CASE("Table lines up its columns", "[cpu][report]") {
  course::Table t({"kernel", "ms", "TFLOP/s"});
  t.add_row({"naive", "12.5", "0.5"});
  t.add_row({"cuBLAS", "0.25", "55.0"});
  const std::string s = t.str();
  CHECK(s ==
        "kernel  ms    TFLOP/s\n"
        "---------------------\n"
        "naive   12.5      0.5\n"
        "cuBLAS  0.25     55.0\n");
  CHECK_THROWS(t.add_row({"short"}));
}

TEST_CASE("JsonLine writes one valid line, escaped, NaN as null", "[cpu][report]") {
  course::JsonLine j;
  j.add("kernel", "say \"hi\"\n")
      .add("ms", 1.5)
      .add("M", 4096)
      .add("ok", true)
      .add("bad", 0.0 / 0.0);
  CHECK(j.str() == R"({"kernel": "say \"hi\"\n", "ms": 1.5, "M": 4096, "ok": true, "bad": null})");
}

TEST_CASE("JsonLine writes arrays of strings and values already encoded", "[cpu][report]") {
  course::JsonLine j;
  j.add("tags", std::vector<std::string>{"cpu", "task_1"})
      .add("none", std::vector<std::string>{})
      .add_json("inner", course::JsonLine().add("a", 1).str());
  CHECK(j.str() == R"({"tags": ["cpu", "task_1"], "none": [], "inner": {"a": 1}})");
}

TEST_CASE("the measurement lines carry their schema, and the fields in their declared order",
          "[cpu][report]") {
  course::GemmMeasurement m;
  m.lesson = "03";
  m.kernel = "naive_sgemm";
  m.M = 4096;
  m.N = 2048;
  m.K = 1024;
  m.ms = 2.5;
  m.spread = 0.01;
  m.tflops = 6.9;
  m.cublas_ms = 0.05;
  m.cublas_tflops = 340;
  m.pct_of_cublas = 2;
  m.checked = m.passed = m.headline = true;
  m.gpu = "G";
  CHECK(m.json().str() ==
        R"({"schema": "course.measurement/2", "lesson": "03", "kernel": "naive_sgemm", )"
        R"("M": 4096, "N": 2048, "K": 1024, "ms": 2.5, "spread": 0.01, "tflops": 6.9, )"
        R"("cublas_ms": 0.05, "cublas_tflops": 340, "pct_of_cublas": 2, "checked": true, )"
        R"("passed": true, "headline": true, "gpu": "G", "precision": "fp32", )"
        R"("regime": "burst", "samples": 0, "kernel_first": false, "sm_clock_mhz": null, )"
        R"("cublas_sm_clock_mhz": null, "power_w": null, "cublas_power_w": null, )"
        R"("energy_j": null, "cublas_energy_j": null})");
  m.intensity = 0.25;  // stated: the line says it, after the precision
  CHECK(m.json().str().find(R"("precision": "fp32", "intensity": 0.25, "regime")") !=
        std::string::npos);
  m.regime = "sustained";  // what NVML saw: numbers where known
  m.sm_clock_mhz = 1755;
  m.energy_j = 0.5;
  CHECK(m.json().str().find(R"("regime": "sustained", )") != std::string::npos);
  CHECK(m.json().str().find(R"("sm_clock_mhz": 1755, )") != std::string::npos);
  CHECK(m.json().str().find(R"("energy_j": 0.5, "cublas_energy_j": null})") != std::string::npos);
  CHECK(course::measurement_line("06", "occupancy").add("blocks_per_sm", 4).str() ==
        R"({"schema": "course.measurement/2", "lesson": "06", "what": "occupancy", )"
        R"("blocks_per_sm": 4})");
}

TEST_CASE("summarize_times: median, spread, and the rates", "[cpu][timing]") {
  auto s = course::summarize_times({3.0, 1.0, 2.0, 10.0});
  CHECK(s.reps == 4);
  CHECK(s.median_ms == 2.5);
  CHECK(s.min_ms == 1.0);
  CHECK(s.max_ms == 10.0);
  CHECK(s.mean_ms == 4.0);
  CHECK(s.spread() == (10.0 - 1.0) / 2.5);
  CHECK(course::summarize_times({5.0}).median_ms == 5.0);
  CHECK_THROWS(course::summarize_times({}));
  CHECK(course::gemm_flops(4096, 4096, 4096) == 2.0 * 4096.0 * 4096.0 * 4096.0);
  CHECK(course::tflops(2e12, 1000.0) == 2.0);
  CHECK(course::gbps(3e9, 1.0) == 3000.0);
}
