// Tests of the shape check every GEMM launcher calls first (common/gemm.hpp): gemm_shape_error
// and require_gemm_shape. Plain C++, no CUDA calls.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "common/gemm.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("gemm_shape_error: empty for shapes a launcher can run", "[cpu][gemm_shape]") {
  constexpr long kIntMax = std::numeric_limits<int>::max();
  CHECK(course::gemm_shape_error(1, 1, 1, 1).empty());
  CHECK(course::gemm_shape_error(4096, 4096, 4096, 128).empty());
  CHECK(course::gemm_shape_error(1031, 1000, 1537, 0).empty());  // grid not known yet
  INFO("at the limits: 2^31 - 1 elements in a matrix, 65535 blocks along y");
  CHECK(course::gemm_shape_error(kIntMax, 1, 1, 65535).empty());
  CHECK(course::gemm_shape_error(1, kIntMax, 1, 1).empty());
  CHECK(course::gemm_shape_error(1, 1, kIntMax, 1).empty());
  CHECK(course::gemm_shape_error(46340, 46340, 1, course::kMaxGridY).empty());
}

TEST_CASE("gemm_shape_error: one line naming the shape and what is wrong", "[cpu][gemm_shape]") {
  constexpr long kIntMax = std::numeric_limits<int>::max();
  const std::string below = course::gemm_shape_error(3, 0, 5, 1);
  INFO("got: " << below);
  CHECK(below == "M=3 N=0 K=5: every dimension must be at least 1");
  for (long bad : {0L, -1L}) {
    CHECK(contains(course::gemm_shape_error(bad, 4, 4, 1), "at least 1"));
    CHECK(contains(course::gemm_shape_error(4, bad, 4, 1), "at least 1"));
    CHECK(contains(course::gemm_shape_error(4, 4, bad, 1), "at least 1"));
  }
  // Each of the three matrices on its own: A (M x K), B (K x N), C (M x N).
  const std::string a = course::gemm_shape_error(65536, 1, 32768, 1);
  INFO("got: " << a);
  CHECK(contains(a, "M=65536 N=1 K=32768: "));
  CHECK(contains(a, "more than 2^31 - 1 elements"));
  CHECK(contains(course::gemm_shape_error(1, 65536, 32768, 1), "too many for int indices"));
  CHECK(contains(course::gemm_shape_error(65536, 32768, 1, 1), "too many for int indices"));
  CHECK(contains(course::gemm_shape_error(kIntMax, 2, 1, 1), "too many for int indices"));
  const std::string grid = course::gemm_shape_error(2097152, 1, 1, 65536);
  INFO("got: " << grid);
  CHECK(grid ==
        "M=2097152 N=1 K=1: the grid needs 65536 blocks along y, more than the grid's "
        "limit of 65535");
  CHECK(contains(course::gemm_shape_error(0, 1, 1, 70000), "at least 1"));  // sizes come first
}

TEST_CASE("require_gemm_shape throws std::invalid_argument with the kernel's name",
          "[cpu][gemm_shape]") {
  CHECK_FALSE(course_test::throws_invalid_argument(
      [] { course::require_gemm_shape("naive_sgemm", 7, 13, 5, 1); }));
  CHECK(course_test::throws_invalid_argument(
      [] { course::require_gemm_shape("naive_sgemm", 7, 0, 5, 1); }));
  CHECK(course_test::throws_invalid_argument(
      [] { course::require_gemm_shape("naive_sgemm", 7, 13, 5, 65536); }));
  std::string message;
  try {
    course::require_gemm_shape("tiled_sgemm", 0, 4, 4, 0);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  CHECK(message == "tiled_sgemm: M=0 N=4 K=4: every dimension must be at least 1");
}
