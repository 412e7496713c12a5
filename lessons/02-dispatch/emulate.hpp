/// \file emulate.hpp
/// \brief A launch emulated on the CPU, thread by thread, with the learner's own index functions.
///
/// A GPU runs every thread of the grid; this header runs them one after the other on the host.
/// For each block of the grid the launch would use (`blocks_for` along each axis) and each thread
/// of the block, it calls the same `__host__ __device__` functions the kernels call
/// (global_index_1d / global_index_2d, the guards, warp_of and lane_of), then does what the kernel
/// body does: counts a write to the element the thread reaches. The result says, per element, how
/// many threads wrote it (exactly 1 is right), and lists the indices that got past the guard
/// although they lie outside the array. diagnose() turns that into a message with the likely
/// cause. The CPU grader and the lesson program (when there is no GPU) use it; it needs no CUDA.
#pragma once

#include "dispatch.hpp"

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace lesson02 {

/// How many offending indices an emulation keeps (the count keeps going).
constexpr std::size_t kMaxListed = 16;

/// The emulated 1D launch of vector_add.
struct Emulation1D {
  int n = 0;                       ///< elements
  int block_size = 0;              ///< threads per block
  int blocks = 0;                  ///< blocks_for(n, block_size), as the learner's code says
  long threads_launched = 0;       ///< blocks * block_size
  long threads_idle = 0;           ///< threads the guard stopped
  std::vector<int> coverage;       ///< per element, how many threads wrote it (right: 1)
  std::vector<long> out_of_range;  ///< first indices that passed the guard outside [0, n)
  long out_of_range_count = 0;     ///< how many threads did
  std::string problem;             ///< set when the launch could not be emulated at all
};

/// The emulated 2D launch of record_thread_coords.
struct Emulation2D {
  int width = 0, height = 0;          ///< columns, rows
  Int2 block;                         ///< threads per block along x and y
  Int2 grid;                          ///< blocks along x and y (blocks_for on each axis)
  long threads_launched = 0;          ///< grid.x * grid.y * block.x * block.y
  long threads_idle = 0;              ///< threads the guard stopped
  std::vector<ThreadRecord> records;  ///< width * height, row-major; unwritten: all fields -1
  std::vector<int> coverage;          ///< per element, how many threads wrote it (right: 1)
  std::vector<Int2> out_of_range;     ///< first positions that passed the guard outside the array
  long out_of_range_count = 0;        ///< how many threads did
  std::string problem;                ///< set when the launch could not be emulated at all
};

/// Runs the threads of a vector_add launch over `n` elements in blocks of `block_size`, on the
/// CPU. Calls blocks_for, global_index_1d and in_bounds_1d (the learner's), so it throws
/// course::NotImplemented while they are stubs. Precondition: invalid_1d_launch(n, block_size)
/// is empty.
inline Emulation1D emulate_1d(int n, int block_size) {
  Emulation1D e;
  e.n = n;
  e.block_size = block_size;
  e.blocks = blocks_for(n, block_size);
  e.threads_launched = static_cast<long>(e.blocks) * block_size;
  e.coverage.assign(static_cast<std::size_t>(n), 0);
  // A right grid has fewer than n + block_size threads; far more is a bug, not worth running.
  if (e.blocks < 1 || e.threads_launched > 4L * n + 4L * block_size) {
    e.problem = "blocks_for(" + std::to_string(n) + ", " + std::to_string(block_size) +
                ") returned " + std::to_string(e.blocks) +
                (e.blocks < 1 ? std::string(": a grid of no blocks runs nothing")
                              : std::string(": far more threads than n needs")) +
                "; it must be n / block_size rounded up: " +
                std::to_string((static_cast<long>(n) + block_size - 1) / block_size);
    return e;
  }
  for (int b = 0; b < e.blocks; ++b) {
    for (int t = 0; t < block_size; ++t) {
      const int i = global_index_1d(b, block_size, t);
      if (!in_bounds_1d(i, n)) {
        ++e.threads_idle;
        continue;
      }
      if (i < 0 || i >= n) {  // the kernel would now write c[i] outside the array
        if (e.out_of_range.size() < kMaxListed) e.out_of_range.push_back(i);
        ++e.out_of_range_count;
        continue;
      }
      ++e.coverage[static_cast<std::size_t>(i)];
    }
  }
  return e;
}

/// Runs the threads of a record_thread_coords launch over a `width x height` array in blocks of
/// `block_x x block_y`, on the CPU, and fills the records the kernel would write. Calls
/// blocks_for, global_index_2d, in_bounds_2d and, when `with_warps`, warp_of and lane_of (else
/// the records' warp and lane stay -1). Throws course::NotImplemented while they are stubs.
/// Precondition: invalid_2d_launch(width, height, block_x, block_y) is empty.
inline Emulation2D emulate_2d(int width, int height, int block_x, int block_y,
                              bool with_warps = true) {
  Emulation2D e;
  e.width = width;
  e.height = height;
  e.block = Int2{block_x, block_y};
  e.grid = Int2{blocks_for(width, block_x), blocks_for(height, block_y)};
  const std::size_t cells = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  e.records.assign(cells, unwritten_record());
  e.coverage.assign(cells, 0);
  const long cols = static_cast<long>(e.grid.x) * block_x;  // threads along x
  const long rows = static_cast<long>(e.grid.y) * block_y;  // threads along y
  e.threads_launched = cols * rows;
  auto axis_problem = [](const char* what, int extent, int block, int blocks) {
    return "blocks_for(" + std::string(what) + " = " + std::to_string(extent) + ", " +
           std::to_string(block) + ") returned " + std::to_string(blocks) +
           "; it should be the extent divided by the block size, rounded up: " +
           std::to_string((static_cast<long>(extent) + block - 1) / block);
  };
  if (e.grid.x < 1 || cols > 4L * width + 4L * block_x) {
    e.problem = axis_problem("width", width, block_x, e.grid.x);
    return e;
  }
  if (e.grid.y < 1 || rows > 4L * height + 4L * block_y) {
    e.problem = axis_problem("height", height, block_y, e.grid.y);
    return e;
  }
  for (int by = 0; by < e.grid.y; ++by) {
    for (int bx = 0; bx < e.grid.x; ++bx) {
      for (int ty = 0; ty < block_y; ++ty) {
        for (int tx = 0; tx < block_x; ++tx) {
          const Int2 block_idx{bx, by};
          const Int2 thread_idx{tx, ty};
          const Int2 g = global_index_2d(block_idx, e.block, thread_idx);
          if (!in_bounds_2d(g, width, height)) {
            ++e.threads_idle;
            continue;
          }
          if (g.x < 0 || g.x >= width || g.y < 0 || g.y >= height) {
            if (e.out_of_range.size() < kMaxListed) e.out_of_range.push_back(g);
            ++e.out_of_range_count;
            continue;
          }
          const std::size_t at = static_cast<std::size_t>(g.y) * width + g.x;
          ThreadRecord r{g.x, g.y, bx, by, tx, ty, -1, -1};
          if (with_warps) {
            r.warp = warp_of(thread_idx, e.block);
            r.lane = lane_of(thread_idx, e.block);
          }
          e.records[at] = r;
          ++e.coverage[at];
        }
      }
    }
  }
  return e;
}

namespace detail {

/// "a, b, c and 4 more" for the first few of a list.
template <typename T, typename Fmt>
std::string list_some(const std::vector<T>& items, long total, Fmt fmt, std::size_t show = 5) {
  std::ostringstream out;
  for (std::size_t k = 0; k < items.size() && k < show; ++k)
    out << (k ? ", " : "") << fmt(items[k]);
  if (total > static_cast<long>(std::min(items.size(), show))) {
    out << " and " << total - static_cast<long>(std::min(items.size(), show)) << " more";
  }
  return out.str();
}

inline std::string cell_name(Int2 g) {
  return "(row y=" + std::to_string(g.y) + ", col x=" + std::to_string(g.x) + ")";
}

}  // namespace detail

/// Empty when every element was written exactly once and no thread got past the guard outside
/// the array; otherwise what is wrong (which elements, which indices) and the likely cause.
inline std::string diagnose(const Emulation1D& e) {
  const std::string launch =
      "vector_add, n = " + std::to_string(e.n) + ", block " + std::to_string(e.block_size) + ": ";
  if (!e.problem.empty()) return launch + e.problem;
  std::vector<long> missing, twice;
  long n_missing = 0, n_twice = 0;
  for (std::size_t i = 0; i < e.coverage.size(); ++i) {
    if (e.coverage[i] == 0) {
      if (missing.size() < kMaxListed) missing.push_back(static_cast<long>(i));
      ++n_missing;
    } else if (e.coverage[i] > 1) {
      if (twice.size() < kMaxListed) twice.push_back(static_cast<long>(i));
      ++n_twice;
    }
  }
  if (n_missing == 0 && n_twice == 0 && e.out_of_range_count == 0) return "";
  auto idx = [](long i) { return std::to_string(i); };
  std::ostringstream out;
  out << launch << e.blocks << " blocks = " << e.threads_launched << " threads launched.\n";
  if (n_missing > 0) {
    out << "  " << n_missing << " element(s) never written: c["
        << detail::list_some(missing, n_missing, idx) << "]\n";
  }
  if (n_twice > 0) {
    out << "  " << n_twice << " element(s) written by more than one thread: c["
        << detail::list_some(twice, n_twice, idx) << "] (c[" << twice[0] << "] "
        << e.coverage[static_cast<std::size_t>(twice[0])] << " times)\n";
  }
  if (e.out_of_range_count > 0) {
    out << "  " << e.out_of_range_count
        << " thread(s) got past the guard with an index outside [0, n): i = "
        << detail::list_some(e.out_of_range, e.out_of_range_count, idx) << "\n";
  }
  out << "  likely cause: ";
  if (e.threads_launched < e.n) {
    out << "blocks_for rounds down -> the last partial block is missing (" << e.threads_launched
        << " threads for " << e.n << " elements; round up: (n + block_size - 1) / block_size)";
  } else if (e.out_of_range_count > 0) {
    out << "the guard lets over-launched threads through: in_bounds_1d(i, n) must be false for "
           "every i >= n (i < n, not i <= n)";
  } else if (n_twice > 0) {
    out << "global_index_1d gives two threads the same index: it is blockIdx.x * blockDim.x + "
           "threadIdx.x (block index times the block size, not the grid size)";
  } else {
    out << "the guard stops threads that are inside the array, or global_index_1d skips "
           "indices: in_bounds_1d(i, n) must be true for every i < n";
  }
  return out.str();
}

/// Empty when every element of the array was written exactly once and no thread got past the
/// guard outside it; otherwise what is wrong (which cells, which positions) and the likely cause.
/// Does not check the records' contents: the grader compares those field by field.
inline std::string diagnose(const Emulation2D& e) {
  const std::string launch = "record_thread_coords, " + std::to_string(e.width) + " x " +
                             std::to_string(e.height) + " (width x height), block (" +
                             std::to_string(e.block.x) + "," + std::to_string(e.block.y) + "): ";
  if (!e.problem.empty()) return launch + e.problem;
  std::vector<Int2> missing, twice;
  long n_missing = 0, n_twice = 0;
  bool missing_inside = false;  // a missing cell that the grid does reach
  for (int y = 0; y < e.height; ++y) {
    for (int x = 0; x < e.width; ++x) {
      const int c = e.coverage[static_cast<std::size_t>(y) * e.width + x];
      if (c == 0) {
        if (missing.size() < kMaxListed) missing.push_back(Int2{x, y});
        ++n_missing;
        if (x < static_cast<long>(e.grid.x) * e.block.x &&
            y < static_cast<long>(e.grid.y) * e.block.y) {
          missing_inside = true;
        }
      } else if (c > 1) {
        if (twice.size() < kMaxListed) twice.push_back(Int2{x, y});
        ++n_twice;
      }
    }
  }
  if (n_missing == 0 && n_twice == 0 && e.out_of_range_count == 0) return "";
  std::ostringstream out;
  out << launch << "grid (" << e.grid.x << "," << e.grid.y << ") = " << e.threads_launched
      << " threads launched.\n";
  if (n_missing > 0) {
    out << "  " << n_missing
        << " element(s) never written: " << detail::list_some(missing, n_missing, detail::cell_name)
        << "\n";
  }
  if (n_twice > 0) {
    out << "  " << n_twice << " element(s) written by more than one thread: "
        << detail::list_some(twice, n_twice, detail::cell_name) << "\n";
  }
  if (e.out_of_range_count > 0) {
    out << "  " << e.out_of_range_count << " thread(s) got past the guard outside the array: "
        << detail::list_some(e.out_of_range, e.out_of_range_count, detail::cell_name) << "\n";
  }
  out << "  likely cause: ";
  const long cols = static_cast<long>(e.grid.x) * e.block.x;
  const long rows = static_cast<long>(e.grid.y) * e.block.y;
  if (cols < e.width || rows < e.height) {
    out << "the grid is too small (" << cols << " threads across for " << e.width << " columns, "
        << rows << " down for " << e.height
        << " rows): blocks_for rounds down -> the last partial block "
        << (cols < e.width ? "column (right edge)" : "row (bottom edge)") << " is missing";
  } else if (e.out_of_range_count > 0) {
    const Int2 g = e.out_of_range[0];
    out << "the guard lets over-launched threads through: in_bounds_2d must check "
        << (g.x >= e.width ? "x < width" : "y < height")
        << " (x against the width, y against the height, both with <)";
  } else if (n_twice > 0) {
    out << "global_index_2d gives two threads the same (x, y): on each axis it is blockIdx * "
           "blockDim + threadIdx of that axis (x with .x, y with .y; do not mix them)";
  } else if (missing_inside) {
    out << "the guard stops threads inside the array, or global_index_2d skips positions "
           "(are x and y swapped? x is the column, checked against the width)";
  } else {
    out << "global_index_2d or the guard";
  }
  return out.str();
}

}  // namespace lesson02
