// Lesson 11: the shared memory of the warp-specialized kernels (ring_gemm.cuh, and the lab's
// ping-pong kernel), laid out as one struct of the parts each policy owns: the mainloop's stages of
// A and B, the epilogue's staging boxes, the mainloop's barriers. The kernel takes its addresses
// from the struct and the launch asks for its size, so the two cannot disagree. Given code.
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

namespace lesson11 {

/// One staging box: 64 rows of 64 bf16 (128 bytes), what one TMA store with the 128-byte swizzle
/// reads. 1024-byte aligned: the swizzle's pattern repeats every 8 rows of 128 bytes, and TMA
/// computes it from the address.
struct alignas(1024) StagingBox {
  __nv_bfloat16 v[64 * 64];
};

/// `N` staging boxes, or none (a kernel whose epilogue stores from registers).
template <int N>
struct StagingBoxes {
  StagingBox box[N];
};
template <>
struct StagingBoxes<0> {};

//! [ring_storage]
/// The shared memory of a warp-specialized kernel: the mainloop's stages (its tiles of A and B),
/// the epilogue's staging boxes, then the mainloop's barriers. The 1024-byte aligned tiles and
/// boxes come first, back to back; the barriers' 16 bytes a stage after them share one last
/// 1024-byte block. The launch asks for sizeof(RingStorage) plus 1024 bytes of slack, to align
/// the start.
template <class Mainloop, class Staging>
struct RingStorage {
  typename Mainloop::Stages stages;
  Staging staging;
  typename Mainloop::Barriers barriers;
};
//! [ring_storage]

/// The dynamic shared memory a launch asks for to hold a `Storage`: its size, and 1024 bytes of
/// slack to align its start (ring_storage()).
template <class Storage>
constexpr int dynamic_smem_bytes() {
  return static_cast<int>(sizeof(Storage)) + 1024;
}

/// The largest dynamic shared memory a block may have on compute capability 9.0 (227 KiB).
constexpr int kMaxDynamicSmem = 232448;

/// The 1024-byte aligned start of the dynamic shared memory, where a kernel's storage struct (a
/// RingStorage, or rungs 1 and 2's TmaWgmmaConfig::Storage) begins.
template <class Storage>
__device__ inline Storage& ring_storage(unsigned char* smem_raw) {
  return *reinterpret_cast<Storage*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) &
                                     ~std::uintptr_t{1023});
}

}  // namespace lesson11
