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
  const int words = access_bytes / kBankBytes;  // the banks one access covers: 1, 2 or 4
  const int phase_threads = 32 / words;         // 128 bytes of requests per phase: 32, 16 or 8
  int extra = 0;
  for (int first = 0; first < 32; first += phase_threads) {
    // The different words each bank is asked for in this phase (the same word twice is one
    // read, broadcast to every thread that wants it).
    std::set<std::uint32_t> words_in_bank[kBanks];
    for (int t = first; t < first + phase_threads; ++t) {
      for (int w = 0; w < words; ++w) {
        const std::uint32_t word = addresses[t] / kBankBytes + w;
        words_in_bank[word % kBanks].insert(word);
      }
    }
    std::size_t busiest = 1;
    for (const auto& s : words_in_bank) busiest = std::max(busiest, s.size());
    extra += static_cast<int>(busiest) - 1;  // one wavefront per word of the busiest bank
  }
  return extra;
  // END EXERCISE
}
//! [bank_conflicts]

int shared_wavefronts(const WarpAddresses& addresses, int access_bytes) {
  return access_bytes / kBankBytes + bank_conflicts(addresses, access_bytes);
}

}  // namespace lesson09
