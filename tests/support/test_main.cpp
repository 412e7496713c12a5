// The main() of every test program (Catch2 2.x or 3.x).
//
// It understands one option of its own, --gpu-min-cc=NN: before any test runs, it checks for a
// CUDA device of at least compute capability NN and, when there is none, prints the reason and
// exits with course::kExitSkipped, which CTest reports as "skipped" (SKIP_RETURN_CODE).
#if defined(COURSE_CATCH2_V3)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "common/device.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::vector<char*> args;
  int min_cc = -1;
  const std::string flag = "--gpu-min-cc=";
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind(flag, 0) == 0) {
      min_cc = std::atoi(a.c_str() + flag.size());
    } else {
      args.push_back(argv[i]);
    }
  }
  if (min_cc >= 0) {
    std::string why = course::device_unusable_reason(course::probe_device(0), min_cc);
    if (!why.empty()) {
      std::printf("SKIPPED: %s\n", why.c_str());
      return course::kExitSkipped;
    }
  }
  Catch::Session session;
  int rc = session.applyCommandLine(static_cast<int>(args.size()), args.data());
  if (rc != 0) return rc;
  return session.run();
}
