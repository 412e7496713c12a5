// Lesson 07's figures held to the functions they draw: every cell of C is drawn owned by the one
// thread whose write lands there, the thread tiles cover C exactly once, and every product drawn
// is one the multiply adds (and every one it adds at that step is drawn); step 3's float4 groups
// are the places its multiply reads and its write stores, four consecutive floats each.
#include "catch_compat.hpp"

#include "lessons/07-register-tiling/figures.hpp"

#include <set>
#include <string>
#include <vector>

using namespace lesson07;

namespace {

std::string str(int v) {
  return std::to_string(v);
}

// Every cell of the tile written by exactly one thread, each thread writing each of its results
// once: the thread tiles cover C exactly once.
void check_cover(const ThreadTileProbe& p) {
  const int results = p.tm * p.tn;
  std::vector<int> writers(static_cast<std::size_t>(p.bm) * p.bn, 0);
  for (int t = 0; t < p.threads(); ++t) {
    std::set<int> seen;
    for (int e = 0; e < p.bm * p.bn; ++e) {
      const int r = p.written[t][e];
      if (r == ThreadTileProbe::kNotWritten) continue;
      ++writers[e];
      CHECK(r >= 0);
      seen.insert(r);
    }
    CHECK(static_cast<int>(seen.size()) == results);
  }
  for (int w : writers) CHECK(w == 1);
}

}  // namespace

TEST_CASE("07 outer product: owners are the write's, products the multiply's", "[cpu][figures]") {
  const ThreadTileProbe p0 = thread_tile_2d_probe(0);
  check_cover(p0);
  for (int thread = 0; thread < p0.threads(); ++thread) {
    const ThreadTileProbe p = thread_tile_2d_probe(thread);
    // The reference adds, at every step, exactly tm * tn products, each once.
    CHECK(static_cast<int>(p.terms.size()) == p.tm * p.tn * p.bk);
    for (int k = 0; k < p.bk; ++k) {
      INFO("thread " << thread << ", k = " << k);
      const course::svg::Scene s = outer_product_scene(thread, k);
      CHECK(s.count("hole") == 0);
      CHECK(s.count("clash") == 0);
      for (int t = 0; t < p.threads(); ++t) {
        for (int e = 0; e < p.bm * p.bn; ++e) {
          if (p.written[t][e] == ThreadTileProbe::kNotWritten) continue;
          REQUIRE(s.count("own " + str(t) + " " + str(e / p.bn) + " " + str(e % p.bn)) == 1);
        }
      }
      int at_k = 0;
      for (const ProductTerm& t : p.terms) {
        if (t.ka != k) continue;
        ++at_k;
        CHECK(t.kb == k);
        CHECK(t.count == 1);
        // The product of row m of A and column n of B lands in C(m, n).
        CHECK(t.m == thread / (p.bn / p.tn) * p.tm + t.i);
        CHECK(t.n == thread % (p.bn / p.tn) * p.tn + t.j);
        CHECK(s.count("term " + str(t.i) + " " + str(t.j) + " " + str(t.m) + " " + str(t.ka) + " " +
                      str(t.kb) + " " + str(t.n)) == 1);
      }
      CHECK(at_k == p.tm * p.tn);
      CHECK(s.count("product") == at_k);  // nothing drawn that the multiply does not add
      CHECK(s.count("a-place") == p.tm);
      CHECK(s.count("b-place") == p.tn);
      CHECK_NOTHROW(s.str());
    }
  }
}

TEST_CASE("07 float4: the groups drawn are the multiply's reads and the write's stores",
          "[cpu][figures]") {
  const ThreadTileProbe p0 = vectorized_2d_probe(0);
  check_cover(p0);
  const int cols = p0.bn / p0.tn;
  for (const auto& [first, count] :
       std::vector<std::pair<int, int>>{{0, 1}, {1, 1}, {8, 1}, {15, 1}, {0, 8}, {8, 8}}) {
    INFO("threads " << first << " + " << count);
    const course::svg::Scene s = float4_scene(first, count);
    CHECK(s.count("scattered") == 0);
    CHECK(s.count("hole") == 0);
    CHECK(s.count("clash") == 0);
    // Every thread's every group of four results is one float4 store where its write put it.
    for (int t = 0; t < p0.threads(); ++t) {
      for (int i = 0; i < p0.tm; ++i) {
        for (int h = 0; h < p0.tn / 4; ++h) {
          int cell = -1;
          for (int e = 0; e < p0.bm * p0.bn; ++e)
            if (p0.written[t][e] == i * p0.tn + 4 * h) cell = e;
          REQUIRE(cell >= 0);
          for (int q = 1; q < 4; ++q) CHECK(p0.written[t][cell + q] == i * p0.tn + 4 * h + q);
          CHECK(s.count("store " + str(t) + " " + str(cell / p0.bn) + " " + str(cell % p0.bn)) ==
                1);
        }
      }
    }
    // The shown threads' reads at k = 0: the places their products use, four at a time.
    for (int t = first; t < first + count; ++t) {
      const ThreadTileProbe p = vectorized_2d_probe(t);
      std::set<int> ms, ns;
      for (const ProductTerm& term : p.terms) {
        CHECK(term.ka == term.kb);
        if (term.ka == 0) ms.insert(term.m), ns.insert(term.n);
      }
      CHECK(static_cast<int>(ms.size()) == p.tm);
      CHECK(static_cast<int>(ns.size()) == p.tn);
      for (int g = 0; g < p.tm / 4; ++g) {
        const int m = g * 4 * (p.bm / p.tm) + t / cols * 4;
        for (int q = 0; q < 4; ++q) CHECK(ms.count(m + q) == 1);
        CHECK(s.count("read-a " + str(t) + " " + str(m)) == 1);
      }
      for (int h = 0; h < p.tn / 4; ++h) {
        const int n = h * 4 * cols + t % cols * 4;
        for (int q = 0; q < 4; ++q) CHECK(ns.count(n + q) == 1);
        CHECK(s.count("read-b " + str(t) + " " + str(n)) == 1);
      }
    }
    CHECK_NOTHROW(s.str());
  }
}
