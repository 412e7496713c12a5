// Lesson 10: tensor cores. First, on the CPU, the picture of who holds what in mma.sync.m16n8k16
// (from your fragment mapping) and the bank conflicts of the kernel's shared-memory accesses, plain
// and swizzled (lesson 09's counter). Then what each compiled configuration gets from the GPU, and
// the ladder: WMMA, then mma.sync with ldmatrix and cp.async step by step, each checked against
// Eigen and timed next to cuBLAS bf16 in the same process.
//
//   make lesson-10                       your exercise
//   make lesson-10 SOLUTION=1            the reference solution
//   make lesson-10 ARGS="--size 8192"    options: --size, --m/--n/--k, --reps, --warmup, --json
//   make lesson-10 ARGS="--sweep"        also time every compiled configuration (no checks)
#include "fragment_svg.hpp"
#include "mma_sync_gemm.hpp"
#include "wmma_gemm.hpp"

#include "bank_conflicts.hpp"  // lesson 09's counter (its reference solution)

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/device.hpp"
#include "common/gemm_driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using course::fixed;

//! [conflict_table]
// The shared-memory traffic of one stage of the headline's large tile (every warp of a block),
// plain and swizzled, counted with lesson 09's bank_conflicts over the addresses the kernel itself
// uses.
void print_conflict_table(bool json) {
  course::Table t({"tiles", "access", "instructions", "wavefronts", "conflicts", "extra each"});
  for (bool swizzled : {false, true}) {
    const int index = lesson10::headline_config_index(swizzled);
    for (const lesson09::SharedAccess& a : lesson10::config_shared_accesses(index)) {
      long wavefronts = 0, conflicts = 0;
      for (const lesson09::WarpAddresses& w : a.warps) {
        const int c = lesson09::bank_conflicts(w, a.access_bytes);
        conflicts += c;
        wavefronts += a.access_bytes / lesson09::kBankBytes + c;
      }
      const double per = static_cast<double>(conflicts) / static_cast<double>(a.warps.size());
      const char* layout = swizzled ? "swizzled" : "plain";
      t.add_row({layout, a.what, std::to_string(a.warps.size()), std::to_string(wavefronts),
                 std::to_string(conflicts), fixed(per, 2)});
      if (json) {
        course::measurement_line(course::this_lesson().id, "bank_conflicts")
            .add("layout", layout)
            .add("access", a.what)
            .add("instructions", static_cast<long>(a.warps.size()))
            .add("wavefronts", wavefronts)
            .add("conflicts", conflicts)
            .print();
      }
    }
  }
  t.print();
}
//! [conflict_table]

// What each compiled configuration gets: registers and local memory (the compiler), dynamic shared
// memory, blocks per SM (the CUDA runtime's occupancy calculator).
void print_config_table(bool json, const std::string& gpu) {
  course::Table t({"#", "configuration", "threads", "regs", "local B", "smem KB", "blocks/SM",
                   "warps/SM", "FLOP/B"});
  const auto& configs = lesson10::mma_configs();
  for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
    const lesson10::MmaConfig& c = configs[i];
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, c.kernel));
    const int blocks = lesson10::config_blocks_per_sm(i);
    t.add_row({std::to_string(i), c.name, std::to_string(c.threads), std::to_string(attr.numRegs),
               std::to_string(attr.localSizeBytes), fixed(c.smem_bytes / 1024.0, 1),
               std::to_string(blocks), std::to_string(blocks * c.threads / 32),
               fixed(c.intensity, 1)});
    if (json) {
      course::measurement_line(course::this_lesson().id, "config")
          .add("kernel", c.name)
          .add("regs", attr.numRegs)
          .add("local_bytes", static_cast<long>(attr.localSizeBytes))
          .add("smem", static_cast<long>(c.smem_bytes))
          .add("blocks_per_sm", blocks)
          .add("gpu", gpu)
          .print();
    }
  }
  t.print();
}

}  // namespace

int main(int argc, char** argv) {
  course::Cli cli("lesson10",
                  "tensor cores: the fragments of mma.sync, the bank conflicts of its operands, "
                  "and WMMA then mma.sync + ldmatrix + cp.async against cuBLAS bf16");
  course::add_sgemm_options(cli);
  cli.flag("sweep", "also time every compiled configuration at the problem size (no checks)")
      .text("svg", "mma-fragments.svg", "where to write the picture of the fragments");
  cli.parse(argc, argv);
  return course::guarded_main(course::this_lesson(), [&] {
    const bool json = cli.on("json");
    // The CPU part: your mapping drawn, and the kernel's shared-memory accesses counted.
    const bool everything = !course::headline_only(cli);  // else `make grade`'s timing alone
    if (everything) {
      course::try_yours([&] {  // your fragment mapping
        const std::string picture = lesson10::fragment_svg();
        const std::filesystem::path svg = std::filesystem::absolute(cli.str("svg"));
        std::ofstream file(svg);
        file << picture;
        if (!file) throw std::runtime_error("could not write " + svg.string());
        std::printf("picture of the fragments of mma.sync.m16n8k16: %s\n\n", svg.string().c_str());
      });
      std::printf(
          "bank conflicts of one stage of the 128 x 128 x 64 tile (every warp of a block), by "
          "the layout of its tiles\n");
      course::try_yours([&] { print_conflict_table(json); });
    }

    const int device = course::require_device(course::this_lesson());
    const std::string gpu = course::probe_device(device).name;
    if (everything) {
      std::printf("\nthe compiled configurations on %s\n", gpu.c_str());
      print_config_table(json, gpu);
    }
    if (everything && cli.on("sweep")) {
      std::vector<std::string> names;
      for (const auto& c : lesson10::mma_configs()) names.push_back(c.name);
      course::sweep_configurations(
          cli, course::this_lesson(), names,
          [](int i, int M, int N, int K, const course::bf16* A, const course::bf16* B,
             course::bf16* C) { lesson10::config_gemm(i, M, N, K, 1.0f, A, B, 0.0f, C); });
    }

    //! [kernels]
    // WMMA, the ladder of the mma.sync kernel one change at a time (steps 1 to 3), and
    // mma_sync_gemm, which picks its tile for the problem's size.
    const auto& configs = lesson10::mma_configs();
    std::vector<course::NamedBf16Gemm> kernels = {
        {"wmma_gemm (64x64x32)", &lesson10::wmma_gemm, false, 64.0 * 64 / (64 + 64)}};
    for (int step = 1;; ++step) {
      int found = -1;
      for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
        if (configs[i].ladder_step == step) found = i;
      }
      if (found < 0) break;
      kernels.push_back({"step " + std::to_string(step) + ": " + configs[found].name,
                         [found](int M, int N, int K, float alpha, const course::bf16* A,
                                 const course::bf16* B, float beta, course::bf16* C) {
                           lesson10::config_gemm(found, M, N, K, alpha, A, B, beta, C);
                         },
                         false, configs[found].intensity});
    }
    kernels.push_back({"mma_sync_gemm", &lesson10::mma_sync_gemm, /*headline=*/true,
                       configs[lesson10::headline_config_index()].intensity});
    //! [kernels]
    return course::sgemm_exit_code(
        course::measure_bf16_kernels(cli, course::this_lesson(), kernels));
  });
}
