// Lesson 02: dispatch. A 1D vector add with its over-launch guard, then a 2D launch in which
// every thread records who it is and which element it reached, printed as text and drawn as SVG.
// Without a GPU the same launches are emulated on the CPU, thread by thread.
#include "dispatch.hpp"
#include "emulate.hpp"
#include "grid_svg.hpp"
#include "grid_text.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/random.hpp"
#include "common/report.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace lesson02;

namespace {

constexpr long kMaxN = 1L << 26;      // 64 Mi floats: 256 MiB per vector
constexpr long kMaxCells = 1L << 22;  // 4 Mi records in the 2D array

// Runs vector_add on the GPU with random inputs and checks every element against the host sum.
bool vector_add_on_gpu(int n, int block) {
  //! [vector_add_run]
  std::vector<float> a(n), b(n);
  course::fill_uniform(a.data(), a.size(), course::derive_seed("vector_add a"));
  course::fill_uniform(b.data(), b.size(), course::derive_seed("vector_add b"));
  course::DeviceBuffer<float> da(a), db(b), dc(std::vector<float>(n, NAN));  // c poisoned: NaN
  vector_add(da.data(), db.data(), dc.data(), n, block);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> c = dc.to_host();
  //! [vector_add_run]
  long wrong = 0, first = -1;
  for (int i = 0; i < n; ++i) {
    if (!(c[i] == a[i] + b[i]) && wrong++ == 0) first = i;
  }
  if (wrong == 0) {
    std::printf("    checked against the host: all %d sums right\n", n);
  } else {
    std::printf("    WRONG: %ld of %d elements, first c[%ld] = %g, expected %g\n", wrong, n, first,
                c[first], a[first] + b[first]);
  }
  return wrong == 0;
}

int run(int argc, char** argv) {
  course::Cli cli("lesson02", "dispatch: a 1D launch with its guard, and a picture of a 2D one");
  cli.number("n", 1000, "vector length (1D)")
      .number("block", 128, "threads per block (1D)")
      .number("width", 4, "columns of the 2D array (x)")
      .number("height", 6, "rows of the 2D array (y)")
      .number("block-x", 2, "threads per block along x (2D)")
      .number("block-y", 2, "threads per block along y (2D)")
      .text("svg", "dispatch-grid.svg", "where to write the picture")
      .flag("json", "also print one JSON line per launch");
  cli.parse(argc, argv);
  std::string bad = invalid_1d_launch(cli.get("n"), cli.get("block"));
  if (bad.empty()) {
    bad = invalid_2d_launch(cli.get("width"), cli.get("height"), cli.get("block-x"),
                            cli.get("block-y"));
  }
  if (bad.empty() && cli.get("n") > kMaxN) bad = "--n: at most " + std::to_string(kMaxN);
  if (bad.empty() && cli.get("width") * cli.get("height") > kMaxCells) {
    bad = "--width x --height: at most " + std::to_string(kMaxCells) + " elements";
  }
  if (!bad.empty()) {
    std::fprintf(stderr, "lesson02: %s\n\n%s", bad.c_str(), cli.usage().c_str());
    return course::kExitUsage;
  }
  const int n = static_cast<int>(cli.get("n")), block = static_cast<int>(cli.get("block"));
  const int width = static_cast<int>(cli.get("width"));
  const int height = static_cast<int>(cli.get("height"));
  const int bx = static_cast<int>(cli.get("block-x")), by = static_cast<int>(cli.get("block-y"));
  const long cells = static_cast<long>(width) * height;

  const course::DeviceInfo dev = course::probe_device(0);
  const std::string why = course::device_unusable_reason(dev, course::this_lesson().min_cc);
  const bool gpu = why.empty();
  if (gpu) {
    CUDA_CHECK(cudaSetDevice(dev.index));
    std::printf("device: %s (compute capability %d.%d)\n", dev.name.c_str(), dev.limits.cc_major,
                dev.limits.cc_minor);
    course::run_seed();  // prints the seed of the random inputs
  } else {
    std::printf("%s: drawing the emulated launch instead\n", why.c_str());
  }

  // ---- 1D ----
  const int blocks = blocks_for(n, block);
  const long launched = static_cast<long>(blocks) * block;
  std::printf("\n1D  vector_add: n = %d, block = %d threads -> grid = %d blocks\n", n, block,
              blocks);
  std::printf("    %ld threads launched, %ld idle (past n: the guard stops them)\n", launched,
              launched - n);
  if (launched > n) {
    std::printf("    the last block, %d, covers i = %ld..%ld: %ld threads work, %ld idle\n",
                blocks - 1, launched - block, launched - 1, n - (launched - block), launched - n);
  }
  bool ok_1d = true;
  if (gpu) {
    ok_1d = vector_add_on_gpu(n, block);
  } else {
    const std::string diag = diagnose(emulate_1d(n, block));
    ok_1d = diag.empty();
    std::printf("    emulated: %s\n", ok_1d ? "every element written exactly once" : diag.c_str());
  }

  // ---- 2D ----
  const Int2 grid{blocks_for(width, bx), blocks_for(height, by)};
  const long launched_2d = static_cast<long>(grid.x) * grid.y * bx * by;
  const int warps = (bx * by + kWarpSize - 1) / kWarpSize;
  std::printf(
      "\n2D  record_thread_coords: %d wide (x) x %d high (y), block (%d,%d) -> grid (%d,%d)\n",
      width, height, bx, by, grid.x, grid.y);
  std::printf(
      "    %ld threads launched, %ld idle; each block: %d threads in %d warp%s, %d of %d "
      "lanes busy\n",
      launched_2d, launched_2d - cells, bx * by, warps, warps == 1 ? "" : "s", bx * by,
      warps * kWarpSize);
  std::vector<ThreadRecord> records;
  bool ok_2d = true;
  if (gpu) {
    //! [record_run]
    course::DeviceBuffer<ThreadRecord> d_records(cells);
    d_records.fill_bytes(0xFF);  // poison: every field -1, "not written"
    record_thread_coords(d_records.data(), width, height, bx, by);
    CUDA_CHECK(cudaDeviceSynchronize());
    records = d_records.to_host();
    //! [record_run]
    const Emulation2D e = emulate_2d(width, height, bx, by);
    long differ = 0;
    for (long i = 0; i < cells; ++i) differ += !same_record(records[i], e.records[i]);
    ok_2d = differ == 0;
    if (ok_2d) {
      std::printf("    the GPU's records equal the emulated launch's\n");
    } else {
      std::printf("    WRONG: %ld records differ from the emulated launch\n", differ);
    }
  } else {
    //! [fallback]
    const Emulation2D e = emulate_2d(width, height, bx, by);
    const std::string diag = diagnose(e);
    records = e.records;
    //! [fallback]
    ok_2d = diag.empty();
    std::printf("    emulated: %s\n", ok_2d ? "every element written exactly once" : diag.c_str());
  }

  if (width <= 16 && height <= 32) {
    std::printf("\n(row y, column x) each thread computed; | and - separate blocks:\n%s",
                grid_text(records, width, height, bx, by, CellLabel::kRowCol).c_str());
    std::printf("\nwarp:lane of each thread within its block:\n%s",
                grid_text(records, width, height, bx, by, CellLabel::kWarpLane).c_str());
  } else {
    std::printf("\n(the grid is too large to print as text: see the picture)\n");
  }
  if (cells <= 256 * 256) {
    const std::filesystem::path svg = std::filesystem::absolute(cli.str("svg"));
    std::ofstream file(svg);
    file << grid_svg(records, width, height, bx, by,
                     gpu ? "recorded on " + dev.name : "emulated on the CPU");
    if (!file) throw std::runtime_error("could not write " + svg.string());
    std::printf("\npicture: %s\n", svg.string().c_str());
  } else {
    std::printf("\n(no picture: at most 65536 elements are drawn)\n");
  }

  if (cli.on("json")) {
    const char* mode = gpu ? "gpu" : "emulated";
    course::JsonLine one = course::measurement_line(course::this_lesson().id, "launch");
    course::JsonLine two = course::measurement_line(course::this_lesson().id, "launch");
    one.add("kernel", "vector_add").add("mode", mode).add("n", n);
    one.add("block", block).add("grid", blocks).add("threads", launched);
    one.add("idle", launched - n).add("ok", ok_1d).print();
    two.add("kernel", "record_thread_coords").add("mode", mode);
    two.add("width", width).add("height", height).add("block_x", bx).add("block_y", by);
    two.add("grid_x", grid.x).add("grid_y", grid.y).add("threads", launched_2d);
    two.add("idle", launched_2d - cells).add("ok", ok_2d).print();
  }
  return ok_1d && ok_2d ? course::kExitOk : course::kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  return course::guarded_main(course::this_lesson(), [&] { return run(argc, argv); });
}
