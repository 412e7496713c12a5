/// \file figures.hpp
/// \brief Lesson 06's figures: what limits the blocks per SM of a configuration, one bar per limit
/// from your occupancy(), and the waves of a grid on a small GPU from your waves().
#pragma once

#include "lessons/06-occupancy/occupancy.hpp"

#include "common/svg.hpp"

#include <vector>

namespace lesson06 {

/// The configurations the occupancy figure offers: threads per block, registers per thread,
/// shared memory per block (KiB).
const std::vector<int>& figure_threads();
const std::vector<int>& figure_registers();
const std::vector<int>& figure_smem_kib();

/// The four limits on blocks per SM of one block of `k` on `sm`, as occupancy() gives them: one
/// bar per limit, the binding one marked, and the SM's warp slots filled by the resident blocks.
/// Tagged for tests: each bar is class "bar"; the binding one also "limit NAME N" (NAME from
/// limit_name, N its blocks per SM); each resident warp "warp".
course::svg::Scene occupancy_scene(const SmLimits& sm, const KernelUsage& k);

/// The waves of a grid of `grid_blocks` blocks on `sm_count` SMs of `blocks_per_sm` blocks each,
/// as waves() gives them: one row of slots per wave, the blocks in launch order, the idle slots of
/// the last wave hatched. Tagged for tests: each block of a wave before the last "block", each
/// block of the last wave "tail", each wave "wave", each idle slot "idle".
course::svg::Scene waves_scene(int sm_count, int blocks_per_sm, long long grid_blocks);

}  // namespace lesson06
