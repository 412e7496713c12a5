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

#include "lessons/09-swizzling/bank_conflicts.hpp"  // lesson 09's counter (its reference solution)

#include "common/gemm_driver.hpp"
#include "common/report.hpp"

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

// The CPU part: your mapping drawn, and the kernel's shared-memory accesses counted.
void fragments_and_conflicts(course::LessonRun& run) {
  course::try_yours([&] {  // your fragment mapping
    const std::string picture = lesson10::fragment_svg();
    const std::filesystem::path svg = std::filesystem::absolute(run.cli.str("svg"));
    std::ofstream file(svg);
    file << picture;
    if (!file) throw std::runtime_error("could not write " + svg.string());
    std::printf("picture of the fragments of mma.sync.m16n8k16: %s\n\n", svg.string().c_str());
  });
  std::printf(
      "bank conflicts of one stage of the 128 x 128 x 64 tile (every warp of a block), by the "
      "layout of its tiles\n");
  course::try_yours([&] { print_conflict_table(run.json); });
}

}  // namespace

int main(int argc, char** argv) {
  course::GemmLesson<course::Bf16> lesson(course::this_lesson(),
                                          "tensor cores: the fragments of mma.sync, the bank "
                                          "conflicts of its operands, and WMMA then mma.sync + "
                                          "ldmatrix + cp.async against cuBLAS bf16");
  lesson.options = [](course::Cli& cli) {
    course::add_sweep_option(cli);
    cli.text("svg", "mma-fragments.svg", "where to write the picture of the fragments");
  };
  lesson.cpu_part = fragments_and_conflicts;
  lesson.gpu_part = [](course::LessonRun& run) {
    // What each compiled configuration gets: registers and local memory (the compiler), dynamic
    // shared memory, blocks per SM (the CUDA runtime's occupancy calculator).
    course::print_config_table(run, lesson10::mma_configs());
    if (run.cli.on("sweep")) course::sweep_variants(run, lesson10::mma_configs());
  };
  lesson.kernels = [](course::LessonRun&) {
    //! [kernels]
    // WMMA, the ladder of the mma.sync kernel one change at a time (steps 1 to 4), and
    // mma_sync_gemm, which picks its tile for the problem's size.
    const auto& configs = lesson10::mma_configs();
    const auto& wmma = lesson10::wmma_variant();
    std::vector<course::NamedGemm<course::Bf16>> kernels = {
        {wmma.name, wmma.run, false, wmma.intensity}};
    for (const auto& k : course::ladder_kernels(configs)) kernels.push_back(k);
    kernels.push_back({"mma_sync_gemm", &lesson10::mma_sync_gemm, /*headline=*/true,
                       configs[lesson10::headline_config_index()].intensity});
    //! [kernels]
    return kernels;
  };
  return lesson.run(argc, argv);
}
