/// \file bank_conflicts.hpp
/// \brief Lesson 09, the contract of the CPU part: a model of the shared memory's 32 banks that
/// counts how many extra passes (wavefronts) one warp-wide access costs.
///
/// The model, as the hardware works since Volta (and on the H100):
/// - Shared memory is 32 **banks** of 4 bytes: the 4-byte word at byte address `a` lives in bank
///   `(a / 4) % 32`. One pass, a **wavefront**, reads or writes at most one word per bank: 128
///   bytes.
/// - A warp's request is served in **phases** of 128 bytes: the whole warp for 4-byte accesses,
///   each half-warp (threads 0-15, 16-31) for 8-byte accesses, each quarter-warp (0-7, 8-15,
///   16-23, 24-31) for 16-byte accesses. An access of `b` bytes covers the `b / 4` consecutive
///   words (and banks) from its address.
/// - Within a phase, threads that touch the **same word** share it (a broadcast: no cost). Two
///   **different words in the same bank** need two wavefronts: a bank conflict. A phase takes as
///   many wavefronts as the busiest bank has different words, and at least one.
///
/// So a conflict-free warp access takes `access_bytes / 4` wavefronts (1, 2 or 4), and
/// bank_conflicts() counts the wavefronts beyond that. Nsight Compute reports the same quantity
/// for a kernel as `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum` (loads),
/// `..._op_st.sum` (stores) and `..._op_ldgsts.sum` (cp.async copies). The hardware can do better
/// than the minimum for some broadcasts (two lanes loading the same 16 bytes are served together,
/// so an LDS.128 may take 2 wavefronts instead of 4); conflicts it cannot avoid.
///
/// Plain C++: the grader calls it on the CPU.
#pragma once

#include <array>
#include <cstdint>

namespace lesson09 {

constexpr int kBanks = 32;            ///< banks of shared memory
constexpr int kBankBytes = 4;         ///< bytes per bank (one word)
constexpr int kWavefrontBytes = 128;  ///< bytes one wavefront moves: one word from every bank

/// One warp-wide shared-memory access: the byte address each of the 32 threads reads or writes
/// (relative to any 128-byte aligned base: only the address modulo 128 picks the bank).
using WarpAddresses = std::array<std::uint32_t, 32>;

/// **Exercise (task 1).** The extra wavefronts a warp's shared-memory access costs: for each phase
/// (the warp for 4-byte accesses, half-warps for 8-byte, quarter-warps for 16-byte), the number of
/// different words the busiest bank holds, minus one; summed over the phases.
///
/// Examples (4-byte accesses unless said otherwise):
/// - thread t reads word t (addresses 0, 4, ..., 124): 32 banks, one word each: **0**;
/// - every thread reads address 0: one word, broadcast: **0**;
/// - thread t reads word 32 t (a column of a 32 x 32 float tile): 32 different words, all in bank
///   0: **31**;
/// - thread t reads word 2 t (a stride of 2): banks 0, 2, ..., 30 hold two words each: **1**;
/// - 16-byte accesses, thread t reads bytes 16 t .. 16 t + 15: each quarter-warp covers 128
///   contiguous bytes: **0**;
/// - 16-byte accesses, thread t reads bytes 128 t .. (a column of float4s 128 bytes apart): in
///   each quarter-warp, 8 different words in each of banks 0-3: 7 per phase, **28**.
///
/// \param addresses the byte address of each thread's access, threads 0 to 31
/// \param access_bytes 4, 8 or 16 (a float, a float2, a float4)
/// \return the wavefronts beyond access_bytes / 4 (0 when conflict-free)
/// \throws std::invalid_argument when access_bytes is not 4, 8 or 16, or an address is not a
///         multiple of access_bytes (the hardware requires natural alignment)
int bank_conflicts(const WarpAddresses& addresses, int access_bytes);

/// The wavefronts the access takes in all: access_bytes / 4 (one per phase) plus the conflicts.
/// Given code (built on bank_conflicts).
int shared_wavefronts(const WarpAddresses& addresses, int access_bytes);

}  // namespace lesson09
