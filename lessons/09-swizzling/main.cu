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
#include "swizzled_sgemm.hpp"

#include "lessons/06-occupancy/occupancy_sgemm.hpp"  // lesson 06's tuned kernel (its solution)

#include "common/gemm_driver.hpp"
#include "common/report.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  course::GemmLesson<course::Fp32> lesson(course::this_lesson(),
                                          "swizzling: bank conflicts of the final kernel's tiles, "
                                          "its configurations, and the end of the FP32 ladder "
                                          "against cuBLAS");
  lesson.options = course::add_sweep_option;
  lesson.gpu_part = [](course::LessonRun& run) {
    std::printf(
        "bank conflicts of one stage of the final kernel (every warp of a block), by the layout "
        "of its A tile\n");
    course::try_yours([&] { print_conflict_table(run.json); });  // your bank_conflicts
    // What each compiled configuration gets: registers (the compiler), dynamic shared memory,
    // blocks per SM (the CUDA runtime's occupancy calculator).
    course::print_config_table(run, lesson09::sgemm_configs(), /*local_bytes=*/false);
    if (run.cli.on("sweep")) course::sweep_variants(run, lesson09::sgemm_configs());
  };
  lesson.kernels = [](course::LessonRun&) {
    //! [kernels]
    // Lesson 06's kernel for reference, the ladder one change at a time (steps 1 to 4), the
    // final tile padded (step 5) and swizzled (step 6), and final_sgemm, which picks its tile for
    // the problem's size.
    const auto& configs = lesson09::sgemm_configs();
    const double intensity = configs[lesson09::final_config_index(ALayout::kSwizzled)].intensity;
    std::vector<course::NamedGemm<course::Fp32>> kernels = {
        {"tuned_tiled_sgemm (lesson 06)", &lesson06::tuned_tiled_sgemm, false}};
    for (const auto& k : course::ladder_kernels(configs, 1, 4)) kernels.push_back(k);
    kernels.push_back({"step 5: padded_sgemm", &lesson09::padded_sgemm, false, intensity});
    kernels.push_back({"step 6: swizzled_sgemm", &lesson09::swizzled_sgemm, false, intensity});
    kernels.push_back({"final_sgemm", &lesson09::final_sgemm, /*headline=*/true, intensity});
    //! [kernels]
    return kernels;
  };
  return lesson.run(argc, argv);
}
