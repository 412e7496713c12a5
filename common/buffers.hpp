/// \file buffers.hpp
/// \brief RAII owners for device memory and pinned host memory.
///
/// A DeviceBuffer frees its memory when it goes out of scope, also when a test fails half-way, so
/// no lesson or test ever calls cudaFree by hand.
#pragma once

#include "common/check.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace course {

/// `count` elements of T in device memory (cudaMalloc), freed on destruction. Move-only.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates `count` elements (uninitialised, as cudaMalloc leaves them).
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()));
  }
  /// Allocates and uploads a copy of `host`.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // never throws from a destructor
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(count_, other.count_);
    return *this;
  }

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  /// Copies `count` elements from host memory to the start of the buffer.
  void upload(const T* host, std::size_t count) {
    CUDA_CHECK(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies a whole host vector (at most size() elements) to the start of the buffer.
  void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
  /// Copies `count` elements from the start of the buffer to host memory.
  void download(T* host, std::size_t count) const {
    CUDA_CHECK(cudaMemcpy(host, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// The whole buffer, copied to a new host vector.
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    download(host.data(), count_);
    return host;
  }
  /// Sets every byte to `value` (cudaMemset).
  void fill_bytes(int value) { CUDA_CHECK(cudaMemset(ptr_, value, bytes())); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// `count` elements of T in page-locked host memory (cudaMallocHost): copies from and to it run
/// at full PCIe/NVLink speed and can be asynchronous. Freed on destruction. Move-only.
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&ptr_), count_ * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (ptr_ != nullptr) cudaFreeHost(ptr_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(count_, other.count_);
    return *this;
  }

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) { return ptr_[i]; }
  const T& operator[](std::size_t i) const { return ptr_[i]; }
  T* begin() { return ptr_; }
  T* end() { return ptr_ + count_; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace course
