// The grader of lesson 11's lab (lessons/11-tma-pipeline/lab/): every variant the chapter measures
// against the headline, on the shape grid, the ragged problems and the problems stream-K splits
// along K. The lab is built with the reference solution, so this grader runs in `make test` (the
// test solution.11.lab), never in a grade of your exercise.
#include "../cases.hpp"

#include "lab/lab.hpp"

TEST_CASE("every variant of the lab on the shape grid", "[gpu]") {
  check_until_first_failure(lesson11::lab::variants(), grid_cases());
}

TEST_CASE("every variant of the lab on problems ragged in one dimension at a time", "[gpu]") {
  check_until_first_failure(lesson11::lab::variants(), ragged_cases());
}

TEST_CASE("every variant of the lab on the problems stream-K splits along K", "[gpu]") {
  check_until_first_failure(lesson11::lab::variants(), stream_k_cases());
}
