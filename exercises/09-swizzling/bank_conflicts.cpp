// Lesson 09, task 1: the bank-conflict counter, plain host code.
//
// exercises/09-swizzling/bank_conflicts.cpp is yours: fill in the region between "BEGIN EXERCISE"
// and "END EXERCISE". The contract, with worked examples, is
// lessons/09-swizzling/bank_conflicts.hpp. `make grade-9` grades it on the CPU.
#include "bank_conflicts.hpp"

#include "common/todo.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace lesson09 {

//! [bank_conflicts]
int bank_conflicts(const WarpAddresses& addresses, int access_bytes) {
  if (access_bytes != 4 && access_bytes != 8 && access_bytes != 16) {
    throw std::invalid_argument("bank_conflicts: access_bytes must be 4, 8 or 16, not " +
                                std::to_string(access_bytes));
  }
  for (int t = 0; t < 32; ++t) {
    if (addresses[t] % access_bytes != 0) {
      throw std::invalid_argument("bank_conflicts: thread " + std::to_string(t) + "'s address " +
                                  std::to_string(addresses[t]) + " is not a multiple of " +
                                  std::to_string(access_bytes));
    }
  }
  // BEGIN EXERCISE: bank_conflicts
  // TODO: count the extra wavefronts (see bank_conflicts.hpp for the model and examples).
  //   - An access of access_bytes covers access_bytes / 4 consecutive 4-byte words (banks).
  //   - The warp is served in phases of 128 bytes: all 32 threads for 4-byte accesses, half-warps
  //     (16 threads) for 8-byte, quarter-warps (8 threads) for 16-byte accesses.
  //   - In a phase, bank b must deliver every *different* word that falls into it (word % 32 == b);
  //     the same word asked for by several threads is read once. The phase takes as many
  //     wavefronts as the busiest bank has different words.
  //   - Return the sum over the phases of (wavefronts - 1).
  (void)addresses;
  course::not_implemented("bank_conflicts (exercises/09-swizzling/bank_conflicts.cpp)");
  // END EXERCISE
}
//! [bank_conflicts]

int shared_wavefronts(const WarpAddresses& addresses, int access_bytes) {
  return access_bytes / kBankBytes + bank_conflicts(addresses, access_bytes);
}

}  // namespace lesson09
