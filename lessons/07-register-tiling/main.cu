// Lesson 07: register tiling. For each kernel of the ladder so far, what the compiler gave a
// thread (registers, local memory) and what that means for occupancy (lesson 06's calculator);
// then every kernel checked against Eigen and timed next to cuBLAS SGEMM in the same process:
// lesson 06's tuned tiled kernel, then the 1D thread tile, the 2D thread tile and the 2D thread
// tile with 128-bit loads (the headline).
//
//   make lesson-7                       your exercise
//   make lesson-7 SOLUTION=1            the reference solution
//   make lesson-7 ARGS="--size 2048"    options: --size, --m/--n/--k, --reps, --warmup, --json
#include "register_tiling.hpp"

#include "lessons/06-occupancy/occupancy.hpp"        // lesson 06's occupancy calculator
#include "lessons/06-occupancy/occupancy_sgemm.hpp"  // lesson 06's tuned kernel, the previous rung

#include "common/gemm_driver.hpp"
#include "common/report.hpp"
#include "common/variants.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

// One kernel of the ladder: how its block divides the work, and its __global__ function.
struct Rung {
  std::string name;
  const void* kernel;
  int bm, bn, tm, tn;  // the block's tile of C, and the thread's
  int threads;         // threads per block
  // FLOP per byte the block loads from global memory: 2 * BM * BN * BK FLOP for every
  // 4 * (BM + BN) * BK bytes of A and B.
  double intensity() const { return static_cast<double>(bm) * bn / (2.0 * (bm + bn)); }
};

//! [register_report]
// What the compiler gave each kernel and what fits on an SM: registers decide occupancy here.
void print_register_report(int device, const std::vector<Rung>& rungs, bool json) {
  const lesson06::SmLimits sm = lesson06::query_sm_limits(device);
  course::Table t({"kernel", "block tile", "thread tile", "threads", "regs", "local B", "smem B",
                   "blocks/SM", "warps/SM", "limit", "FLOP/B"});
  for (const Rung& r : rungs) {
    const course::KernelAttributes attr =
        course::kernel_attributes(r.kernel);  // local > 0: spilled
    const lesson06::KernelUsage u = lesson06::kernel_usage(r.kernel, r.threads, 0);
    const lesson06::Occupancy o = lesson06::occupancy(sm, u);
    t.add_row({r.name, std::to_string(r.bm) + "x" + std::to_string(r.bn),
               std::to_string(r.tm) + "x" + std::to_string(r.tn), std::to_string(r.threads),
               std::to_string(u.regs_per_thread), std::to_string(attr.local_bytes),
               std::to_string(u.static_smem_bytes), std::to_string(o.blocks_per_sm),
               std::to_string(o.active_warps), lesson06::limit_name(o.limit),
               course::fixed(r.intensity(), 1)});
    if (json) {
      course::measurement_line(course::this_lesson().id, "registers")
          .add("kernel", r.name)
          .add("threads", r.threads)
          .add("regs", u.regs_per_thread)
          .add("local_bytes", static_cast<long>(attr.local_bytes))
          .add("blocks_per_sm", o.blocks_per_sm)
          .add("warps_per_sm", o.active_warps)
          .add("limit", lesson06::limit_name(o.limit))
          .add("gpu", sm.name)
          .print();
    }
  }
  std::printf("what each thread holds, and what fits on one SM (%s, %d registers per SM)\n",
              sm.name.c_str(), sm.regs_per_sm);
  t.print();
}
//! [register_report]

// The ladder at this problem size: lesson 06's planner picks its configuration for the shape, and
// that one is shown.
std::vector<Rung> rungs_for(const course::GemmShape& s) {
  const lesson06::TunedPlan plan = lesson06::plan_tuned_sgemm(s.M, s.N);
  const lesson06::TunedConfig& tuned = lesson06::tuned_configs()[plan.chosen];
  //! [rungs]
  std::vector<Rung> rungs = {{"tuned_tiled_sgemm (lesson 06)", tuned.kernel, tuned.tile_m,
                              tuned.tile_n, tuned.rows_per_thread, 1, tuned.threads}};
  for (const lesson07::TilingKernel& k : lesson07::register_tiling_kernels()) {
    rungs.push_back({k.name, k.kernel, k.bm, k.bn, k.tm, k.tn, k.threads});
  }
  return rungs;
  //! [rungs]
}

}  // namespace

int main(int argc, char** argv) {
  course::GemmLesson<course::Fp32> lesson(
      course::this_lesson(),
      "register tiling: 1D and 2D thread tiles and 128-bit loads, their registers and occupancy, "
      "against cuBLAS (and lesson 06's tuned tiled kernel)");
  lesson.gpu_part = [](course::LessonRun& run) {
    print_register_report(run.device.index, rungs_for(run.shape), run.json);
  };
  lesson.kernels = [](course::LessonRun& run) {
    const std::vector<Rung> rungs = rungs_for(run.shape);
    //! [kernels]
    const std::vector<lesson07::TilingKernel>& mine = lesson07::register_tiling_kernels();
    return std::vector<course::NamedGemm<course::Fp32>>{
        {rungs[0].name, &lesson06::tuned_tiled_sgemm, false, rungs[0].intensity()},
        {mine[0].name, mine[0].run, false, mine[0].intensity},
        {mine[1].name, mine[1].run, false, mine[1].intensity},
        {mine[2].name, mine[2].run, /*headline=*/true, mine[2].intensity},
    };
    //! [kernels]
  };
  return lesson.run(argc, argv);
}
