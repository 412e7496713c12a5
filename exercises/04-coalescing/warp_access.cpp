// Lesson 04, task 1: what one warp-wide memory access costs, in sectors and lines.
//
// exercises/04-coalescing/warp_access.cpp is yours: fill in the region between "BEGIN EXERCISE"
// and "END EXERCISE". The contract, with worked examples, is lessons/04-coalescing/warp_access.hpp.
// Graded on the CPU: `make grade-4` needs no GPU for this task.
#include "warp_access.hpp"

#include "common/todo.hpp"

#include <set>
#include <vector>

namespace lesson04 {

//! [warp_access]
WarpAccess warp_access(const std::vector<long long>& byte_addresses) {
  // BEGIN EXERCISE: warp_access
  // TODO: count the distinct 32-byte sectors (kSectorBytes) and 128-byte lines (kLineBytes) the
  // addresses fall in. Lanes that share a sector or a line count once.
  course::not_implemented("warp_access (exercises/04-coalescing/warp_access.cpp)");
  // END EXERCISE
}
//! [warp_access]

}  // namespace lesson04
