// Lesson 06: helpers of the given part of the occupancy calculator (occupancy_given.cpp) that the
// functions you write call.
#pragma once

#include "occupancy.hpp"

namespace lesson06 {

/// The allocation rules shared by compute capability 8.0 and later, for `major.minor`; the table
/// of sm_limits_for() starts from it, and query_sm_limits() falls back on it.
SmLimits ampere_and_later(int major, int minor);

/// Throws std::invalid_argument("WHO: ...") when `sm` was never filled in or `k` makes no sense
/// (no threads, negative registers, a carveout outside -1..100).
void validate(const SmLimits& sm, const KernelUsage& k, const char* who);

}  // namespace lesson06
