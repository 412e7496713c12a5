// Lesson 11's figures held to the functions they draw: every tile sits where tile_at puts it, once
// in each order; every tile is computed by the one block WholeTiles::unit gives it; the stage and
// parities drawn at each step of the ring are the ring protocol's, and the barriers' phases those
// of the model; every chunk of the swizzle sits where staging_offset puts it.
#include "catch_compat.hpp"

#include "lessons/11-tma-pipeline/figures.hpp"
#include "lessons/11-tma-pipeline/staging_layout.hpp"
#include "lessons/11-tma-pipeline/tma_pipeline.hpp"
#include "lessons/11-tma-pipeline/your_ring.hpp"  // ring_protocol: the reference's

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace lesson11;

namespace {

// A tagged rectangle of a figure: where it is drawn, its class and its tooltip.
struct Drawn {
  double x, y;
  std::string cls, tip;
};

// The rectangles of class `cls` that carry a tooltip, as the SVG document draws them.
std::vector<Drawn> tagged(const course::svg::Scene& s, const std::string& cls) {
  static const std::regex rect(
      "<rect x=\"([-0-9.]+)\" y=\"([-0-9.]+)\"[^>]*class=\"([^\"]*)\"><title>([^<]*)</title>");
  const std::string doc = s.str();
  std::vector<Drawn> out;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), rect); it != std::sregex_iterator();
       ++it) {
    if ((*it)[3] == cls) {
      out.push_back({std::stod((*it)[1]), std::stod((*it)[2]), (*it)[3], (*it)[4]});
    }
  }
  return out;
}

// The value of `key` in a tooltip "a=1 b=2".
int field(const std::string& tip, const std::string& key) {
  const std::regex re("(^| )" + key + "=(-?[0-9]+)");
  std::smatch m;
  REQUIRE(std::regex_search(tip, m, re));
  return std::stoi(m[2]);
}

// Each drawn x (or y) as its rank among the distinct ones: the column (row) it is drawn in.
std::map<double, int> ranks(const std::vector<Drawn>& d, bool x) {
  std::set<double> v;
  for (const Drawn& e : d) v.insert(x ? e.x : e.y);
  std::map<double, int> r;
  for (double e : v) r.emplace(e, static_cast<int>(r.size()));
  return r;
}

}  // namespace

TEST_CASE("11 tile order: every tile once, where tile_at puts it", "[cpu][figures]") {
  const int tm = 4096 / kFigureBlockM, tn = 4096 / kFigureBlockN;
  for (FigureOrder o :
       {FigureOrder{TileOrder::kGrouped, 1}, FigureOrder{TileOrder::kGrouped, 8},
        FigureOrder{TileOrder::kGrouped, 16}, FigureOrder{TileOrder::kHilbert, 1}}) {
    for (int wave = 1; wave <= 4; ++wave) {
      INFO("order " << static_cast<int>(o.order) << ", group " << o.group << ", wave " << wave);
      const course::svg::Scene s = tile_order_scene(4096, o, wave);
      const std::vector<Drawn> tiles = tagged(s, "tile");
      REQUIRE(static_cast<int>(tiles.size()) == tm * tn);
      const auto col = ranks(tiles, true), row = ranks(tiles, false);
      std::set<int> seen, rows, cols;
      for (const Drawn& d : tiles) {
        const int t = field(d.tip, "t");
        const TileCoord c = tile_at(t, tm, tn, o.order, o.group);
        CHECK(seen.insert(t).second);  // each tile number once
        CHECK(field(d.tip, "m") == c.m);
        CHECK(field(d.tip, "n") == c.n);
        CHECK(row.at(d.y) == c.m);  // drawn in its row and column of the grid
        CHECK(col.at(d.x) == c.n);
        if (t >= (wave - 1) * kFigureSms && t < wave * kFigureSms)
          rows.insert(c.m), cols.insert(c.n);
      }
      CHECK(static_cast<int>(seen.size()) == tm * tn);
      CHECK(s.count("a-row") == static_cast<int>(rows.size()));
      CHECK(s.count("b-col") == static_cast<int>(cols.size()));
    }
  }
}

TEST_CASE("11 persistent grid: each tile taken by the one block WholeTiles::unit gives it",
          "[cpu][figures]") {
  const int tm = 4096 / kFigureBlockM, tn = 4096 / kFigureBlockN, tiles = tm * tn;
  const WholeTiles::Params plan = WholeTiles::plan(tm, tn, 64, kFigureSms, 16);
  std::map<int, std::pair<int, int>> owner;  // tile -> (block, unit)
  for (int b = 0; b < plan.grid; ++b) {
    for (int u = 0; WholeTiles::unit(plan, b, u).tile >= 0; ++u) {
      CHECK(owner.emplace(WholeTiles::unit(plan, b, u).tile, std::make_pair(b, u)).second);
    }
  }
  REQUIRE(static_cast<int>(owner.size()) == tiles);
  for (int wave = 1; wave <= 4; ++wave) {
    INFO("wave " << wave);
    const course::svg::Scene s = persistent_scene(FigureOrder{TileOrder::kGrouped, 16}, wave);
    const std::vector<Drawn> drawn = tagged(s, "tile");
    REQUIRE(static_cast<int>(drawn.size()) == tiles);
    const auto col = ranks(drawn, true), row = ranks(drawn, false);
    std::set<int> seen;
    int busy = 0;
    for (const Drawn& d : drawn) {
      const int t = field(d.tip, "t");
      const TileCoord c = tile_at(t, tm, tn, TileOrder::kGrouped, 16);
      CHECK(seen.insert(t).second);  // one cell, so one block, a tile
      CHECK(field(d.tip, "block") == owner.at(t).first);
      CHECK(field(d.tip, "unit") == owner.at(t).second);
      CHECK(row.at(d.y) == c.m);
      CHECK(col.at(d.x) == c.n);
      busy += owner.at(t).second == wave - 1;
    }
    CHECK(s.count("sm") == busy);
    CHECK(s.count("sm") + s.count("sm-idle") == kFigureSms);
  }
  CHECK(persistent_scene(FigureOrder{TileOrder::kGrouped, 16}, 4).count("sm-idle") == 16);
}

TEST_CASE("11 ring: the stage and parities drawn at each step are the ring protocol's",
          "[cpu][figures]") {
  const RingProtocol ring = ring_protocol();
  for (int stages = 2; stages <= 5; ++stages) {
    // The moves, replayed here: the producer tries first at every step.
    std::vector<RingMove> moves;
    const std::string error = play_ring(
        ring, stages, kRingFigureWarps, kRingFigureBlocks, [] { return true; },
        [&](const RingMove& m) { moves.push_back(m); });
    REQUIRE(error.empty());
    REQUIRE(static_cast<int>(moves.size()) == 2 * kRingFigureBlocks);
    for (int step = 0; step <= 2 * kRingFigureBlocks; ++step) {
      INFO(stages << " stages, step " << step);
      const course::svg::Scene s = ring_scene(stages, step);
      CHECK_NOTHROW(s.str());
      if (step > 0) {
        const RingMove& m = moves[step - 1];
        const RingSlot slot =
            m.producer ? ring.producer_slot(m.it, stages) : ring.consumer_slot(m.it, stages);
        CHECK(s.count(std::string("move ") + (m.producer ? "producer" : "consumers") +
                      " it=" + std::to_string(m.it) + " stage=" + std::to_string(slot.stage) +
                      " parity=" + std::to_string(slot.parity)) == 1);
        for (int st = 0; st < stages; ++st) {
          CHECK(s.count("barriers stage=" + std::to_string(st) +
                        " full=" + std::to_string(m.full[st].phase) +
                        " empty=" + std::to_string(m.empty[st].phase)) == 1);
        }
      } else {
        for (int st = 0; st < stages; ++st) {
          CHECK(s.count("barriers stage=" + std::to_string(st) + " full=0 empty=0") == 1);
        }
      }
      for (int it = 0; it < kRingFigureBlocks; ++it) {
        const RingSlot c = ring.consumer_slot(it, stages), p = ring.producer_slot(it, stages);
        CHECK(s.count("slot it=" + std::to_string(it) + " stage=" + std::to_string(c.stage) +
                      " full=" + std::to_string(c.parity) + " empty=" + std::to_string(p.parity)) ==
              1);
      }
    }
    // The timeline: every k-block loaded and released once, with the protocol's slot.
    const course::svg::Scene t = ring_timeline_scene(stages);
    CHECK_NOTHROW(t.str());
    for (int it = 0; it < kRingFigureBlocks; ++it) {
      const RingSlot c = ring.consumer_slot(it, stages), p = ring.producer_slot(it, stages);
      CHECK(t.count("load it=" + std::to_string(it) + " stage=" + std::to_string(p.stage) +
                    " parity=" + std::to_string(p.parity)) == 1);
      CHECK(t.count("release it=" + std::to_string(it) + " stage=" + std::to_string(c.stage) +
                    " parity=" + std::to_string(c.parity)) == 1);
    }
  }
}

TEST_CASE("11 swizzle: every chunk drawn where staging_offset puts it", "[cpu][figures]") {
  for (int kstep = 0; kstep < 4; ++kstep) {
    INFO("k-step " << kstep);
    const course::svg::Scene s = swizzle_scene(kstep);
    const std::vector<Drawn> mem = tagged(s, "mem");
    REQUIRE(mem.size() == 64);
    const auto col = ranks(mem, true), row = ranks(mem, false);
    std::set<std::pair<int, int>> seen;
    for (const Drawn& d : mem) {
      const int r = field(d.tip, "r"), c = field(d.tip, "c");
      CHECK(seen.insert({r, c}).second);
      const int offset = staging_offset(r, 8 * c);
      CHECK(row.at(d.y) == offset / 128);
      CHECK(col.at(d.x) == offset % 128 / 16);
    }
    CHECK(s.count("read") == 16);  // two chunks of each of 8 rows
  }
}
