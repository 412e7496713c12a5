/// \file scenes.cpp
/// \brief Lesson 07's pictures (given code, compiled with each library): drawn from what your
/// thread-tile functions did on the CPU (thread_tiles.hpp), yours in the exercise's library.
#include "lessons/07-register-tiling/figures.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace lesson07 {

namespace {

namespace svg = course::svg;

std::string str(int v) {
  return std::to_string(v);
}

// Which thread writes each cell of the tile: the thread, -1 for none, -2 for several.
std::vector<int> owners(const ThreadTileProbe& p) {
  std::vector<int> owner(static_cast<std::size_t>(p.bm) * p.bn, -1);
  for (int t = 0; t < p.threads(); ++t) {
    for (int e = 0; e < p.bm * p.bn; ++e) {
      if (p.written[t][e] == ThreadTileProbe::kNotWritten) continue;
      owner[e] = owner[e] == -1 ? t : -2;
    }
  }
  return owner;
}

// The cell (r * bn + c) where `thread` writes result r, or -1.
int cell_of(const ThreadTileProbe& p, int thread, int result) {
  const std::vector<int>& w = p.written[thread];
  const auto it = std::find(w.begin(), w.end(), result);
  return it == w.end() ? -1 : static_cast<int>(it - w.begin());
}

// Lines between cells of different owners: the thread tiles' edges, as the writes drew them.
void owner_edges(svg::Scene& s, const svg::Grid& g, const std::vector<int>& owner) {
  auto at = [&](int r, int c) { return owner[r * g.cols + c]; };
  // Each edge a run of cells long, not a line per cell: the figure stays small.
  for (int r = 1; r < g.rows; ++r) {
    for (int c = 0; c < g.cols;) {
      int e = c;
      while (e < g.cols && at(r - 1, e) != at(r, e)) ++e;
      if (e > c) s.line(g.left(c), g.top(r), g.left(e), g.top(r), svg::kInk, 1.5);
      c = e + 1;
    }
  }
  for (int c = 1; c < g.cols; ++c) {
    for (int r = 0; r < g.rows;) {
      int e = r;
      while (e < g.rows && at(e, c - 1) != at(e, c)) ++e;
      if (e > r) s.line(g.left(c), g.top(r), g.left(c), g.top(e), svg::kInk, 1.5);
      r = e + 1;
    }
  }
  g.edges(s, 0, 0, svg::kInk, 1.5);
}

// A grid of pale cells, row or column `slice` darker (the step's slice; -1: none), with thin
// white lines between the cells.
void plain_grid(svg::Scene& s, const svg::Grid& g, int slice_row, int slice_col) {
  s.rect(g.x, g.y, g.cols * g.w, g.rows * g.h, "#f8f8f8");
  if (slice_row >= 0) s.rect(g.x, g.top(slice_row), g.cols * g.w, g.h, "#eeeeee");
  if (slice_col >= 0) s.rect(g.left(slice_col), g.y, g.w, g.rows * g.h, "#eeeeee");
  g.edges(s, 1, 1, "#ffffff", 1);
}

// A pale fill for the tiles of threads not shown: alternate greys, so neighbours differ.
std::string other_fill(const ThreadTileProbe& p, int t) {
  const int cols = p.bn / p.tn;
  return svg::tint(svg::kGrey, (t % cols + t / cols) % 2 == 0 ? 0.82 : 0.68);
}

}  // namespace

course::svg::Scene outer_product_scene(int thread, int k) {
  const ThreadTileProbe p = thread_tile_2d_probe(thread);  // your multiply and write
  const std::vector<int> owner = owners(p);
  std::vector<ProductTerm> at_k;
  for (const ProductTerm& t : p.terms)
    if (t.ka == k) at_k.push_back(t);
  const std::string me = svg::tint(svg::kOrange, 0.35);
  const std::string tm = str(p.tm), tn = str(p.tn);

  svg::Scene s("Thread " + str(thread) + "'s outer product at k = " + str(k),
               "The " + str(p.bm) + " x " + str(p.bn) + " block tile of C, split among " +
                   str(p.threads()) + " threads of " + tm + " x " + tn +
                   " results each, with the A tile As on its left and the B tile Bs above it. "
                   "Thread " +
                   str(thread) + "'s " + tm + " values in column " + str(k) + " of As and " + tn +
                   " values in row " + str(k) + " of Bs are highlighted; on the right, the " +
                   str(static_cast<int>(at_k.size())) +
                   " products its multiply adds at this step, each into one of its "
                   "accumulators, and where its write puts each accumulator in C.");
  s.text(12, 22, "Thread " + str(thread) + " at step k = " + str(k) + ": an outer product",
         {15, svg::Anchor::kStart, true});
  s.text(12, 44,
         tm + " of column k of As times " + tn + " of row k of Bs: " + str(p.tm * p.tn) +
             " FMAs for " + str(p.tm + p.tn) + " shared loads (" + str(p.bm) + " x " + str(p.bn) +
             " tile, BK = " + str(p.bk) + ")",
         {13, svg::Anchor::kStart});

  constexpr double u = 16;
  const svg::Grid bs{200, 100, u, u, p.bk, p.bn};
  const svg::Grid cg{bs.x, bs.bottom() + 20, u, u, p.bm, p.bn};
  const svg::Grid as{cg.x - 28 - p.bk * u, cg.y, u, u, p.bm, p.bk};

  // The places of A and B this thread reads at step k: those its products use.
  std::set<int> a_rows, b_cols;  // m of As[m][k], n of Bs[k][n]
  for (const ProductTerm& t : at_k) a_rows.insert(t.m), b_cols.insert(t.kb * p.bn + t.n);
  plain_grid(s, bs, k, -1);
  plain_grid(s, as, -1, k);
  for (int q : b_cols) s.cell(bs.left(q % p.bn), bs.top(q / p.bn), u, u, me, "", "b-place");
  for (int m : a_rows) s.cell(as.left(k), as.top(m), u, u, me, "", "a-place");
  // Column k of As and row k of Bs: the step's slices.
  s.rect(as.left(k), as.y, u, p.bm * u, "none", svg::kInk, 2);
  s.rect(bs.x, bs.top(k), p.bn * u, u, "none", svg::kInk, 2);
  as.edges(s, 0, 0, svg::kGrey, 1);
  bs.edges(s, 0, 0, svg::kGrey, 1);
  as.numbers(s, 4, 11);
  bs.numbers(s, 4, 11);
  s.text(as.x, bs.top(1), "Bs[k][n]: the", {12, svg::Anchor::kStart});
  s.text(as.x, bs.top(1) + 16, "B tile, above C", {12, svg::Anchor::kStart});
  s.text(as.x, bs.top(5), "As[m][k]: the", {12, svg::Anchor::kStart});
  s.text(as.x, bs.top(5) + 16, "A tile, left", {12, svg::Anchor::kStart});
  s.text(as.x + as.w * k + u / 2, as.bottom() + 16, "k = " + str(k),
         {12, svg::Anchor::kMiddle, true});

  // C: every cell in the colour of the thread that writes it (your write).
  for (int r = 0; r < p.bm; ++r) {
    for (int c = 0; c < p.bn; ++c) {
      const int o = owner[r * p.bn + c];
      const std::string fill = o == thread ? me
                               : o >= 0    ? other_fill(p, o)
                               : o == -1   ? std::string("#ffffff")
                                           : std::string(svg::kVermillion);
      s.rect(cg.left(c), cg.top(r), u, u, fill, "none", 1,
             o >= 0    ? "own " + str(o) + " " + str(r) + " " + str(c)
             : o == -1 ? "hole"
                       : "clash");
    }
  }
  owner_edges(s, cg, owner);
  cg.numbers(s, 4, 11);
  // Each thread's number in the middle of its cells.
  for (int t = 0; t < p.threads(); ++t) {
    double rs = 0, cs = 0;
    int n = 0;
    for (int e = 0; e < p.bm * p.bn; ++e)
      if (owner[e] == t) rs += e / p.bn, cs += e % p.bn, ++n;
    if (n == 0) continue;
    s.text(cg.x + (cs / n + 0.5) * u, cg.y + (rs / n + 0.5) * u + 4, "t" + str(t),
           {t == thread ? 13.0 : 11.0, svg::Anchor::kMiddle, t == thread});
  }
  s.text(cg.x, cg.bottom() + 18, "C: each cell in the colour of the thread whose write lands in it",
         {12, svg::Anchor::kStart});

  // The outer product: a column of a, a row of b, and their products.
  const double px = cg.right() + 36, aw = 72, gw = 62, gh = 44;
  const double gx = px + aw + 4, gy = cg.y + 20;
  s.text(px, cg.y - 76, "thread " + str(thread) + "'s registers at k = " + str(k) + ":",
         {13, svg::Anchor::kStart, true});
  s.text(px, cg.y - 58, "acc[i][j] += a[i] * b[j]", {13, svg::Anchor::kStart});
  std::vector<std::set<int>> m_of(p.tm), n_of(p.tn);
  std::vector<std::set<int>> kb_of(p.tn);
  for (const ProductTerm& t : at_k)
    m_of[t.i].insert(t.m), n_of[t.j].insert(t.n), kb_of[t.j].insert(t.kb);
  for (int j = 0; j < p.tn; ++j) {
    const bool one = n_of[j].size() == 1 && kb_of[j].size() == 1;
    s.cell(gx + j * gw, gy - 40, gw, 36, one ? me : svg::tint(svg::kVermillion, 0.4),
           one ? "b[" + str(j) + "] =\nBs[" + str(*kb_of[j].begin()) + "][" +
                     str(*n_of[j].begin()) + "]"
               : "b[" + str(j) + "]: " + str(static_cast<int>(n_of[j].size())) + " places",
           "", "", 11);
  }
  for (int i = 0; i < p.tm; ++i) {
    const bool one = m_of[i].size() == 1;
    s.cell(px, gy + i * gh, aw, gh, one ? me : svg::tint(svg::kVermillion, 0.4),
           one ? "a[" + str(i) + "] =\nAs[" + str(*m_of[i].begin()) + "][" + str(k) + "]"
               : "a[" + str(i) + "]: " + str(static_cast<int>(m_of[i].size())) + " places",
           "", "", 11);
  }
  int wrong = 0;
  for (int i = 0; i < p.tm; ++i) {
    for (int j = 0; j < p.tn; ++j) {
      std::vector<ProductTerm> here;
      for (const ProductTerm& t : at_k)
        if (t.i == i && t.j == j) here.push_back(t);
      const int e = cell_of(p, thread, i * p.tn + j);
      // The product of row m of A and column n of B belongs in C(m, n): is that where the write
      // puts acc[i][j]?
      const bool right = here.size() == 1 && here[0].count == 1 && here[0].kb == k && e >= 0 &&
                         e / p.bn == here[0].m && e % p.bn == here[0].n;
      if (!right) ++wrong;
      const std::string where = e >= 0 ? "C(" + str(e / p.bn) + "," + str(e % p.bn) + ")" : "C(?)";
      const std::string label = here.empty() ? "nothing"
                                : here.size() == 1
                                    ? "a" + str(i) + "*b" + str(j) + "\n" + where
                                    : str(static_cast<int>(here.size())) + " products";
      s.cell(gx + j * gw, gy + i * gh, gw, gh,
             right ? svg::tint(svg::kOrange, 0.6) : svg::tint(svg::kVermillion, 0.4), label, "", "",
             11);
      for (const ProductTerm& t : here) {
        s.rect(gx + j * gw, gy + i * gh, gw, gh, "none", "none", 0,
               "term " + str(t.i) + " " + str(t.j) + " " + str(t.m) + " " + str(t.ka) + " " +
                   str(t.kb) + " " + str(t.n));
        s.rect(gx + j * gw, gy + i * gh, gw, gh, "none", "none", 0, "product");
      }
    }
  }
  s.text(px, gy + p.tm * gh + 20, "each product, and the cell of C", {12, svg::Anchor::kStart});
  s.text(px, gy + p.tm * gh + 36, "its accumulator is written to", {12, svg::Anchor::kStart});
  if (wrong > 0) {
    s.text(12, cg.bottom() + 40,
           str(wrong) +
               " of the thread's accumulators (red) are not the one product of row m\n"
               "of A and column n of B that belongs where its write puts it, C(m, n)",
           {13, svg::Anchor::kStart, true, svg::kVermillion});
  }
  const int holes = static_cast<int>(std::count(owner.begin(), owner.end(), -1));
  const int clashes = static_cast<int>(std::count(owner.begin(), owner.end(), -2));
  if (holes + clashes > 0) {
    s.text(12, cg.bottom() + 76,
           str(holes) + " cells of C no thread writes (white), " + str(clashes) +
               " that several threads write (red)",
           {13, svg::Anchor::kStart, true, svg::kVermillion});
  }
  return s;
}

course::svg::Scene float4_scene(int first, int count) {
  constexpr int k = 0;
  std::vector<ThreadTileProbe> probes;
  for (int t = first; t < first + count; ++t) probes.push_back(vectorized_2d_probe(t));
  const ThreadTileProbe& p = probes.front();
  const std::vector<int> owner = owners(p);
  auto shown = [&](int t) { return t >= first && t < first + count; };
  auto colour = [&](int t) { return svg::wheel(t, p.threads()); };
  const std::string who = count == 1 ? "thread " + str(first)
                                     : "threads " + str(first) + " to " + str(first + count - 1);

  svg::Scene s("The float4 reads and writes of " + who,
               "Step 3's thread tiles on a " + str(p.bm) + " x " + str(p.bn) + " block tile of " +
                   str(p.threads()) + " threads, " + str(p.tm) + " x " + str(p.tn) +
                   " results each. At the top row k = 0 of As (the A tile stored transposed) and "
                   "of Bs, with the groups of four consecutive floats that " +
                   who +
                   " read with one float4 load each; below, C with every thread's groups of four "
                   "results, each written with one float4 store, the shown threads' in colour.");
  s.text(12, 22, "float4 accesses of " + who + " (step k = 0)", {15, svg::Anchor::kStart, true});
  s.text(12, 44,
         "each outlined group is four consecutive floats, 16 bytes: one 128-bit load or store",
         {13, svg::Anchor::kStart});

  constexpr double uw = 12, uh = 16, ch = 15;
  const svg::Grid as{70, 96, 2 * uw, uh, p.bk, p.bm};
  const svg::Grid bs{70, as.bottom() + 44, uw, uh, p.bk, p.bn};
  const svg::Grid cg{70, bs.bottom() + 62, uw, ch, p.bm, p.bn};

  // Which float4 groups of row k each shown thread reads: its a[4g .. 4g + 3] (b[4h ..]) and the
  // places of A (B) the products of those registers use.
  struct Group {
    int thread, index, start;  // index: the registers a[4 * index ..] (b[4 * index ..])
    bool whole;                // four consecutive places from a multiple of 4
    std::vector<int> places;
  };
  std::vector<Group> reads_a, reads_b;
  for (const ThreadTileProbe& q : probes) {
    std::vector<std::set<int>> m_of(q.tm), n_of(q.tn);
    for (const ProductTerm& t : q.terms) {
      if (t.ka == k) m_of[t.i].insert(t.m);
      if (t.kb == k) n_of[t.j].insert(t.n);
    }
    auto groups = [&](const std::vector<std::set<int>>& of, std::vector<Group>& out) {
      for (std::size_t g = 0; g + 3 < of.size(); g += 4) {
        Group gr{q.thread, static_cast<int>(g / 4), -1, true, {}};
        for (std::size_t x = g; x < g + 4; ++x) {
          gr.whole = gr.whole && of[x].size() == 1;
          gr.places.insert(gr.places.end(), of[x].begin(), of[x].end());
        }
        if (gr.places.empty()) continue;
        gr.start = gr.places[0];
        for (int x = 0; x < 4 && gr.whole; ++x) gr.whole = gr.places[x] == gr.start + x;
        gr.whole = gr.whole && gr.start % 4 == 0;
        out.push_back(gr);
      }
    };
    groups(m_of, reads_a);
    groups(n_of, reads_b);
  }
  auto draw_reads = [&](const svg::Grid& g, const std::vector<Group>& reads, const char* tag) {
    plain_grid(s, g, k, -1);
    std::set<int> labelled;
    for (const Group& gr : reads) {
      if (gr.whole) {
        const bool first_here = labelled.insert(gr.start).second;
        s.rect(g.left(gr.start), g.top(k), 4 * g.w, g.h, first_here ? colour(gr.thread) : "none",
               svg::kInk, 2, std::string(tag) + " " + str(gr.thread) + " " + str(gr.start));
        if (first_here) {
          std::set<int> readers;  // a group several threads read is one broadcast
          for (const Group& o : reads)
            if (o.whole && o.start == gr.start) readers.insert(o.thread);
          s.text(g.left(gr.start) + 2 * g.w, g.top(k) + g.h - 4,
                 readers.size() == 1 ? "t" + str(gr.thread)
                                     : "t" + str(*readers.begin()) + "-t" + str(*readers.rbegin()),
                 {11});
        }
      } else {
        for (int place : gr.places)
          s.rect(g.left(place), g.top(k), g.w, g.h, svg::kVermillion, svg::kInk, 1, "scattered");
      }
    }
    g.edges(s, 0, 4, svg::kGrey, 0.6);
    g.numbers(s, 4, 11);
  };
  s.text(as.x, as.y - 22, "As[k][m]: the A tile transposed (k rows, m across)",
         {12, svg::Anchor::kStart, true});
  draw_reads(as, reads_a, "read-a");
  s.text(bs.x, bs.y - 22, "Bs[k][n]: the B tile (k rows, n across)",
         {12, svg::Anchor::kStart, true});
  draw_reads(bs, reads_b, "read-b");
  // The banks of the shown threads' reads of row k of Bs, group by group: 32 words, 4 bytes
  // each, bank = word % 32.
  if (count > 1) {
    std::vector<std::set<int>> words(p.tn / 4), banks(p.tn / 4);
    for (const Group& gr : reads_b) {
      for (int place : gr.places)
        words[gr.index].insert(place), banks[gr.index].insert((k * p.bn + place) % 32);
    }
    std::string note = "one float4 load by these " + str(count) + " threads: ";
    for (std::size_t h = 0; h < words.size(); ++h) {
      if (words[h].empty()) continue;
      note += (h ? "; the next: " : "") + std::string("words ") + str(*words[h].begin()) + "-" +
              str(*words[h].rbegin()) + " of row " + str(k) + ", " +
              str(static_cast<int>(banks[h].size())) + " banks";
    }
    s.text(bs.x, bs.bottom() + 18, note, {12, svg::Anchor::kStart});
  }

  // C: every thread's results in groups of four, as its write put them.
  s.text(cg.x, cg.y - 22, "C: every thread's results, four to a float4 store",
         {12, svg::Anchor::kStart, true});
  s.rect(cg.x, cg.y, p.bn * uw, p.bm * ch, "#ffffff", svg::kGrey, 1);
  int scattered = 0;
  for (int t = 0; t < p.threads(); ++t) {
    for (int i = 0; i < p.tm; ++i) {
      for (int h = 0; h < p.tn / 4; ++h) {
        int e[4];
        for (int q = 0; q < 4; ++q) e[q] = cell_of(p, t, i * p.tn + 4 * h + q);
        bool whole = e[0] >= 0 && e[0] % 4 == 0;
        for (int q = 1; q < 4; ++q) whole = whole && e[q] == e[0] + q;
        if (whole) {
          const int r = e[0] / p.bn, c = e[0] % p.bn;
          s.rect(cg.left(c), cg.top(r), 4 * uw, ch, shown(t) ? colour(t) : other_fill(p, t),
                 svg::kInk, shown(t) ? 2 : 0.8, "store " + str(t) + " " + str(r) + " " + str(c));
          s.text(cg.left(c) + 2 * uw, cg.top(r) + ch - 3.5, "t" + str(t),
                 {11, svg::Anchor::kMiddle, shown(t), shown(t) ? svg::kInk : svg::kFaint});
        } else {
          for (int q = 0; q < 4; ++q) {
            if (e[q] < 0) continue;
            ++scattered;
            s.rect(cg.left(e[q] % p.bn), cg.top(e[q] / p.bn), uw, ch, "none", svg::kVermillion, 2,
                   "scattered");
          }
        }
      }
    }
  }
  // Cells no thread writes, or several do.
  for (int e = 0; e < p.bm * p.bn; ++e) {
    if (owner[e] >= 0) continue;
    s.rect(cg.left(e % p.bn), cg.top(e / p.bn), uw, ch,
           owner[e] == -1 ? "#ffffff" : svg::kVermillion, svg::kGrey, 1,
           owner[e] == -1 ? "hole" : "clash");
  }
  cg.numbers(s, 4, 11);
  double y = cg.bottom() + 20;
  if (scattered > 0) {
    s.text(12, y,
           str(scattered) + " results do not sit in four consecutive, 16-byte aligned floats (red)",
           {13, svg::Anchor::kStart, true, svg::kVermillion});
    y += 18;
  }
  s.legend(cg.x, y,
           {{"line:" + std::string(svg::kInk), "four consecutive floats moved by one float4"},
            {other_fill(p, 0), "the results of another thread"}});
  return s;
}

}  // namespace lesson07
