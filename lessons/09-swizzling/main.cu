// Lesson 09: swizzling. First, on the CPU, the bank conflicts of the final kernel's shared-memory
// accesses with its A tile plain, padded and swizzled (your counter, over the kernel's own
// addresses). Then what each compiled configuration gets from the GPU (registers, shared memory,
// blocks per SM). Then the ladder: lesson 06's tuned kernel, the padded and the swizzled kernel and
// the final one, each checked against Eigen and timed next to cuBLAS in the same process.
//
//   make lesson-9                       your exercise
//   make lesson-9 SOLUTION=1            the reference solution
//   make lesson-9 ARGS="--size 2048"    options: --size, --m/--n/--k, --reps, --warmup, --json
//   make lesson-9 ARGS="--sweep"        also time every compiled configuration (no checks)
#include "bank_conflicts.hpp"
#include "occupancy_sgemm.hpp"  // lesson 06's tuned kernel, from its reference solution
#include "swizzled_sgemm.hpp"

#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/device.hpp"
#include "common/gemm_driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/timing.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using course::fixed;
using lesson09::ALayout;

//! [conflict_table]
// The shared-memory traffic of one stage of the final kernel (one BK slice, every warp of a
// block), counted with bank_conflicts over the addresses the kernel's own index functions give.
void print_conflict_table(bool json) {
  course::Table t(
      {"A tile", "access", "instructions", "wavefronts", "conflicts", "extra per instruction"});
  for (ALayout layout : {ALayout::kPlain, ALayout::kPadded, ALayout::kSwizzled}) {
    for (const lesson09::SharedAccess& a : lesson09::final_kernel_shared_accesses(layout)) {
      long wavefronts = 0, conflicts = 0;
      for (const lesson09::WarpAddresses& w : a.warps) {
        const int c = lesson09::bank_conflicts(w, a.access_bytes);
        conflicts += c;
        wavefronts += a.access_bytes / lesson09::kBankBytes + c;
      }
      const double per = static_cast<double>(conflicts) / static_cast<double>(a.warps.size());
      t.add_row({lesson09::layout_name(layout), a.what, std::to_string(a.warps.size()),
                 std::to_string(wavefronts), std::to_string(conflicts), fixed(per, 2)});
      if (json) {
        course::measurement_line(course::this_lesson().id, "bank_conflicts")
            .add("layout", lesson09::layout_name(layout))
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

// What each compiled configuration gets: registers (the compiler), dynamic shared memory, blocks
// per SM (the CUDA runtime's occupancy calculator).
void print_config_table(bool json, const std::string& gpu) {
  course::Table t(
      {"#", "configuration", "threads", "regs", "smem KB", "blocks/SM", "warps/SM", "FLOP/B"});
  const auto& configs = lesson09::sgemm_configs();
  for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
    const lesson09::SgemmConfig& c = configs[i];
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, c.kernel));
    const int blocks = lesson09::config_blocks_per_sm(i);
    t.add_row({std::to_string(i), c.name, std::to_string(c.threads), std::to_string(attr.numRegs),
               fixed(c.smem_bytes / 1024.0, 1), std::to_string(blocks),
               std::to_string(blocks * c.threads / 32), fixed(c.intensity, 1)});
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
  course::Cli cli("lesson09",
                  "swizzling: bank conflicts of the final kernel's tiles, its configurations, and "
                  "the end of the FP32 ladder against cuBLAS");
  course::add_sgemm_options(cli);
  cli.flag("sweep", "also time every compiled configuration at the problem size (no checks)");
  cli.parse(argc, argv);
  return course::guarded_main(course::this_lesson(), [&] {
    const int device = course::require_device(course::this_lesson());
    const bool json = cli.on("json");
    const std::string gpu = course::probe_device(device).name;

    if (!course::headline_only(cli)) {  // `make grade`'s timing runs the headline kernel alone
      std::printf(
          "bank conflicts of one stage of the final kernel (every warp of a block), by the "
          "layout of its A tile\n");
      course::try_yours([&] { print_conflict_table(json); });  // your bank_conflicts
      std::printf("\nthe compiled configurations on %s\n", gpu.c_str());
      print_config_table(json, gpu);
      if (cli.on("sweep")) {
        std::vector<std::string> names;
        for (const auto& c : lesson09::sgemm_configs()) names.push_back(c.name);
        course::sweep_configurations(
            cli, course::this_lesson(), names,
            [](int i, int M, int N, int K, const float* A, const float* B, float* C) {
              lesson09::config_sgemm(i, M, N, K, 1.0f, A, B, 0.0f, C);
            });
      }
    }

    //! [kernels]
    // Lesson 06's kernel for reference, the ladder one change at a time (steps 1 to 4), the
    // final tile padded (step 5) and swizzled (step 6), and final_sgemm, which picks its tile for
    // the problem's size.
    const auto& configs = lesson09::sgemm_configs();
    const double intensity = configs[lesson09::final_config_index(ALayout::kSwizzled)].intensity;
    std::vector<course::NamedSgemm> kernels = {
        {"tuned_tiled_sgemm (lesson 06)", &lesson06::tuned_tiled_sgemm, false}};
    for (int step = 1; step <= 4; ++step) {
      for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
        if (configs[i].ladder_step != step) continue;
        kernels.push_back(
            {"step " + std::to_string(step) + ": " + configs[i].name,
             [i](int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                 float* C) { lesson09::config_sgemm(i, M, N, K, alpha, A, B, beta, C); },
             false, configs[i].intensity});
      }
    }
    kernels.push_back({"step 5: padded_sgemm", &lesson09::padded_sgemm, false, intensity});
    kernels.push_back({"step 6: swizzled_sgemm", &lesson09::swizzled_sgemm, false, intensity});
    kernels.push_back({"final_sgemm", &lesson09::final_sgemm, /*headline=*/true, intensity});
    //! [kernels]
    return course::sgemm_exit_code(
        course::measure_sgemm_kernels(cli, course::this_lesson(), kernels));
  });
}
