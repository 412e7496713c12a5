/// \file scenes.cpp
/// \brief Lesson 05's pictures (given code, compiled with each library): one block's walk along K,
/// every element of its tiles fetched by load_or_zero(), yours in the exercise's library.
#include "lessons/05-tiling/figures.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace lesson05 {

float example_a(int r, int c) {
  return static_cast<float>(1 + (r + 2 * c) % 3);
}
float example_b(int r, int c) {
  return static_cast<float>(1 + (2 * r + c + 1) % 3);
}

BlockWalk walk_block(int M, int N, int K, int T, int block_row, int block_col) {
  BlockWalk w;
  w.M = M, w.N = N, w.K = K, w.T = T, w.block_row = block_row, w.block_col = block_col;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < K; ++c) w.A.push_back(example_a(r, c));
  for (int r = 0; r < K; ++r)
    for (int c = 0; c < N; ++c) w.B.push_back(example_b(r, c));
  // What load_or_zero reads: the values, and a copy of each matrix holding each element's index
  // + 1, so what it returns from the copy says which element it fetched (0: its padding). Each
  // is followed by NaNs as far as a tile can reach: a load that reads past the end returns NaN,
  // drawn as "?", instead of reading memory that is not there.
  const auto read = [T](std::vector<float> v, int cols) {
    v.resize(v.size() + static_cast<std::size_t>(T + 1) * (cols + T), std::nanf(""));
    return v;
  };
  std::vector<float> a = read(w.A, K), b = read(w.B, N), a_index(a.size()), b_index(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) a_index[i] = i < w.A.size() ? i + 1.0f : a[i];
  for (std::size_t i = 0; i < b.size(); ++i) b_index[i] = i < w.B.size() ? i + 1.0f : b[i];
  // The element an index + 1 names: -1 for a zero, -2 for anything that is not an element.
  const auto element = [](float v, std::size_t size) {
    if (v == 0.0f) return -1;
    if (!(v >= 1.0f && v <= static_cast<float>(size)) || v != std::floor(v)) return -2;
    return static_cast<int>(v) - 1;
  };
  std::vector<float> acc(T * T, 0.0f);
  for (int k0 = 0; k0 < K; k0 += T) {
    TileStep s;
    s.k0 = k0;
    for (int ty = 0; ty < T; ++ty) {
      for (int tx = 0; tx < T; ++tx) {
        // Thread (ty, tx) of the block, as in the kernel.
        const int row = block_row * T + ty, col = block_col * T + tx;
        s.as.push_back(load_or_zero(a.data(), M, K, row, k0 + tx));
        s.bs.push_back(load_or_zero(b.data(), K, N, k0 + ty, col));
        s.a_from.push_back(element(load_or_zero(a_index.data(), M, K, row, k0 + tx), w.A.size()));
        s.b_from.push_back(element(load_or_zero(b_index.data(), K, N, k0 + ty, col), w.B.size()));
        // The fetch of the next tiles during this tile's multiply, as the kernel does it.
        const int k1 = k0 + T;
        s.a_next.push_back(load_or_zero(a.data(), M, K, row, k1 + tx));
        s.b_next.push_back(load_or_zero(b.data(), K, N, k1 + ty, col));
        s.a_next_from.push_back(
            element(load_or_zero(a_index.data(), M, K, row, k1 + tx), w.A.size()));
        s.b_next_from.push_back(
            element(load_or_zero(b_index.data(), K, N, k1 + ty, col), w.B.size()));
      }
    }
    for (int ty = 0; ty < T; ++ty)
      for (int tx = 0; tx < T; ++tx)
        for (int k = 0; k < T; ++k) acc[ty * T + tx] += s.as[ty * T + k] * s.bs[k * T + tx];
    s.acc = acc;
    w.steps.push_back(s);
  }
  return w;
}

namespace {

namespace svg = course::svg;

std::string num(float v) {
  return std::to_string(static_cast<int>(v));
}

std::string pair(const char* m, int r, int c) {
  return std::string(m) + "(" + std::to_string(r) + "," + std::to_string(c) + ")";
}

// The name of an element a tile place came from, or "0" for load_or_zero's padding.
std::string from_name(const char* m, int from, int cols) {
  return from == -1 ? "0" : from < 0 ? "?" : pair(m, from / cols, from % cols);
}

// A dashed outline (something on its way, not there yet).
void dashed_box(svg::Scene& s, double x, double y, double w, double h, const std::string& stroke,
                double width) {
  s.line(x, y, x + w, y, stroke, width, true);
  s.line(x + w, y, x + w, y + h, stroke, width, true);
  s.line(x + w, y + h, x, y + h, stroke, width, true);
  s.line(x, y + h, x, y, stroke, width, true);
}

enum Kind { kStore, kBarrier1, kMultiply, kBarrier2, kWrite };

std::string phase_name(int p, int steps) {
  if (p == 4 * steps) return "write C";
  const int s = p / 4;
  switch (p % 4) {
    case kStore:
      return "store " + std::to_string(s);
    case kMultiply:
      return "multiply " + std::to_string(s);
    default:
      return p % 4 == kBarrier1 ? "barrier 1" : "barrier 2";
  }
}

}  // namespace

course::svg::Scene tile_walk_scene(const BlockWalk& w, int phase, int ty, int tx) {
  const int T = w.T, steps = static_cast<int>(w.steps.size());
  const int kind = phase == 4 * steps ? kWrite : phase % 4;
  const int step = kind == kWrite ? steps - 1 : phase / 4;
  const TileStep& st = w.steps[step];
  const int k0 = st.k0;
  const int br = w.block_row, bc = w.block_col;
  const int row = br * T + ty, col = bc * T + tx;  // the highlighted thread's element of C
  const auto ceil_t = [T](int n) { return (n + T - 1) / T * T; };
  const int Mp = ceil_t(w.M), Np = ceil_t(w.N), Kp = ceil_t(w.K);
  // The sums before this phase's multiply, or after it.
  std::vector<float> zero(T * T, 0.0f);
  const std::vector<float>& acc_before = step == 0 ? zero : w.steps[step - 1].acc;
  const std::vector<float>& acc =
      (kind == kMultiply || kind == kBarrier2 || kind == kWrite) ? st.acc : acc_before;

  const std::string thread = "(" + std::to_string(ty) + "," + std::to_string(tx) + ")";
  const std::string place = "[" + std::to_string(ty) + "][" + std::to_string(tx) + "]";
  const std::string shape = std::to_string(w.M) + " x " + std::to_string(w.N) + " x " +
                            std::to_string(w.K) + " in " + std::to_string(T) + " x " +
                            std::to_string(T) + " tiles";
  svg::Scene s("Block (" + std::to_string(br) + "," + std::to_string(bc) + ") of a " + shape +
                   ": " + phase_name(phase, steps),
               "A, B and C of a " + shape +
                   ", the block's tiles outlined, and the block's shared memory: "
                   "As and Bs as load_or_zero filled them for the tile at k0 = " +
                   std::to_string(k0) + " (zeros where the tile hangs over an edge), thread " +
                   thread + " highlighted, and every thread's partial sum of C.");

  // The phases of the walk, the current one filled.
  constexpr double kBoxW = 84, kBoxH = 24, kBoxY = 34;
  for (int p = 0; p < 4 * steps + 1; ++p) {
    const bool now = p == phase;
    const bool barrier = p < 4 * steps && (p % 4 == kBarrier1 || p % 4 == kBarrier2);
    s.rect(12 + p * (kBoxW + 2), kBoxY, kBoxW, kBoxH,
           now ? svg::tint(svg::kSky, 0.3) : (barrier ? "#eeeeee" : "#f8f8f8"),
           now ? svg::kInk : svg::kGrey, now ? 2 : 1);
    s.text(12 + p * (kBoxW + 2) + kBoxW / 2, kBoxY + 16, phase_name(p, steps),
           {11, svg::Anchor::kMiddle, now});
  }

  // What happens in this phase, for the highlighted thread.
  const int a_from = st.a_from[ty * T + tx], b_from = st.b_from[ty * T + tx];
  std::string head, line1, line2;
  switch (kind) {
    case kStore:
      head = "Store tile " + std::to_string(step) + " (k0 = " + std::to_string(k0) +
             "): each thread stores one element of A and one of B";
      line1 = "Thread " + thread + " stores load_or_zero(A, M, K, " + std::to_string(row) + ", " +
              std::to_string(k0 + tx) + ") = " + from_name("A", a_from, w.K) +
              (a_from == -1 ? " (padding)" : "") + " into As" + place + ",";
      line2 = "and load_or_zero(B, K, N, " + std::to_string(k0 + ty) + ", " + std::to_string(col) +
              ") = " + from_name("B", b_from, w.N) + (b_from == -1 ? " (padding)" : "") +
              " into Bs" + place +
              (step == 0 ? " (both fetched before the loop)."
                         : " (both fetched during the previous multiply).");
      break;
    case kBarrier1: {
      head = "__syncthreads(), barrier 1: nobody reads As or Bs before every thread has stored";
      std::string a_writers, b_writers;
      for (int k = 0; k < T; ++k) {
        a_writers +=
            (k ? " " : "") + std::string("(") + std::to_string(ty) + "," + std::to_string(k) + ")";
        b_writers +=
            (k ? " " : "") + std::string("(") + std::to_string(k) + "," + std::to_string(tx) + ")";
      }
      line1 = "Thread " + thread + " is about to read row " + std::to_string(ty) +
              " of As, stored by threads " + a_writers + ",";
      line2 = "and column " + std::to_string(tx) + " of Bs, stored by threads " + b_writers +
              ". The barrier guards read after write.";
      break;
    }
    case kMultiply: {
      head = step + 1 < steps ? "Multiply tile " + std::to_string(step) + " while tile " +
                                    std::to_string(step + 1) + " is fetched into registers"
                              : "Multiply tile " + std::to_string(step) +
                                    ": the fetch past K returns zeros and reads nothing";
      line1 = "acc" + thread + " = " + num(acc_before[ty * T + tx]);
      for (int k = 0; k < T; ++k) {
        line1 += " + " + num(st.as[ty * T + k]) + "*" + num(st.bs[k * T + tx]);
      }
      line1 += " = " + num(st.acc[ty * T + tx]) + "   (As row " + std::to_string(ty) +
               " times Bs column " + std::to_string(tx) + ")";
      const int k1 = k0 + T, an = st.a_next_from[ty * T + tx], bn = st.b_next_from[ty * T + tx];
      line2 = "Meanwhile: a_next = load_or_zero(A, M, K, " + std::to_string(row) + ", " +
              std::to_string(k1 + tx) + ") = " + from_name("A", an, w.K) +
              ", b_next = load_or_zero(B, K, N, " + std::to_string(k1 + ty) + ", " +
              std::to_string(col) + ") = " + from_name("B", bn, w.N) + ".";
      break;
    }
    case kBarrier2:
      head = "__syncthreads(), barrier 2: nobody overwrites As or Bs while others still read them";
      line1 = step + 1 < steps ? "The next store puts tile " + std::to_string(step + 1) +
                                     " over this one; a fast thread must wait for the slowest."
                               : "After the last tile nothing overwrites As and Bs, but every "
                                 "thread still reaches the barrier.";
      line2 = "The barrier guards write after read.";
      break;
    default:
      head = "Write C: the threads inside C write their sums; those outside write nothing";
      line1 = row < w.M && col < w.N
                  ? "Thread " + thread + " writes C(" + std::to_string(row) + "," +
                        std::to_string(col) + ") = " + num(st.acc[ty * T + tx]) +
                        " (alpha = 1, beta = 0)."
                  : "Thread " + thread +
                        " lies outside C: it loaded, reached every barrier, "
                        "and writes nothing.";
      line2 = "";
  }
  s.text(12, 20, head, {14, svg::Anchor::kStart, true});
  s.text(12, kBoxY + kBoxH + 22, line1, {12, svg::Anchor::kStart});
  if (!line2.empty()) s.text(12, kBoxY + kBoxH + 40, line2, {12, svg::Anchor::kStart});

  // A (M x K), B (K x N), C (M x N), each drawn to whole tiles: places past the edge hatched.
  constexpr double kCell = 34;
  const double x0 = 44, yB = 146;
  const svg::Grid B{x0 + Kp * kCell + 40, yB, kCell, kCell, Kp, Np};
  const svg::Grid A{x0, B.bottom() + 34, kCell, kCell, Mp, Kp};
  const svg::Grid C{B.x, A.y, kCell, kCell, Mp, Np};
  const std::string a_fill = svg::tint(svg::kBlue, 0.75), b_fill = svg::tint(svg::kOrange, 0.6);
  const std::string c_fill = svg::tint(svg::kGreen, 0.7);
  const auto draw_matrix = [&](const svg::Grid& g, const std::vector<float>& v, int rows, int cols,
                               const std::string& fill) {
    for (int r = 0; r < g.rows; ++r)
      for (int c = 0; c < g.cols; ++c) {
        const bool in = r < rows && c < cols;
        s.cell(g.left(c), g.top(r), g.w, g.h, in ? fill : svg::kHatch,
               in ? num(v[r * cols + c]) : "");
      }
    g.numbers(s, 1);
  };
  draw_matrix(A, w.A, w.M, w.K, svg::tint(svg::kBlue, 0.88));
  draw_matrix(B, w.B, w.K, w.N, svg::tint(svg::kOrange, 0.85));
  s.text(A.x - 26, A.y + A.rows * kCell / 2 + 5, "A", {15, svg::Anchor::kMiddle, true});
  s.text(B.x + B.cols * kCell / 2, B.y - 20, "B", {15, svg::Anchor::kMiddle, true});
  // The block's tiles of A and B at this step.
  s.rect(A.left(k0), A.top(br * T), T * kCell, T * kCell, "none", svg::kBlue, 3.5);
  s.rect(B.left(bc * T), B.top(k0), T * kCell, T * kCell, "none", svg::kOrange, 3.5);
  // C: the block's threads with their sums; the rest of C belongs to other blocks.
  for (int r = 0; r < Mp; ++r) {
    for (int c = 0; c < Np; ++c) {
      const bool mine = r / T == br && c / T == bc;
      const bool in = r < w.M && c < w.N;
      if (!mine) {
        s.cell(C.left(c), C.top(r), kCell, kCell, in ? "#f2f2f2" : svg::kHatch);
        continue;
      }
      const int t = (r - br * T) * T + (c - bc * T);
      const bool changed = kind == kMultiply;
      const bool written = kind == kWrite && in;
      std::string cls;
      if (written) cls = "c " + std::to_string(r) + " " + std::to_string(c) + " = " + num(acc[t]);
      if (!in) cls = "outside";
      s.cell(C.left(c), C.top(r), kCell, kCell,
             !in ? svg::kHatch
                 : (written ? svg::tint(svg::kGreen, 0.45) : (changed ? c_fill : "#ffffff")),
             num(acc[t]), cls, in ? "" : "a thread outside C: its sum is never written");
    }
  }
  C.numbers(s, 1);
  C.edges(s, T, T, svg::kInk, 1.5);
  s.rect(C.left(bc * T), C.top(br * T), T * kCell, T * kCell, "none", svg::kInk, 3.5);
  s.text(C.x + C.cols * kCell / 2, C.bottom() + 20, "C: each thread's acc",
         {12, svg::Anchor::kMiddle, false, svg::kFaint});
  // The highlighted thread: its element of C, and what it reads of A and B in this phase.
  const std::string hi = svg::kPurple;
  s.rect(C.left(col), C.top(row), kCell, kCell, "none", hi, 3);
  if (kind == kStore) {
    if (row < Mp && k0 + tx < Kp) s.rect(A.left(k0 + tx), A.top(row), kCell, kCell, "none", hi, 3);
    if (col < Np && k0 + ty < Kp) s.rect(B.left(col), B.top(k0 + ty), kCell, kCell, "none", hi, 3);
  }
  // The multiply: the next tiles on their way (dashed), with this thread's share of them.
  if (kind == kMultiply) {
    const int k1 = k0 + T, t = ty * T + tx;
    const int an = st.a_next_from[t], bn = st.b_next_from[t];
    s.rect(0, 0, 0, 0, "none", "none", 1,
           an == -1 ? "fetch a pad" : "fetch a " + from_name("A", an, w.K));
    s.rect(0, 0, 0, 0, "none", "none", 1,
           bn == -1 ? "fetch b pad" : "fetch b " + from_name("B", bn, w.N));
    if (k1 < Kp) {
      dashed_box(s, A.left(k1), A.top(br * T), T * kCell, T * kCell, svg::kBlue, 2.5);
      dashed_box(s, B.left(bc * T), B.top(k1), T * kCell, T * kCell, svg::kOrange, 2.5);
      s.rect(A.left(k1), A.top(br * T), 0, 0, "none", "none", 1,
             "next a " + std::to_string(br * T) + " " + std::to_string(k1));
      s.rect(B.left(bc * T), B.top(k1), 0, 0, "none", "none", 1,
             "next b " + std::to_string(k1) + " " + std::to_string(bc * T));
      if (row < Mp) dashed_box(s, A.left(k1 + tx), A.top(row), kCell, kCell, hi, 3);
      if (col < Np) dashed_box(s, B.left(col), B.top(k1 + ty), kCell, kCell, hi, 3);
    }
  }

  // The block's shared memory: As and Bs, each place labelled with what load_or_zero returned.
  constexpr double kTw = 62, kTh = 42;
  const double xs = C.right() + 56;
  const svg::Grid As{xs, A.y, kTw, kTh, T, T};
  const svg::Grid Bs{xs + T * kTw + 34, A.y, kTw, kTh, T, T};
  s.text(xs, A.y - 46,
         "shared memory of block (" + std::to_string(br) + "," + std::to_string(bc) + ")",
         {12, svg::Anchor::kStart, true});
  s.text(As.x + T * kTw / 2, As.y - 22, "As", {14, svg::Anchor::kMiddle, true});
  s.text(Bs.x + T * kTw / 2, Bs.y - 22, "Bs", {14, svg::Anchor::kMiddle, true});
  for (int i = 0; i < T; ++i) {
    for (int j = 0; j < T; ++j) {
      const int t = i * T + j;
      const std::string pos = std::to_string(i) + " " + std::to_string(j) + " ";
      const int af = st.a_from[t], bf = st.b_from[t];
      s.cell(As.left(j), As.top(i), kTw, kTh, af == -1 ? svg::kHatch : a_fill,
             af == -1 ? "0" : from_name("A", af, w.K) + "\n" + num(st.as[t]),
             "as " + pos + (af == -1 ? "pad" : from_name("A", af, w.K)), "", 12);
      s.cell(Bs.left(j), Bs.top(i), kTw, kTh, bf == -1 ? svg::kHatch : b_fill,
             bf == -1 ? "0" : from_name("B", bf, w.N) + "\n" + num(st.bs[t]),
             "bs " + pos + (bf == -1 ? "pad" : from_name("B", bf, w.N)), "", 12);
    }
  }
  As.numbers(s, 1);
  Bs.numbers(s, 1);
  As.edges(s, 0, 0, svg::kBlue, 2);
  Bs.edges(s, 0, 0, svg::kOrange, 2);
  if (kind == kStore) {
    s.rect(As.left(tx), As.top(ty), kTw, kTh, "none", hi, 3);
    s.rect(Bs.left(tx), Bs.top(ty), kTw, kTh, "none", hi, 3);
  } else if (kind == kBarrier1 || kind == kMultiply) {
    s.rect(As.x, As.top(ty), T * kTw, kTh, "none", hi, 3);
    s.rect(Bs.left(tx), Bs.y, kTw, T * kTh, "none", hi, 3);
  }
  // A barrier: a bar under the tiles that every thread of the block reaches.
  const double yb = As.bottom() + 18;
  if (kind == kBarrier1 || kind == kBarrier2) {
    s.rect(xs, yb, Bs.right() - xs, 8, svg::kVermillion);
    s.text(xs, yb + 26, "__syncthreads(): all " + std::to_string(T * T) + " threads wait here",
           {12, svg::Anchor::kStart});
  }
  s.legend(xs, yB + 14,
           {{"line:" + hi,
             "thread " + thread + " (C(" + std::to_string(row) + "," + std::to_string(col) + "))"},
            {svg::kHatch, "past the edge: a zero in a tile, a thread outside C"}});
  return s;
}

}  // namespace lesson05
