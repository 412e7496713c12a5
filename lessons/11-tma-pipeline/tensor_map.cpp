#include "tensor_map.hpp"

#include "common/check.hpp"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <string>

namespace lesson11 {

namespace {

//! [entry_point]
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || p == nullptr) {
      throw course::CudaError(
          "cuTensorMapEncodeTiled is not available from this driver (TMA needs CUDA 12 or newer)");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}
//! [entry_point]

}  // namespace

CUtensorMap make_tensor_map_2d(const void* base, std::uint64_t rows, std::uint64_t cols,
                               std::uint32_t box_rows, std::uint32_t box_cols) {
  //! [encode]
  CUtensorMap map{};
  // Dimension 0 is the innermost (contiguous) one: the columns.
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * sizeof(std::uint16_t)};  // bytes from one row to the next
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides, box,
      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  //! [encode]
  if (r != CUDA_SUCCESS) {
    throw course::CudaError("cuTensorMapEncodeTiled failed (CUresult " + std::to_string(r) +
                            ") for a " + std::to_string(rows) + " x " + std::to_string(cols) +
                            " bf16 matrix in boxes of " + std::to_string(box_rows) + " x " +
                            std::to_string(box_cols) +
                            ": the row stride must be a multiple of 16 bytes, the base 16-byte "
                            "aligned, a box side at most 256 and its row at most 128 bytes");
  }
  return map;
}

}  // namespace lesson11
