// Lesson 07: your thread-tile functions run on the CPU for the chapter's pictures
// (thread_tiles.hpp). Given code that calls yours: compiled twice, with each library's
// thread_tile_2d_parts.cuh and vectorized_2d_parts.cuh, whose multiply and write are `__host__
// __device__`.
//
// Nothing here computes where a result should go: every answer is read back from what your
// functions did to values that name their places.
#include "thread_tile_2d_parts.cuh"  // yours
#include "vectorized_2d_parts.cuh"   // yours

#include "thread_tiles.hpp"

#include "common/todo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace lesson07 {

namespace {

// Floats on 16-byte boundaries, as the float4 reads and writes need them.
class Floats {
 public:
  explicit Floats(int n) : v_((n + 3) / 4) {}
  float* data() { return reinterpret_cast<float*>(v_.data()); }
  void fill(float x) {
    for (float4& q : v_) q = make_float4(x, x, x, x);
  }

 private:
  std::vector<float4> v_;
};

// The shape of one probe: the block's tile, the thread's, and how the A tile is stored.
struct Shape {
  int bm, bn, bk, tm, tn;
  bool a_transposed;  // As[k][m] (step 3) rather than As[m][k] (step 2)
};

// `multiply(tx, ty, a, b, acc)` runs your multiply on the flat A tile as stored, Bs and acc (all
// zero-based, row-major); `write(tx, ty, acc, c)` runs your write of acc into the bm x bn matrix c.
template <class Multiply, class Write>
ThreadTileProbe probe(const Shape& s, int thread, const Multiply& multiply, const Write& write,
                      const std::string& multiply_name, const std::string& write_name) {
  ThreadTileProbe p;
  p.bm = s.bm, p.bn = s.bn, p.bk = s.bk, p.tm = s.tm, p.tn = s.tn;
  p.thread = thread;
  const int cols = s.bn / s.tn, results = s.tm * s.tn;

  // The writes: result r holds r + 1, C holds NaN, beta = 0 (C is not read), so a cell that is a
  // number was written, and the number says which result.
  Floats acc(results), c(s.bm * s.bn);
  for (int r = 0; r < results; ++r) acc.data()[r] = static_cast<float>(r + 1);
  bool wrote = false;
  for (int t = 0; t < p.threads(); ++t) {
    c.fill(std::numeric_limits<float>::quiet_NaN());
    write(t % cols, t / cols, acc.data(), c.data());
    std::vector<int> cells(s.bm * s.bn, ThreadTileProbe::kNotWritten);
    for (int e = 0; e < s.bm * s.bn; ++e) {
      const float v = c.data()[e];
      if (std::isnan(v)) continue;
      wrote = true;
      const bool a_result = v >= 1.0f && v <= static_cast<float>(results) && v == std::floor(v);
      cells[e] = a_result ? static_cast<int>(v) - 1 : ThreadTileProbe::kNoResult;
    }
    p.written.push_back(cells);
  }
  if (!wrote) course::not_implemented(write_name + " wrote nothing");

  // The products of one thread: with one place of A and one of B set to 1 and every other 0,
  // acc[i][j] counts the times their product was added to it. First the places that feed
  // anything at all (the other tile all ones), then every pair of those.
  const int tx = thread % cols, ty = thread / cols;
  const int na = s.bm * s.bk, nb = s.bk * s.bn;
  Floats a(na), b(nb);
  auto run = [&] {
    for (int r = 0; r < results; ++r) acc.data()[r] = 0.0f;
    multiply(tx, ty, a.data(), b.data(), acc.data());
    bool any = false;
    for (int r = 0; r < results; ++r) any = any || acc.data()[r] != 0.0f;
    return any;
  };
  std::vector<int> feeds_a, feeds_b;
  a.fill(0.0f), b.fill(1.0f);
  for (int q = 0; q < na; ++q) {
    a.data()[q] = 1.0f;
    if (run()) feeds_a.push_back(q);
    a.data()[q] = 0.0f;
  }
  a.fill(1.0f), b.fill(0.0f);
  for (int q = 0; q < nb; ++q) {
    b.data()[q] = 1.0f;
    if (run()) feeds_b.push_back(q);
    b.data()[q] = 0.0f;
  }
  a.fill(0.0f);
  for (int qa : feeds_a) {
    a.data()[qa] = 1.0f;
    for (int qb : feeds_b) {
      b.data()[qb] = 1.0f;
      run();
      for (int r = 0; r < results; ++r) {
        const float v = acc.data()[r];
        if (v == 0.0f) continue;
        ProductTerm term;
        term.i = r / s.tn, term.j = r % s.tn;
        term.m = s.a_transposed ? qa % s.bm : qa / s.bk;
        term.ka = s.a_transposed ? qa / s.bm : qa % s.bk;
        term.kb = qb / s.bn, term.n = qb % s.bn;
        term.count = static_cast<int>(std::lround(v));
        p.terms.push_back(term);
      }
      b.data()[qb] = 0.0f;
    }
    a.data()[qa] = 0.0f;
  }
  if (p.terms.empty()) course::not_implemented(multiply_name + " added nothing");
  std::stable_sort(p.terms.begin(), p.terms.end(), [](const ProductTerm& x, const ProductTerm& y) {
    return x.i != y.i ? x.i < y.i : x.j < y.j;
  });
  return p;
}

}  // namespace

ThreadTileProbe thread_tile_2d_probe(int thread) {
  constexpr int BM = 16, BN = 16, BK = 8, TM = 4, TN = 4;
  const auto multiply = [](int tx, int ty, const float* a, const float* b, float* acc) {
    thread_tile_2d_multiply<BM, BN, BK, TM, TN>(*reinterpret_cast<const float(*)[BM][BK]>(a),
                                                *reinterpret_cast<const float(*)[BK][BN]>(b), tx,
                                                ty, *reinterpret_cast<float(*)[TM][TN]>(acc));
  };
  const auto write = [](int tx, int ty, const float* acc, float* c) {
    thread_tile_2d_write<TM, TN>(c, BM, BN, 0, 0, tx, ty, 1.0f,
                                 *reinterpret_cast<const float(*)[TM][TN]>(acc), 0.0f);
  };
  return probe({BM, BN, BK, TM, TN, false}, thread, multiply, write,
               "thread_tile_2d_multiply (exercises/07-register-tiling/thread_tile_2d_parts.cuh)",
               "thread_tile_2d_write (exercises/07-register-tiling/thread_tile_2d_parts.cuh)");
}

ThreadTileProbe vectorized_2d_probe(int thread) {
  constexpr int BM = 16, BN = 64, BK = 4, TM = 8, TN = 8;
  const auto multiply = [](int tx, int ty, const float* a, const float* b, float* acc) {
    vectorized_2d_multiply<BM, BN, BK, TM, TN>(*reinterpret_cast<const float(*)[BK][BM]>(a),
                                               *reinterpret_cast<const float(*)[BK][BN]>(b), tx, ty,
                                               *reinterpret_cast<float(*)[TM][TN]>(acc));
  };
  const auto write = [](int tx, int ty, const float* acc, float* c) {
    vectorized_2d_write<BM, BN, TM, TN>(c, BM, BN, 0, 0, tx, ty, 1.0f,
                                        *reinterpret_cast<const float(*)[TM][TN]>(acc), 0.0f, true);
  };
  return probe({BM, BN, BK, TM, TN, true}, thread, multiply, write,
               "vectorized_2d_multiply (exercises/07-register-tiling/vectorized_2d_parts.cuh)",
               "vectorized_2d_write (exercises/07-register-tiling/vectorized_2d_parts.cuh)");
}

}  // namespace lesson07
