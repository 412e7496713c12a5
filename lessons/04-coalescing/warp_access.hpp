/// \file warp_access.hpp
/// \brief Lesson 04: what one warp-wide memory instruction costs, counted in 32-byte sectors and
/// 128-byte cache lines, and the addresses the three SGEMM mappings ask for.
///
/// A warp issues a load or a store for its 32 lanes at once. The memory system moves whole
/// **sectors** of 32 bytes, grouped four to a **cache line** of 128 bytes; a request is served
/// sector by sector, line by line. So the cost of one warp-wide access is the number of distinct
/// sectors (bytes moved = 32 per sector) and distinct lines (separate pieces of work for the
/// cache) its addresses fall in:
///
/// | the 32 lanes read                         | sectors | lines | bytes moved for 128 asked |
/// |-------------------------------------------|---------|-------|---------------------------|
/// | 32 consecutive floats, from a line start  | 4       | 1     | 128                       |
/// | the same float (a broadcast)              | 1       | 1     | 32 (for 4 distinct)       |
/// | floats 4096 apart (a column of a matrix)  | 32      | 32    | 1024                      |
///
/// Addresses here are byte offsets from the start of an allocation. cudaMalloc returns memory
/// aligned to at least 256 bytes, so an offset's place within its sector and line is the same as
/// the real address's. Plain C++: the CPU grader and the lesson program both use it.
#pragma once

#include <vector>

namespace lesson04 {

/// Threads in a warp.
constexpr int kWarpSize = 32;
/// The unit memory is moved in between the L1 cache, the L2 cache and device memory.
constexpr int kSectorBytes = 32;
/// A cache line: four sectors, what a perfectly coalesced warp-wide float access covers.
constexpr int kLineBytes = 128;

/// The cost of one warp-wide access.
struct WarpAccess {
  int sectors = 0;  ///< distinct 32-byte sectors touched: bytes moved = 32 * sectors
  int lines = 0;    ///< distinct 128-byte lines touched
};

/// **Exercise (task 1).** Counts the distinct sectors and lines that one warp-wide access touches.
/// \param byte_addresses the byte offset each active lane accesses (1 to 32 entries, each >= 0;
///        lanes may share an address). Each lane accesses 4 bytes (one float) starting there,
///        and the offsets are multiples of 4, so a lane's float never spans two sectors.
/// \return e.g. {0, 4, 8, ..., 124} -> 4 sectors, 1 line; {0, 0, ..., 0} -> 1 sector, 1 line;
///         {4, 8, ..., 128} (one float off) -> 5 sectors, 2 lines.
WarpAccess warp_access(const std::vector<long long>& byte_addresses);

/// The three thread mappings of lessons 03 and 04.
enum class Mapping {
  kNaive,        ///< lesson 03: x walks down the rows of C
  kCoalesced,    ///< lesson 04: x walks along the columns of C
  kTransposedB,  ///< lesson 04's contrast: x along the columns, B read from Bt (N x K)
};

/// The byte offsets one warp asks for: from A and from B (or Bt) at one step k of the loop, and
/// into C for the final store. One entry per active lane.
struct WarpAddresses {
  std::vector<long long> a, b, c;
};

/// The addresses of the **first warp** of block (0, 0) (threadIdx.x = 0..31, threadIdx.y = 0) of
/// an M x N x K problem under `mapping`, at step `k` (0 <= k < K) of the dot product. Lanes whose
/// element lies outside C (fewer than 32 rows or columns) are inactive and left out. Elements are
/// floats unless `element_bytes` says otherwise (8 for a float2, 16 for a float4: each lane's
/// address is then where its element starts, aligned, so it never spans two sectors).
inline WarpAddresses first_warp_addresses(Mapping mapping, int M, int N, int K, int k = 0,
                                          int element_bytes = sizeof(float)) {
  WarpAddresses w;
  const long long f = element_bytes;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    // Lesson 03 puts the lane on the row, lesson 04 on the column; the other index is 0.
    const long long row = mapping == Mapping::kNaive ? lane : 0;
    const long long col = mapping == Mapping::kNaive ? 0 : lane;
    if (row >= M || col >= N) break;
    w.a.push_back((row * K + k) * f);                                   // A[row][k]
    w.b.push_back(mapping == Mapping::kTransposedB ? (col * K + k) * f  // Bt[col][k]
                                                   : (static_cast<long long>(k) * N + col) * f);
    w.c.push_back((row * N + col) * f);  // C[row][col]
  }
  return w;
}

}  // namespace lesson04
