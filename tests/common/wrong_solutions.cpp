#include "wrong_solutions.hpp"

#include <algorithm>

namespace wrong {
namespace {

using course::GemmJob;

// A(i, k) and B(k, j) as a guarded tile load reads them: 0 outside the matrix.
float az(const GemmJob& g, long i, long k) {
  return (i >= 0 && i < g.s.M && k >= 0 && k < g.s.K) ? g.a(i, k) : 0.0f;
}
float bz(const GemmJob& g, long k, long j) {
  return (j >= 0 && j < g.s.N && k >= 0 && k < g.s.K) ? g.b(k, j) : 0.0f;
}
// The sum over k in [k0, k1) step `step` of A(i, k) B(k, j), loads guarded.
float dot(const GemmJob& g, long i, long j, long k0, long k1, long step = 1) {
  float acc = 0.0f;
  for (long k = k0; k < k1; k += step) acc += az(g, i, k) * bz(g, k, j);
  return acc;
}
float dot(const GemmJob& g, long i, long j) {
  return dot(g, i, j, 0, g.s.K);
}
// Every element of C: f(i, j) is the thread's sum, stored at (i, j).
template <class F>
void each(GemmJob& g, F f) {
  for (long i = 0; i < g.s.M; ++i)
    for (long j = 0; j < g.s.N; ++j) g.store(i, j, f(i, j));
}
// A k-tiled kernel whose tile t (of width bk) is computed with the data of tile src(t) (or with
// zeros when src(t) < 0), for tiles t < tiles.
template <class Src>
float tiled_dot(const GemmJob& g, long i, long j, int bk, long tiles, Src src) {
  float acc = 0.0f;
  for (long t = 0; t < tiles; ++t) {
    const long s = src(t);
    if (s < 0) continue;
    for (int kk = 0; kk < bk; ++kk) acc += az(g, i, s * bk + kk) * bz(g, s * bk + kk, j);
  }
  return acc;
}
long ceil_div(long a, long b) {
  return (a + b - 1) / b;
}

// A race as a CPU emulation: each run picks other blocks of `T` x `T` (about one in three) whose
// threads read shared memory too early, so the wrong elements change from run to run.
bool raced(long i, long j, long T) {
  static unsigned runs = 0;
  static long last = -1;
  const long block = (i / T) * 4099 + j / T;
  if (block <= last) ++runs;  // a new run starts over at block 0
  last = block;
  return ((static_cast<unsigned>(block) * 2654435761u) ^ (runs * 40503u)) % 3 == 0;
}
// A k-tiled kernel whose tile t is computed, for k within the tile at or past `from(i, j)`, with
// B's rows of tile t - 1 (shared memory not refilled; in tile 0, what an earlier block left there:
// another value every run).
template <class From>
float stale_dot(const GemmJob& g, long i, long j, int bk, From from) {
  static unsigned runs = 0;
  if (i == 0 && j == 0) ++runs;
  float acc = 0.0f;
  for (long k = 0; k < ceil_div(g.s.K, bk) * bk; ++k) {
    const long kk = k % bk, src = kk >= from(i, j) ? k - bk : k;
    acc += az(g, i, k) * (src >= 0 ? bz(g, src, j) : 0.001f * static_cast<float>(runs % 7 + k % 3));
  }
  return acc;
}

std::vector<Case> make_cases() {
  std::vector<Case> c;
  // ---- 03 naive: one thread per element, the row from x ---------------------------------------
  c.push_back(
      {"03",
       "scale: alpha applied twice",
       "c = alpha * (alpha * acc) + beta * c",
       false,
       {"alpha is applied twice"},
       [](GemmJob& g) { each(g, [&](long i, long j) { return g.s.alpha * dot(g, i, j); }); }});
  c.push_back({"03",
               "B read transposed",
               "acc += A[row * K + k] * B[col * K + k]",
               false,
               {"B[col * K + k]", "B[k * N + col]"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k) acc += g.a(i, k) * g.b_flat(j * g.s.K + k);
                   return acc;
                 });
               }});
  c.push_back(
      {"03",
       "k range: last term lost",
       "for (int k = 0; k < K - 1; ++k)",
       false,
       {"k = K - 1", "stops one short"},
       [](GemmJob& g) { each(g, [&](long i, long j) { return dot(g, i, j, 0, g.s.K - 1); }); }});
  c.push_back(
      {"03",
       "k range: first term lost",
       "for (int k = 1; k < K; ++k)",
       false,
       {"k = 0 is never summed", "start at 0"},
       [](GemmJob& g) { each(g, [&](long i, long j) { return dot(g, i, j, 1, g.s.K); }); }});
  c.push_back(
      {"03", "beta ignored", "c = alpha * acc + c", false, {"beta is ignored"}, [](GemmJob& g) {
         for (long i = 0; i < g.s.M; ++i)
           for (long j = 0; j < g.s.N; ++j) {
             const float old = g.c_flat(i * g.s.N + j);
             const float v = g.s.alpha * dot(g, i, j) + (g.s.beta != 0.0f ? old : 0.0f);
             g.out[g.c_at + i * g.s.N + j] = v;
           }
       }});
  c.push_back({"03",
               "beta ignored, C added always",
               "c = alpha * acc + c",
               false,
               {"beta is ignored", "even when beta == 0"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     float& o = g.out[g.c_at + i * g.s.N + j];
                     o = g.s.alpha * dot(g, i, j) + o;
                   }
               }});
  c.push_back({"03",
               "C read when beta == 0",
               "c = alpha * acc + beta * c, always",
               false,
               {"reads C when beta == 0"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     float& o = g.out[g.c_at + i * g.s.N + j];
                     o = g.s.alpha * dot(g, i, j) + g.s.beta * o;
                   }
               }});
  c.push_back({"03",
               "acc never set to 0",
               "float acc;  (no = 0.0f)",
               false,
               {"change from run to run", "acc must start at 0"},
               [](GemmJob& g) {
                 static float garbage = 0.0f;
                 garbage += 1.0f;  // what the register held before: another value every run
                 each(g, [&](long i, long j) {
                   return (i + j) % 5 == 0 ? garbage + dot(g, i, j) : dot(g, i, j);
                 });
               }});
  // ---- 04 coalescing: the row from y, the column from x -------------------------------------
  c.push_back({"04",
               "A read transposed",
               "acc += A[k * M + row] * B[k * N + col]",
               false,
               {"A[k * M + row]", "A[row * K + k]"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k) acc += g.a_flat(k * g.s.M + i) * g.b(k, j);
                   return acc;
                 });
               }});
  c.push_back(
      {"04",
       "k stride: every other term",
       "for (int k = 0; k < K; k += 2)",
       false,
       {"k = 1, 3, 5", "never summed"},
       [](GemmJob& g) { each(g, [&](long i, long j) { return dot(g, i, j, 0, g.s.K, 2); }); }});
  c.push_back({"04",
               "column guard off by one",
               "if (row >= M || col >= N - 1) return;",
               false,
               {"column N - 1 is never written", "col < N"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j + 1 < g.s.N; ++j) g.store(i, j, dot(g, i, j));
               }});
  c.push_back({"04",
               "C stored with row stride K",
               "C[row * K + col]",
               false,
               {"row stride of K", "C[row * N + col]"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) g.store(i * g.s.K + j, dot(g, i, j));
               }});
  c.push_back({"04",
               "beta scaled by alpha",
               "c = alpha * (acc + beta * c)",
               false,
               {"beta * C is scaled by alpha"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     float& o = g.out[g.c_at + i * g.s.N + j];
                     const float old = g.s.beta != 0.0f ? g.s.beta * o : 0.0f;
                     o = g.s.alpha * (dot(g, i, j) + old);
                   }
               }});
  // ---- 05 tiling: TILE 16 ---------------------------------------------------------------------
  c.push_back({"05",
               "k-tile loop drops the last tile",
               "for (int k0 = 0; k0 + TILE < K; k0 += TILE)",
               false,
               {"the last", "(K + BK - 1) / BK"},
               [](GemmJob& g) {
                 const long tiles = std::max(0L, ceil_div(g.s.K, 16) - 1);
                 each(g, [&](long i, long j) {
                   return tiled_dot(g, i, j, 16, tiles, [](long t) { return t; });
                 });
               }});
  c.push_back({"05",
               "B tile stored transposed",
               "Bs[tx][ty] = b_next",
               false,
               {"reads B(", "where B is loaded"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   const long col0 = j / 16 * 16, tx = j % 16;
                   float acc = 0;
                   for (long k0 = 0; k0 < g.s.K; k0 += 16)
                     for (long k = 0; k < 16; ++k)
                       acc += az(g, i, k0 + k) *
                              bz(g, k0 + tx, col0 + k);  // Bs[k][tx] holds B(k0 + tx, col0 + k)
                   return acc;
                 });
               }});
  c.push_back({"05",
               "A tile guard on M for K",
               "load_or_zero(A, M, M, row, k0 + tx)",
               false,
               {"uses M where K belongs"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k0 = 0; k0 < g.s.K; k0 += 16)
                     for (long k = k0; k < k0 + 16; ++k) {
                       const float a = (i < g.s.M && k < g.s.M) ? g.a(i, k) : 0.0f;
                       acc += a * bz(g, k, j);
                     }
                   return acc;
                 });
               }});
  c.push_back({"05",
               "prefetch not advanced",
               "a_next = load_or_zero(A, M, K, row, k0 + tx)",
               false,
               {"summed twice", "the tile before it"},
               [](GemmJob& g) {
                 const long tiles = ceil_div(g.s.K, 16);
                 each(g, [&](long i, long j) {
                   return tiled_dot(g, i, j, 16, tiles, [](long t) { return t == 0 ? 0 : t - 1; });
                 });
               }});
  c.push_back({"05",
               "A tile read with indices swapped",
               "acc += As[k][ty] * Bs[k][tx]",
               false,
               {"reads A(", "where A is loaded"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   const long row0 = i / 16 * 16, ty = i % 16;
                   float acc = 0;
                   for (long k0 = 0; k0 < g.s.K; k0 += 16)
                     for (long k = 0; k < 16; ++k)
                       acc += az(g, row0 + k, k0 + ty) * bz(g, k0 + k, j);
                   return acc;
                 });
               }});
  c.push_back({"05",
               "no __syncthreads() after the tile loads",
               "As[ty][tx] = a; Bs[ty][tx] = b;  acc += ...  (no barrier between)",
               false,
               {"race", "__syncthreads()", "make sanitize-5 MINE=1"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   // A warp that runs ahead reads the second half of the tile before it is stored.
                   return raced(i, j, 16) ? stale_dot(g, i, j, 16, [](long, long) { return 8; })
                                          : dot(g, i, j);
                 });
               }});
  c.push_back({"05",
               "threads outside C return before the loads",
               "if (row >= M || col >= N) return;  at the top of the kernel",
               false,
               {"stop before they load", "only the store is guarded"},
               [](GemmJob& g) {
                 const long rm = g.s.M / 16 * 16, cn = g.s.N / 16 * 16;
                 each(g, [&](long i, long j) {
                   // In an edge block, the rows of Bs (columns of As) that threads outside C would
                   // load keep the tile before.
                   return stale_dot(g, i, j, 16, [&](long r, long q) {
                     long from = 16;
                     if (r >= rm) from = std::min(from, static_cast<long>(g.s.M % 16));
                     if (q >= cn) from = std::min(from, static_cast<long>(g.s.N % 16));
                     return from;
                   });
                 });
               }});
  c.push_back({"05",
               "int accumulator",
               "int acc = 0;",
               false,
               {"fractions are lost", "integer"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   int acc = 0;
                   for (long k = 0; k < g.s.K; ++k)
                     acc = static_cast<int>(static_cast<float>(acc) + az(g, i, k) * bz(g, k, j));
                   return static_cast<float>(acc);
                 });
               }});
  // ---- 07 register tiling: 128 x 128 block tiles, BK = 8, 8 x 8 thread tiles -----------------
  c.push_back({"07",
               "thread tile stored transposed",
               "C[(row0 + n) * N + col0 + m] = ... acc[m][n]",
               false,
               {"8 x 8 block", "stored transposed"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     // the thread of patch (i / 8, j / 8) stores its acc[m][n] at (n, m)
                     const long r = i / 8 * 8 + j % 8, q = j / 8 * 8 + i % 8;
                     if (r < g.s.M && q < g.s.N) g.store(r, q, dot(g, i, j));
                   }
               }});
  c.push_back({"07",
               "inner k loop one short",
               "for (int k = 0; k < BK - 1; ++k)",
               false,
               {"k = 7, 15, 23", "never summed"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k)
                     if (k % 8 != 7) acc += az(g, i, k) * bz(g, k, j);
                   return acc;
                 });
               }});
  c.push_back({"07",
               "B tile advanced by BK columns",
               "B += BK;  (BK * N belongs)",
               false,
               {"reads B(", "where B is loaded"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k) {
                     const long t = k / 8, kk = k % 8;
                     acc += az(g, i, k) * g.b_flat(kk * g.s.N + j + t * 8);
                   }
                   return acc;
                 });
               }});
  c.push_back({"07",
               "alpha dropped when beta != 0",
               "beta == 0 ? alpha * acc : acc + beta * c",
               false,
               {"alpha is ignored when beta != 0"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     float& o = g.out[g.c_at + i * g.s.N + j];
                     o = g.s.beta == 0.0f ? g.s.alpha * dot(g, i, j) : dot(g, i, j) + g.s.beta * o;
                   }
               }});
  c.push_back({"07",
               "float4 of A placed in reverse",
               "As[(k ^ 3)][m] = a4[k % 4]",
               false,
               {"A and B are multiplied at different k"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < ceil_div(g.s.K, 8) * 8; ++k)
                     acc += az(g, i, k ^ 3) * bz(g, k, j);
                   return acc;
                 });
               }});
  c.push_back({"07",
               "float4 of A: .y and .z exchanged",
               "As[k + 1][m] = a4.z; As[k + 2][m] = a4.y;",
               false,
               {"A and B are multiplied at different k"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < ceil_div(g.s.K, 8) * 8; ++k)
                     acc += az(g, i, k % 4 == 1 || k % 4 == 2 ? k ^ 3 : k) * bz(g, k, j);
                   return acc;
                 });
               }});
  c.push_back({"07",
               "beta ignored on the float4 store",
               "c4.x = alpha * acc[m][n] + c4.x;  (the scalar edge store is right)",
               false,
               {"beta is ignored", "vector path"},
               [](GemmJob& g) {
                 const bool vector = g.s.N % 4 == 0 && g.s.K % 4 == 0;
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     float& o = g.out[g.c_at + i * g.s.N + j];
                     const float c = g.s.beta != 0.0f ? o : 0.0f;
                     o = g.s.alpha * dot(g, i, j) + (vector ? c : g.s.beta * c);
                   }
               }});
  // ---- 08 warp tiling: BM 128, BN 256, WM = WN = 64, sub-tiles 16 x 32, quads ----------------
  c.push_back({"08",
               "second sub-tile along M",
               "the sub-tile row offset wm * WSUBM left out",
               false,
               {"rows 16..31", "sub-tile"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   const long sub = i % 64 / 16, src = sub == 1 ? i - 16 : i;
                   return dot(g, src, j);
                 });
               }});
  c.push_back({"08",
               "quad shuffle source",
               "__shfl_sync(mask, v, q % 2, 4) for A",
               false,
               {"wrong shuffle source in a quad", "quad_a_source"},
               [](GemmJob& g) {
                 // lane q of a 2 x 2 quad block owns (r0 + q / 2, c0 + q % 2) and multiplies A of
                 // row r0 + q % 2 (the mistake) by B of column c0 + q % 2
                 each(g, [&](long i, long j) {
                   const long r0 = i / 2 * 2, q = (i % 2) * 2 + j % 2;
                   return dot(g, r0 + q % 2, j);
                 });
               }});
  c.push_back({"08",
               "warp column offset left out of the B load",
               "B column warp_col * WN missing",
               false,
               {"columns 64..255", "wrong columns of B"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   const long col0 = j / 256 * 256, wc = j % 256 / 64;
                   return wc == 0 ? dot(g, i, j) : dot(g, i, col0 + j % 64);
                 });
               }});
  c.push_back({"08",
               "block k loop half",
               "for (int k = 0; k < BK / 2; ++k)",
               false,
               {"k = 4..7, 12..15", "never summed"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k)
                     if (k % 8 < 4) acc += az(g, i, k) * bz(g, k, j);
                   return acc;
                 });
               }});
  c.push_back({"08",
               "beta applied twice",
               "alpha * acc + beta * beta * c",
               false,
               {"beta is applied twice"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     float& o = g.out[g.c_at + i * g.s.N + j];
                     o = g.s.alpha * dot(g, i, j) +
                         (g.s.beta != 0.0f ? g.s.beta * g.s.beta * o : 0.0f);
                   }
               }});
  c.push_back({"08",
               "quad shuffle without its width",
               "__shfl_sync(kFullMask, v, quad_a_source(q))  (no width 4)",
               false,
               {"width is 4", "quad 0"},
               [](GemmJob& g) {
                 // A warp's 8 quads cover 4 rows x 8 columns; each reads the lanes of quad 0.
                 each(g,
                      [&](long i, long j) { return dot(g, i / 4 * 4 + i % 2, j / 8 * 8 + j % 2); });
               }});
  // ---- 09 swizzling: 128 x 128 block tiles, BK 16 ----------------------------------------------
  c.push_back({"09",
               "swizzle XOR on the wrong bits",
               "A tile read at k ^ (m % 4)",
               false,
               {"A and B are multiplied at different k", "swizzle"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < ceil_div(g.s.K, 16) * 16; ++k)
                     acc += az(g, i, (k & ~15L) | ((k % 16) ^ (i % 4))) * bz(g, k, j);
                   return acc;
                 });
               }});
  c.push_back({"09",
               "stage one behind",
               "compute on stage (t + 1) % 2: tile t uses tile t - 1",
               false,
               {"k = 80..87", "stage index one behind"},
               [](GemmJob& g) {
                 const long tiles = ceil_div(g.s.K, 16);
                 each(g, [&](long i, long j) {
                   return tiled_dot(g, i, j, 16, tiles, [](long t) { return t - 1; });
                 });
               }});
  c.push_back({"09",
               "C columns reversed in a float4",
               "store float4 {acc[3], acc[2], acc[1], acc[0]}",
               false,
               {"in every 4 columns", "column 0 holds 3"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     const long q = j / 4 * 4 + 3 - j % 4;
                     if (q < g.s.N) g.store(i, q, dot(g, i, j));
                   }
               }});
  c.push_back({"09",
               "second warp along M reads the first's A rows",
               "warp_row * WM left out of the A fragment",
               false,
               {"rows 64..127", "wrong rows of A"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   const long wr = i % 128 / 64;
                   return dot(g, wr == 1 ? i - 64 : i, j);
                 });
               }});
  c.push_back({"09",
               "B tile load guarded by the thread's row of C",
               "Bs[..] = (row < M && col < N) ? B[k * N + col] : 0.0f",
               false,
               {"load guard drops values inside the matrices"},
               [](GemmJob& g) {
                 const long rm = g.s.M / 128 * 128;
                 each(g, [&](long i, long j) {
                   // In the last block row, the threads past M load zeros for their rows of Bs:
                   // k-tile rows 16 * (M % 128) / 128 .. in every tile of 16.
                   const long from = i >= rm ? (g.s.M % 128) * 16 / 128 : 16;
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k)
                     if (k % 16 < from) acc += az(g, i, k) * bz(g, k, j);
                   return acc;
                 });
               }});
  // ---- 10 tensor cores (bf16): m16n8k16, block tile 128 x 128, BK 32 -------------------------
  c.push_back({"10",
               "B fragment registers swapped",
               "b[0] and b[1] exchanged: k 0-7 and 8-15",
               true,
               {"k 0-7 and 8-15", "B's fragment"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < ceil_div(g.s.K, 16) * 16; ++k)
                     acc += az(g, i, k) * bz(g, k ^ 8, j);
                   return acc;
                 });
               }});
  c.push_back({"10",
               "C fragment columns",
               "col = 4 * (i % 2) + tig instead of 2 * tig + i % 2",
               true,
               {"within every 8 columns", "c_fragment_coord"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     const long e = j % 8, tig = e / 2, odd = e % 2;
                     const long q = j / 8 * 8 + 4 * odd + tig;
                     if (q < g.s.N) g.store(i, q, dot(g, i, j));
                   }
               }});
  c.push_back({"10",
               "k-steps of the block tile one short",
               "for (kk = 0; kk < BK - 16; kk += 16)",
               true,
               {"k = 16..31, 48..63", "never summed"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k)
                     if (k % 32 < 16) acc += az(g, i, k) * bz(g, k, j);
                   return acc;
                 });
               }});
  c.push_back(
      {"10",
       "scale: alpha applied twice",
       "alpha * alpha * acc",
       true,
       {"alpha is applied twice"},
       [](GemmJob& g) { each(g, [&](long i, long j) { return g.s.alpha * dot(g, i, j); }); }});
  c.push_back({"10",
               "B read as K x N",
               "B[k * N + col] for B[col * K + k]",
               true,
               {"B[col * K + k]"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k) acc += az(g, i, k) * g.b_flat(k * g.s.N + j);
                   return acc;
                 });
               }});
  c.push_back({"10",
               "A registers 1 and 2 exchanged",
               "ldmatrix lanes 8-15 and 16-23 swapped",
               true,
               {"register 1 holds rows 0-7, k 8-15"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < ceil_div(g.s.K, 16) * 16; ++k) {
                     long si = i, sk = k;
                     if (i % 16 < 8 && k % 16 >= 8) si = i + 8, sk = k - 8;
                     if (i % 16 >= 8 && k % 16 < 8) si = i - 8, sk = k + 8;
                     acc += az(g, si, sk) * bz(g, k, j);
                   }
                   return acc;
                 });
               }});
  c.push_back({"10",
               "accumulator rows exchanged",
               "c0, c1 stored at row group + 8, c2, c3 at row group",
               true,
               {"rows 0-7 and 8-15", "c_fragment_coord"},
               [](GemmJob& g) { each(g, [&](long i, long j) { return dot(g, i ^ 8, j); }); }});
  c.push_back({"10",
               "ldmatrix before the copy lands",
               "cp_async_wait<0>() left out before __syncthreads()",
               true,
               {"race", "cp.async.wait_group", "make sanitize-10 MINE=1"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   return raced(i, j, 64) ? stale_dot(g, i, j, 32, [](long, long) { return 16; })
                                          : dot(g, i, j);
                 });
               }});
  c.push_back({"10",
               "ldmatrix.x4 registers of B to the wrong fragments",
               "b[j][1] = r[2], b[j + 1][0] = r[1]",
               true,
               {"ldmatrix.x4 of B", "b[j][1] = r[1]"},
               [](GemmJob& g) {
                 // In each 16 x 16 block of B: (k 8-15, columns 0-7) and (k 0-7, columns 8-15)
                 // trade places.
                 each(g, [&](long i, long j) {
                   float acc = 0;
                   for (long k = 0; k < g.s.K; ++k) {
                     long sk = k, sj = j;
                     if (k % 16 >= 8 && j % 16 < 8) sk = k - 8, sj = j + 8;
                     if (k % 16 < 8 && j % 16 >= 8) sk = k + 8, sj = j - 8;
                     acc += az(g, i, k) * bz(g, sk, sj);
                   }
                   return acc;
                 });
               }});
  c.push_back({"10",
               "serpentine on B only",
               "mma(acc[i][j], a[i], b[jj])",
               true,
               {"serpentine", "acc[i][jj]"},
               [](GemmJob& g) {
                 // Warp tiles of 64 x 64: MT = 4 fragments of 16 rows, NT = 8 of 8 columns; odd
                 // fragments take B's columns mirrored.
                 each(g, [&](long i, long j) {
                   const long n0 = j / 64 * 64, nt = (j % 64) / 8;
                   const long src = (i % 64) / 16 % 2 ? n0 + (7 - nt) * 8 + j % 8 : j;
                   return src < g.s.N ? dot(g, i, src) : 0.0f;
                 });
               }});
  // ---- 11 TMA ring (bf16): BK 64, 4 stages -----------------------------------------------------
  c.push_back({"11",
               "consumer reads the next stage",
               "slot (t + 1) % STAGES",
               true,
               {"k = 0..63", "stage t % STAGES"},
               [](GemmJob& g) {
                 const long tiles = ceil_div(g.s.K, 64);
                 each(g, [&](long i, long j) {
                   return tiled_dot(g, i, j, 64, tiles,
                                    [&](long t) { return t + 1 < tiles ? t + 1 : -1; });
                 });
               }});
  c.push_back({"11",
               "last k-tile never consumed",
               "for (t = 0; t < k_tiles - 1; ++t) in the consumer",
               true,
               {"k = 64..87", "never summed"},
               [](GemmJob& g) {
                 const long tiles = ceil_div(g.s.K, 64);
                 each(g, [&](long i, long j) {
                   return tiled_dot(g, i, j, 64, tiles - 1, [](long t) { return t; });
                 });
               }});
  c.push_back({"11",
               "epilogue rows of the second consumer",
               "warpgroup 1 stores at row 0 of the tile",
               true,
               {"rows 0..63", "where C is stored"},
               [](GemmJob& g) {
                 for (long i = 0; i < g.s.M; ++i)
                   for (long j = 0; j < g.s.N; ++j) {
                     const long wg = i % 128 / 64;
                     g.store(wg == 1 ? i - 64 : i, j, dot(g, i, j));
                   }
               }});
  c.push_back({"11",
               "A box loaded with B's coordinates",
               "A tile at (k, col0) instead of (k, row0)",
               true,
               {"multiplies A row 128", "depends on the column of C"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   const long src = j / 128 * 128 + i % 128;
                   return dot(g, src, j);
                 });
               }});
  c.push_back({"11",
               "stage released before its wgmma finished",
               "arrive on the empty barrier before wgmma wait_group<0>",
               true,
               {"race in the ring", "wgmma", "make sanitize-11 MINE=1"},
               [](GemmJob& g) {
                 each(g, [&](long i, long j) {
                   return raced(i, j, 128) ? stale_dot(g, i, j, 64, [](long, long) { return 32; })
                                           : dot(g, i, j);
                 });
               }});
  return c;
}

}  // namespace

const std::vector<Case>& cases() {
  static const std::vector<Case> all = make_cases();
  return all;
}

}  // namespace wrong
