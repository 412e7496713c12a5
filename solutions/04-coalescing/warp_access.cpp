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
  // The memory system moves whole sectors and looks up whole lines: what a warp costs is how many
  // different ones its lanes fall in, however many lanes share each.
  std::set<long long> sectors, lines;
  for (long long address : byte_addresses) {
    sectors.insert(address / kSectorBytes);
    lines.insert(address / kLineBytes);
  }
  WarpAccess access;
  access.sectors = static_cast<int>(sectors.size());
  access.lines = static_cast<int>(lines.size());
  return access;
  // END EXERCISE
}
//! [warp_access]

}  // namespace lesson04
