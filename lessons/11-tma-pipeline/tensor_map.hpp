// Lesson 11: tensor maps, the descriptors TMA copies tiles with. Host code, given.
#pragma once

#include <cuda.h>  // CUtensorMap and its enums (types only: nothing links against libcuda)

#include <cstdint>

namespace lesson11 {

/// A 2D tensor map over a row-major bf16 matrix of `rows` x `cols` at `base` (device memory),
/// copied in boxes of `box_rows` x `box_cols` with TMA's 128-byte swizzle (`box_cols` * 2 must be
/// at most 128). Elements of a box outside the matrix read as zeros and are not written by stores.
/// Needs: `cols` * 2 a multiple of 16 (the row stride), `base` 16-byte aligned.
///
/// cuTensorMapEncodeTiled is a driver-API function; it is fetched through the runtime's
/// cudaGetDriverEntryPointByVersion, so the course links no extra library.
/// \throws course::CudaError when the driver rejects the map (the message says which argument)
CUtensorMap make_tensor_map_2d(const void* base, std::uint64_t rows, std::uint64_t cols,
                               std::uint32_t box_rows, std::uint32_t box_cols);

}  // namespace lesson11
