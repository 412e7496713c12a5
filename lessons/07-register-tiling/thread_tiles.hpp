/// \file thread_tiles.hpp
/// \brief Lesson 07: what your thread-tile functions do, as the chapter's pictures see it. Your
/// multiply and your write are `__host__ __device__`, so calls-yours/thread_tile_probes.cu runs
/// them on the CPU, on small block tiles whose values name their places, and reads back where
/// every result and every product went. Plain C++ (the pictures and their tests include it).
#pragma once

#include <vector>

namespace lesson07 {

/// One product the multiply adds: `acc[i][j] += A(m, ka) * B(kb, n)`, `count` times over the
/// BK steps, where A(m, k) is element (m, k) of the block's A tile (As[m][k] in step 2, As[k][m]
/// in step 3, which holds it transposed) and B(k, n) is Bs[k][n]. A correct multiply has
/// ka == kb and count == 1.
struct ProductTerm {
  int i = 0, j = 0;   ///< the accumulator
  int m = 0, ka = 0;  ///< the place of A
  int kb = 0, n = 0;  ///< the place of B
  int count = 0;      ///< how many times the product is added
};

/// A block tile's thread tiles as your functions place them, on one small configuration.
struct ThreadTileProbe {
  int bm = 0, bn = 0, bk = 0;  ///< the block's tile of C, and the step along K
  int tm = 0, tn = 0;          ///< the thread's tile
  int threads() const { return (bm / tm) * (bn / tn); }
  /// Cell (r, c) of the BM x BN tile of C, as thread t's write left it:
  /// `written[t][r * bn + c]` is the result i * tn + j (acc[i][j]) written there, kNotWritten, or
  /// kNoResult (written, with a value that is none of the thread's results).
  std::vector<std::vector<int>> written;
  static constexpr int kNotWritten = -1, kNoResult = -2;
  int thread = 0;                  ///< the thread whose products `terms` lists
  std::vector<ProductTerm> terms;  ///< every product its multiply adds, ordered by (i, j)
};

/// Your step-2 thread_tile_2d_multiply<16, 16, 8, 4, 4> and thread_tile_2d_write<4, 4> on a
/// 16 x 16 block tile of 16 threads, 4 x 4 results each: where every thread's write puts each
/// result (a C full of NaN, acc[i][j] = i * 4 + j + 1, alpha = 1, beta = 0), and the products
/// `thread`'s multiply adds (tiles zero but for one place of each).
/// \throws course::NotImplemented when the write writes nothing or the multiply adds nothing
ThreadTileProbe thread_tile_2d_probe(int thread);

/// Your step-3 vectorized_2d_multiply<16, 64, 4, 8, 8> and vectorized_2d_write<16, 64, 8, 8> (vec4
/// on, the tile inside C) in the same way: a 16 x 64 block tile of 16 threads, 8 x 8 results
/// each in groups of 4 x 4, 8 rows and 32 columns apart; the 8 threads of a row of threads are
/// a quarter-warp, as in the lesson's 128 x 128 tile.
/// \throws course::NotImplemented when the write writes nothing or the multiply adds nothing
ThreadTileProbe vectorized_2d_probe(int thread);

}  // namespace lesson07
