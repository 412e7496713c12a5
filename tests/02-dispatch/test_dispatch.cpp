// The grader of lesson 02 (dispatch). Linked against the learner's exercise (grade02) and against
// the reference solution (test02).
//
// [cpu] tests call the index functions on the host and emulate whole launches thread by thread
//       (lessons/02-dispatch/emulate.hpp): every element written exactly once, no thread past the
//       guard outside the array, the right warps and lanes. They never touch the CUDA runtime.
// [gpu] tests run vector_add and record_thread_coords on the device, with the output poisoned
//       before the launch and a canary band after it.
#include "catch_compat.hpp"
#include "test_helpers.hpp"

#include "dispatch.hpp"
#include "emulate.hpp"
#include "grid_svg.hpp"
#include "grid_text.hpp"

#include "common/buffers.hpp"
#include "common/random.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace lesson02;
using course_test::throws_invalid_argument;

namespace {

std::string str(Int2 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + ")";
}

std::string str(const ThreadRecord& r) {
  std::ostringstream out;
  out << "{x " << r.x << ", y " << r.y << ", block (" << r.block_x << "," << r.block_y
      << "), thread (" << r.thread_x << "," << r.thread_y << "), warp " << r.warp << ", lane "
      << r.lane << "}";
  return out.str();
}

// What the thread that owns element (x, y) must record, worked out from the geometry alone (not
// from the learner's functions): the block and the thread within it, then the linear id.
ThreadRecord expected_record(int x, int y, int block_x, int block_y) {
  ThreadRecord r{};
  r.x = x;
  r.y = y;
  r.block_x = x / block_x;
  r.block_y = y / block_y;
  r.thread_x = x % block_x;
  r.thread_y = y % block_y;
  const int linear = r.thread_y * block_x + r.thread_x;
  r.warp = linear / 32;
  r.lane = linear % 32;
  return r;
}

// Empty when `got` (width x height, row-major) holds exactly the expected records; otherwise the
// first few wrong elements with what they hold, what they should, and a hint at the cause.
std::string compare_records(const std::vector<ThreadRecord>& got, int width, int height,
                            int block_x, int block_y, bool check_warps = true) {
  std::ostringstream out;
  long wrong = 0;
  std::string hint;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      ThreadRecord g = got[static_cast<std::size_t>(y) * width + x];
      ThreadRecord want = expected_record(x, y, block_x, block_y);
      if (!check_warps) g.warp = want.warp, g.lane = want.lane;
      if (same_record(g, want)) continue;
      if (wrong++ < 5) {
        out << "  element (row y=" << y << ", col x=" << x << "): got " << str(g) << ",\n"
            << "      expected " << str(want) << "\n";
      }
      if (hint.empty()) {
        if (same_record(g, unwritten_record())) {
          hint = "no thread wrote this element (see the coverage test)";
        } else if (g.x >= width || g.y >= height) {
          hint =
              "a thread outside the array (x >= width or y >= height) got past the guard and "
              "wrote here: in_bounds_2d must check x < width and y < height";
        } else if (g.x != want.x || g.y != want.y) {
          hint = (g.x == want.y && g.y == want.x)
                     ? "x and y are swapped: x is the column (threadIdx.x), y the row"
                     : "the element holds another thread's record: it is written at "
                       "out[y * width + x] (row-major)";
        } else if (g.block_x != want.block_x || g.block_y != want.block_y ||
                   g.thread_x != want.thread_x || g.thread_y != want.thread_y) {
          hint = "the block and thread fields are blockIdx and threadIdx, .x and .y";
        } else {
          hint =
              "warp and lane: linear id = thread_y * block_dim_x + thread_x, warp = id / 32, "
              "lane = id % 32";
        }
      }
    }
  }
  if (wrong == 0) return "";
  return std::to_string(wrong) + " of " + std::to_string(static_cast<long>(width) * height) +
         " records wrong (block (" + std::to_string(block_x) + "," + std::to_string(block_y) +
         ")):\n" + out.str() + "  likely cause: " + hint;
}

struct Shape2D {
  int width, height, block_x, block_y;
};

// What a wrong global_index_1d means; the rule: block_idx * block_dim + thread_idx.
std::string index_1d_words(int block_idx, int block_dim, int thread_idx, int got) {
  const int want = block_idx * block_dim + thread_idx;
  if (got == thread_idx && block_idx != 0) {
    return "the block's offset block_idx * block_dim is missing: every block would write the "
           "same elements";
  }
  if (got == thread_idx * block_dim + block_idx) return "block_idx and thread_idx are swapped";
  if (got == block_idx + thread_idx) return "block_idx is not multiplied by block_dim";
  if (got == want + 1 || got == want - 1) return "off by one";
  return "another thread's element";
}

// What a wrong in_bounds_1d answer for element i of n means; the guard is i < n.
std::string guard_1d_words(int i, int n, bool got) {
  std::ostringstream o;
  o << "in_bounds_1d(" << i << ", " << n << ") returned " << (got ? "true" : "false") << ": ";
  if (i < n) {
    o << "element " << i << " is inside the array, so its thread must work";
  } else if (i == n) {
    o << "c[n] is one past the end: the guard is i < n, not i <= n";
  } else {
    o << "element " << i << " is past the end (i >= n)";
  }
  return o.str();
}

// What a wrong in_bounds_2d answer means; the guard is x < width && y < height.
std::string guard_2d_words(Int2 g, int width, int height, bool got) {
  const bool x_in = g.x < width, y_in = g.y < height;
  std::ostringstream o;
  o << "in_bounds_2d((x " << g.x << ", y " << g.y << "), width " << width << ", height " << height
    << ") returned " << (got ? "true" : "false") << ": ";
  if (x_in && y_in) {
    o << "inside: x is a column < width, y a row < height";
    if (g.x >= height || g.y >= width) o << " (x against the height or y against the width?)";
  } else if (g.x == width || g.y == height) {
    o << (g.x == width ? "x == width" : "y == height")
      << " is one past the edge: the guard is x < width && y < height, not <=";
  } else {
    o << (x_in ? "y is past the last row" : "x is past the last column")
      << ": both x < width and y < height must hold";
  }
  return o.str();
}

// What a wrong linear id, warp or lane means; linear id = thread_y * block_dim_x + thread_x.
std::string warp_words(const char* fn, Int2 t, Int2 dim, int got, int linear) {
  std::ostringstream o;
  o << fn << "(thread "
    << "(" << t.x << "," << t.y << "), block (" << dim.x << "," << dim.y << ")) returned " << got
    << ": ";
  if (got == t.x * dim.y + t.y && got != linear) {
    o << "x and y swapped: threads are numbered row by row, x fastest";
  } else if (got == t.y * dim.y + t.x && got != linear) {
    o << "a row is block_dim_x threads long, not block_dim_y";
  } else if (std::string(fn) == "warp_of" && got == linear % 32) {
    o << "that is the lane: the warp is id / 32";
  } else if (std::string(fn) == "lane_of" && got == linear / 32) {
    o << "that is the warp: the lane is id % 32";
  } else {
    o << "the rule: linear id = thread_y * block_dim_x + thread_x, warp = id / 32, lane = id % 32";
  }
  return o.str();
}

using course_test::said;

// Ragged shapes: 1x1, the classic 4 wide x 6 high example, primes, non-multiples of the block on
// one axis or both, blocks wider than the array, and full 1024-thread blocks.
const std::vector<Shape2D> kShapes2D = {
    {1, 1, 1, 1},      {1, 1, 16, 16},    {4, 6, 2, 2},     {5, 7, 2, 2},    {5, 7, 4, 4},
    {7, 5, 4, 2},      {33, 17, 16, 16},  {33, 17, 32, 8},  {17, 33, 32, 8}, {100, 3, 8, 32},
    {3, 100, 32, 4},   {64, 64, 32, 32},  {65, 31, 32, 32}, {40, 20, 16, 8}, {257, 129, 32, 8},
    {1, 300, 1, 1024}, {300, 1, 1024, 1}, {31, 31, 3, 5},
};

}  // namespace

// ---- Task 1: the 1D index, the grid size and the guard -----------------------------------------

TEST_CASE("global_index_1d: worked cases", "[cpu][task_1]") {
  struct Case {
    int block_idx, block_dim, thread_idx, expect;
  };
  const Case cases[] = {{0, 128, 0, 0},     {0, 128, 127, 127},    {1, 128, 0, 128},
                        {7, 128, 103, 999}, {2, 3, 1, 7},          {0, 1, 0, 0},
                        {5, 1, 0, 5},       {3, 1024, 1023, 4095}, {100, 32, 31, 3231}};
  for (const Case& c : cases) {
    const int got = global_index_1d(c.block_idx, c.block_dim, c.thread_idx);
    INFO("global_index_1d(block_idx "
         << c.block_idx << ", block_dim " << c.block_dim << ", thread_idx " << c.thread_idx
         << ") returned " << got << ", expected " << c.expect
         << " = block_idx * block_dim + thread_idx: "
         << index_1d_words(c.block_idx, c.block_dim, c.thread_idx, got));
    CHECK(got == c.expect);
  }
}

TEST_CASE("blocks_for rounds up, and never adds a whole extra block", "[cpu][task_1]") {
  struct Case {
    int n, block, expect;
  };
  const Case cases[] = {{1000, 128, 8},
                        {1024, 128, 8},
                        {1025, 128, 9},
                        {1, 1024, 1},
                        {1, 1, 1},
                        {7, 1, 7},
                        {31, 32, 1},
                        {32, 32, 1},
                        {33, 32, 2},
                        {4097, 256, 17},
                        {7, 3, 3},
                        {6, 3, 2},
                        {1 << 24, 1024, 1 << 14},
                        {(1 << 24) + 1, 1024, (1 << 14) + 1}};
  for (const Case& c : cases) {
    const int got = blocks_for(c.n, c.block);
    std::string why;
    if (got == c.n / c.block && c.n % c.block != 0) {
      why = "rounds down -> the last partial block is missing";
    } else if (got == c.n / c.block + 1 && c.n % c.block == 0) {
      why = "a whole extra block when n is a multiple of the block size (use n + block - 1)";
    }
    INFO("blocks_for(" << c.n << ", " << c.block << ") returned " << got << ", expected "
                       << c.expect << " (n / block rounded up) " << why);
    CHECK(got == c.expect);
  }
}

TEST_CASE("in_bounds_1d: true inside the array, false past its end", "[cpu][task_1]") {
  for (int n : {1, 2, 31, 32, 1000}) {
    INFO("n = " << n);
    for (int i : {0, n - 1}) {
      INFO(said([&] { return guard_1d_words(i, n, in_bounds_1d(i, n)); }));
      CHECK(in_bounds_1d(i, n));
    }
    {
      INFO("in_bounds_1d(n, n) must be false: c[n] is one past the end (i < n, not i <= n)");
      CHECK_FALSE(in_bounds_1d(n, n));
    }
    for (int i : {n + 1, n + 1023}) {
      INFO(said([&] { return guard_1d_words(i, n, in_bounds_1d(i, n)); }));
      CHECK_FALSE(in_bounds_1d(i, n));
    }
  }
}

TEST_CASE("emulated 1D launch: every element exactly once, nothing past the guard",
          "[cpu][task_1]") {
  for (int n : {1, 2, 31, 32, 33, 127, 128, 129, 1000, 1023, 1024, 1025, 4097, 65537}) {
    for (int block : {1, 32, 96, 128, 256, 1000, 1024}) {
      if (block == 1 && n > 4097) continue;
      const Emulation1D e = emulate_1d(n, block);
      const std::string diag = diagnose(e);
      INFO(diag);
      REQUIRE(diag.empty());
      INFO("n = " << n << ", block " << block << ": " << e.blocks << " blocks = "
                  << e.threads_launched << " threads, " << e.threads_idle << " idle");
      {
        INFO("the threads that pass in_bounds_1d must be exactly the n elements: i < n");
        CHECK(e.threads_launched - e.threads_idle == n);
      }
      INFO("blocks_for(" << n << ", " << block << ") = " << e.blocks
                         << ": a whole idle block; the grid is n / block rounded up, "
                            "(n + block - 1) / block");
      CHECK(e.threads_idle < block);  // the over-launch is less than one block
    }
  }
}

// ---- Task 3: the 2D index and guard
// --------------------------------------------------------------

TEST_CASE("global_index_2d: worked cases", "[cpu][task_3]") {
  struct Case {
    Int2 block_idx, block_dim, thread_idx, expect;
  };
  const Case cases[] = {
      {{1, 1}, {2, 2}, {0, 1}, {2, 3}},     // the classic 6x4 example: row 3, column 2
      {{0, 0}, {2, 2}, {0, 0}, {0, 0}},     //
      {{1, 2}, {2, 2}, {1, 1}, {3, 5}},     // bottom-right cell of the 4 wide x 6 high example
      {{3, 1}, {16, 8}, {5, 7}, {53, 15}},  // non-square blocks catch mixed-up axes
      {{1, 3}, {16, 8}, {7, 5}, {23, 29}},  //
      {{2, 0}, {32, 1}, {31, 0}, {95, 0}},  //
      {{0, 9}, {1, 64}, {0, 63}, {0, 639}},
  };
  for (const Case& c : cases) {
    const Int2 got = global_index_2d(c.block_idx, c.block_dim, c.thread_idx);
    INFO("global_index_2d(block_idx " << str(c.block_idx) << ", block_dim " << str(c.block_dim)
                                      << ", thread_idx " << str(c.thread_idx) << ") returned (x,y) "
                                      << str(got) << ", expected " << str(c.expect)
                                      << ": x = bx * bdx + tx (column), y = by * bdy + ty (row)");
    CHECK(got.x == c.expect.x);
    CHECK(got.y == c.expect.y);
  }
}

TEST_CASE("in_bounds_2d: x against the width, y against the height", "[cpu][task_3]") {
  const int width = 5, height = 7;  // 5 columns, 7 rows: not square, so swapped checks show
  // The same checks, in the same order, each with what a wrong answer means.
  auto words = [&](Int2 g) {
    return said([&] { return guard_2d_words(g, width, height, in_bounds_2d(g, width, height)); });
  };
  for (Int2 g : {Int2{0, 0}, Int2{4, 6}}) {
    INFO(words(g));
    CHECK(in_bounds_2d(g, width, height));
  }
  INFO("x = 4 is the last column, y = 6 the last row of a 5 wide x 7 high array");
  {
    INFO(words(Int2{0, 6}));
    CHECK(in_bounds_2d(Int2{0, 6}, width, height));
  }
  for (Int2 g : {Int2{5, 0}, Int2{6, 0}, Int2{0, 7}, Int2{5, 7}, Int2{100, 2}, Int2{2, 100}}) {
    INFO(words(g));
    CHECK_FALSE(in_bounds_2d(g, width, height));
  }
}

TEST_CASE("emulated 2D launch: every element exactly once, nothing past the guard",
          "[cpu][task_3]") {
  for (const Shape2D& s : kShapes2D) {
    const Emulation2D e = emulate_2d(s.width, s.height, s.block_x, s.block_y, false);
    const std::string diag = diagnose(e);
    INFO(diag);
    REQUIRE(diag.empty());
    const std::string wrong = compare_records(e.records, s.width, s.height, s.block_x, s.block_y,
                                              /*check_warps=*/false);
    INFO(wrong);
    CHECK(wrong.empty());
  }
}

TEST_CASE("the classic example as text: 4 wide x 6 high, blocks of 2 x 2", "[cpu][task_3]") {
  const Emulation2D e = emulate_2d(4, 6, 2, 2, false);
  REQUIRE(diagnose(e).empty());
  INFO(
      "the grid is blocks_for(width, block_x) x blocks_for(height, block_y) = 2 x 3 blocks of "
      "2 x 2 threads, 24 threads for 24 elements: got "
      << e.grid.x << " x " << e.grid.y << " blocks, " << e.threads_launched << " threads, "
      << e.threads_idle << " idle");
  CHECK(e.grid.x == 2);
  CHECK(e.grid.y == 3);
  CHECK(e.threads_launched == 24);
  CHECK(e.threads_idle == 0);
  const std::string text = grid_text(e.records, 4, 6, 2, 2, CellLabel::kRowCol);
  const std::string expect =
      "       x=0   x=1     x=2   x=3\n"
      "y=0  (0,0) (0,1) | (0,2) (0,3)\n"
      "y=1  (1,0) (1,1) | (1,2) (1,3)\n"
      "     ------------+------------\n"
      "y=2  (2,0) (2,1) | (2,2) (2,3)\n"
      "y=3  (3,0) (3,1) | (3,2) (3,3)\n"
      "     ------------+------------\n"
      "y=4  (4,0) (4,1) | (4,2) (4,3)\n"
      "y=5  (5,0) (5,1) | (5,2) (5,3)\n";
  INFO("got:\n" << text << "expected:\n" << expect);
  CHECK(text == expect);
}

// ---- Task 4: warps and lanes --------------------------------------------------------------------

TEST_CASE("linear_thread_id, warp_of, lane_of: worked cases", "[cpu][task_4]") {
  struct Case {
    Int2 thread_idx, block_dim;
    int linear, warp, lane;
  };
  const Case cases[] = {
      {{0, 0}, {16, 8}, 0, 0, 0},     {{3, 2}, {16, 8}, 35, 1, 3},
      {{15, 0}, {16, 8}, 15, 0, 15},  {{0, 1}, {16, 8}, 16, 0, 16},
      {{15, 7}, {16, 8}, 127, 3, 31}, {{31, 0}, {32, 8}, 31, 0, 31},
      {{0, 1}, {32, 8}, 32, 1, 0},    {{7, 3}, {8, 8}, 31, 0, 31},
      {{0, 4}, {8, 8}, 32, 1, 0},     {{1, 1}, {2, 2}, 3, 0, 3},
      {{5, 3}, {64, 4}, 197, 6, 5},   {{0, 1023}, {1, 1024}, 1023, 31, 31},
  };
  for (const Case& c : cases) {
    INFO("thread " << str(c.thread_idx) << " in a block of " << str(c.block_dim)
                   << ": linear id = thread_y * block_dim_x + thread_x = " << c.linear
                   << ", warp = id / 32 = " << c.warp << ", lane = id % 32 = " << c.lane);
    {
      INFO(said([&] {
        return warp_words("linear_thread_id", c.thread_idx, c.block_dim,
                          linear_thread_id(c.thread_idx, c.block_dim), c.linear);
      }));
      CHECK(linear_thread_id(c.thread_idx, c.block_dim) == c.linear);
    }
    {
      INFO(said([&] {
        return warp_words("warp_of", c.thread_idx, c.block_dim, warp_of(c.thread_idx, c.block_dim),
                          c.linear);
      }));
      CHECK(warp_of(c.thread_idx, c.block_dim) == c.warp);
    }
    {
      INFO(said([&] {
        return warp_words("lane_of", c.thread_idx, c.block_dim, lane_of(c.thread_idx, c.block_dim),
                          c.linear);
      }));
      CHECK(lane_of(c.thread_idx, c.block_dim) == c.lane);
    }
  }
}

TEST_CASE("emulated 2D launch: every record right, warps and lanes included", "[cpu][task_4]") {
  for (const Shape2D& s : kShapes2D) {
    const Emulation2D e = emulate_2d(s.width, s.height, s.block_x, s.block_y);
    const std::string diag = diagnose(e);
    INFO(diag);
    REQUIRE(diag.empty());
    const std::string wrong = compare_records(e.records, s.width, s.height, s.block_x, s.block_y);
    INFO(wrong);
    CHECK(wrong.empty());
  }
}

TEST_CASE("the SVG picture of an emulated launch is a standalone drawing", "[cpu][task_4]") {
  struct Case {
    Shape2D s;
    long idle;
  };
  for (const Case& c : {Case{{4, 6, 2, 2}, 0}, Case{{5, 7, 2, 2}, 6 * 8 - 35},
                        Case{{40, 20, 16, 8}, 48 * 24 - 800}}) {
    const Shape2D& s = c.s;
    INFO("array " << s.width << " x " << s.height << ", block " << s.block_x << " x " << s.block_y);
    const Emulation2D e = emulate_2d(s.width, s.height, s.block_x, s.block_y);
    REQUIRE(diagnose(e).empty());
    CHECK(e.threads_idle == c.idle);
    // The picture the lesson program writes, from the records alone.
    const course::svg::Scene scene = grid_scene(e.records, s.width, s.height, s.block_x, s.block_y);
    CHECK(scene.count("cell") == static_cast<long>(s.width) * s.height);
    CHECK(scene.count("idle") == c.idle);
    CHECK(scene.count("unwritten") == 0);
    CHECK(scene.count("block") == e.grid.x * e.grid.y);
    const std::string svg = grid_svg(e.records, s.width, s.height, s.block_x, s.block_y);
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
    CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
    if (s.width == 4) {
      CHECK(svg.find(">(3,2)</text>") != std::string::npos);  // row 3, column 2 is labelled
      CHECK(svg.find(">t(0,1)</text>") != std::string::npos);
    }
    // The emulation's own picture agrees, and knows no element was written twice.
    const course::svg::Scene emulated = grid_scene(e);
    CHECK(emulated.count("cell") == scene.count("cell"));
    CHECK(emulated.count("twice") == 0);
  }
}

// ---- GPU: the real launches ---------------------------------------------------------------------

TEST_CASE("vector_add on the GPU: right sums, no write past n", "[gpu][task_2]") {
  constexpr int kGuard = 2048;  // canary floats after c[n-1]: more than one block of over-launch
  const float kCanary = 12345.625f;  // a + b of inputs in [-1, 1) never gives this
  struct Case {
    int n;
    std::vector<int> blocks;
  };
  const std::vector<Case> cases = {
      {1, {1, 32, 1024}},
      {31, {32, 128}},
      {32, {32, 128}},
      {33, {1, 32, 128}},
      {1000, {32, 96, 128, 1024}},
      {4097, {1, 128, 256, 1024}},
      {65537, {256, 1000}},
      {(1 << 20) + 3, {128, 256, 1024}},
  };
  for (const Case& c : cases) {
    const int n = c.n;
    std::vector<float> a(n), b(n);
    course::fill_uniform(a.data(), a.size(), course::derive_seed("a n=" + std::to_string(n)));
    course::fill_uniform(b.data(), b.size(), course::derive_seed("b n=" + std::to_string(n)));
    course::DeviceBuffer<float> da(a), db(b);
    for (int block : c.blocks) {
      INFO("vector_add n = " << n << ", block " << block << " (grid " << (n + block - 1) / block
                             << " blocks)");
      std::vector<float> init(static_cast<std::size_t>(n) + kGuard, NAN);  // poison
      for (int k = 0; k < kGuard; ++k) init[static_cast<std::size_t>(n) + k] = kCanary;
      course::DeviceBuffer<float> dc(init);
      vector_add(da.data(), db.data(), dc.data(), n, block);
      course::wait_for_gpu("vector_add");
      const std::vector<float> got = dc.to_host();
      long wrong = 0, nan = 0, clobbered = 0;
      std::ostringstream first;
      for (int i = 0; i < n; ++i) {
        const float want = a[i] + b[i];
        if (got[i] == want) continue;
        if (std::isnan(got[i])) ++nan;
        if (wrong++ < 5) first << "  c[" << i << "] = " << got[i] << ", expected " << want << "\n";
      }
      for (int k = 0; k < kGuard; ++k) {
        if (got[static_cast<std::size_t>(n) + k] != kCanary && clobbered++ == 0) {
          first << "  the canary at c[n + " << k << "] = c[" << n + k << "] was overwritten\n";
        }
      }
      std::string cause;
      if (clobbered > 0)
        cause = "writes past c[n-1]: the guard (i < n) is missing or wrong";
      else if (nan == wrong && wrong > 0)
        cause =
            "elements never written: grid too small, or "
            "the guard stops threads inside the array";
      else if (wrong > 0)
        cause = "wrong values: c[i] = a[i] + b[i] with i = the global index";
      INFO(wrong << " wrong (" << nan << " still NaN), " << clobbered << " canaries overwritten\n"
                 << first.str() << "likely cause: " << cause);
      CHECK(wrong == 0);
      CHECK(clobbered == 0);
    }
  }
  // The preconditions are checked before anything is launched.
  course::DeviceBuffer<float> d(4);
  CHECK(throws_invalid_argument([&] { vector_add(d.data(), d.data(), d.data(), 0, 128); }));
  CHECK(throws_invalid_argument([&] { vector_add(d.data(), d.data(), d.data(), 4, 0); }));
  CHECK(throws_invalid_argument([&] { vector_add(d.data(), d.data(), d.data(), 4, 1025); }));
}

TEST_CASE("record_thread_coords on the GPU: the records of the emulated launch, exactly",
          "[gpu][task_5]") {
  constexpr int kGuard = 1024;  // canary records after the array
  std::vector<Shape2D> shapes = kShapes2D;
  shapes.push_back({1024, 1024, 32, 32});  // a large one
  shapes.push_back({1000, 999, 16, 16});
  for (const Shape2D& s : shapes) {
    INFO("record_thread_coords " << s.width << " wide x " << s.height << " high, block ("
                                 << s.block_x << "," << s.block_y << ")");
    const std::size_t cells = static_cast<std::size_t>(s.width) * s.height;
    std::vector<ThreadRecord> init(cells + kGuard, unwritten_record());  // poison: all -1
    const ThreadRecord canary{7777, 7777, 7777, 7777, 7777, 7777, 7777, 7777};
    for (int k = 0; k < kGuard; ++k) init[cells + k] = canary;
    course::DeviceBuffer<ThreadRecord> d(init);
    record_thread_coords(d.data(), s.width, s.height, s.block_x, s.block_y);
    course::wait_for_gpu("record_thread_coords");
    std::vector<ThreadRecord> got = d.to_host();
    long clobbered = 0;
    for (int k = 0; k < kGuard; ++k) clobbered += !same_record(got[cells + k], canary);
    INFO(clobbered << " canary records after the array overwritten: a write past the end "
                      "(the guard must check x < width and y < height)");
    CHECK(clobbered == 0);
    got.resize(cells);
    const std::string wrong = compare_records(got, s.width, s.height, s.block_x, s.block_y);
    INFO(wrong);
    CHECK(wrong.empty());
    // And the host emulation, which runs the same index functions, agrees with the device.
    const Emulation2D e = emulate_2d(s.width, s.height, s.block_x, s.block_y);
    long differ = 0;
    for (std::size_t i = 0; i < cells; ++i) differ += !same_record(got[i], e.records[i]);
    INFO(differ << " records differ between the GPU and the emulated launch");
    CHECK(differ == 0);
  }
  course::DeviceBuffer<ThreadRecord> d(4);
  CHECK(throws_invalid_argument([&] { record_thread_coords(d.data(), 0, 4, 2, 2); }));
  CHECK(throws_invalid_argument([&] { record_thread_coords(d.data(), 2, 2, 64, 32); }));
  CHECK(throws_invalid_argument([&] { record_thread_coords(d.data(), 2, 2, 0, 1); }));
}
