// Tests of the reference GPUs' table (common/reference_gpus.hpp) and of the check that a variant
// fits a GPU (common/fit.hpp): on the CPU against the published limits, on a GPU against what the
// driver reports.
#include "catch_compat.hpp"

#include "common/device.hpp"
#include "common/fit.hpp"
#include "common/reference_gpus.hpp"
#include "common/variants.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kKiB = 1024;

const course::DeviceLimits& gpu(const std::string& label) {
  return course::reference_gpu(label).limits;
}

// A variant described by hand: `threads` per block, `dynamic` bytes of dynamic shared memory.
course::VariantInfo variant(const std::string& name, int threads, std::size_t dynamic,
                            int min_blocks = 0) {
  course::VariantInfo v;
  v.name = name;
  v.threads = threads;
  v.smem_bytes = dynamic;
  v.min_blocks = min_blocks;
  return v;
}

}  // namespace

TEST_CASE("the reference GPUs: the published limits", "[cpu][fit]") {
  const std::vector<std::string> labels = {"T4",          "A100 SXM4 40GB", "RTX 3090", "RTX 4090",
                                           "RTX 5070 Ti", "H100 SXM5",      "H200 SXM"};
  REQUIRE(course::reference_gpus().size() == labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    CHECK(course::reference_gpus()[i].label == labels[i]);
  }
  struct Row {
    const char* label;
    int cc, sms, threads_per_sm, blocks_per_sm;
    std::size_t smem_per_sm_kib, optin_kib, reserved_kib;
  };
  const Row rows[] = {
      {"T4", 75, 40, 1024, 16, 64, 64, 0},
      {"A100 SXM4 40GB", 80, 108, 2048, 32, 164, 163, 1},
      {"RTX 3090", 86, 82, 1536, 16, 100, 99, 1},
      {"RTX 4090", 89, 128, 1536, 24, 100, 99, 1},
      {"RTX 5070 Ti", 120, 70, 1536, 32, 100, 99, 1},
      {"H100 SXM5", 90, 132, 2048, 32, 228, 227, 1},
      {"H200 SXM", 90, 132, 2048, 32, 228, 227, 1},
  };
  for (const Row& r : rows) {
    const course::DeviceLimits l = gpu(r.label);
    INFO(r.label);
    CHECK(l.cc() == r.cc);
    CHECK(l.sm_count == r.sms);
    CHECK(l.max_threads_per_sm == r.threads_per_sm);
    CHECK(l.max_blocks_per_sm == r.blocks_per_sm);
    CHECK(l.smem_per_sm_bytes == r.smem_per_sm_kib * kKiB);
    CHECK(l.smem_per_block_optin_bytes == r.optin_kib * kKiB);
    CHECK(l.smem_reserved_per_block_bytes == r.reserved_kib * kKiB);
    CHECK(l.smem_per_block_bytes == 48 * kKiB);
    CHECK(l.max_threads_per_block == 1024);
    CHECK(l.warp_size == 32);
    CHECK(l.regs_per_sm == 65536);
    CHECK(l.regs_per_block == 65536);
    CHECK(l.max_regs_per_thread == 255);
  }
  CHECK(course::limits_for_compute_capability(86).sm_count == 0);
  CHECK_THROWS_AS(course::limits_for_compute_capability(70), std::invalid_argument);
  CHECK_THROWS_AS(course::limits_for_compute_capability(100), std::invalid_argument);
  CHECK_THROWS_AS(course::reference_gpu("GTX 1080"), std::invalid_argument);
}

TEST_CASE("launch_bounds_registers: what __launch_bounds__ leaves a thread", "[cpu][fit]") {
  CHECK(course::launch_bounds_registers(256, 2) == 128);
  CHECK(course::launch_bounds_registers(1024, 2) == 32);
  CHECK(course::launch_bounds_registers(256, 1) == 255);
  CHECK(course::launch_bounds_registers(256, 0) == 255);
  CHECK(course::launch_bounds_registers(1024, 0) == 64);
  CHECK(course::launch_bounds_registers(384, 1) == 168);  // lesson 11's warp-specialized blocks
  CHECK(course::launch_bounds_registers(0, 1) == 0);
}

TEST_CASE("fits: shared memory per block, with the opt-in and the reserve", "[cpu][fit]") {
  const course::VariantInfo big = variant("128x256x32 s3", 256, 144 * kKiB, 1);
  const course::Fit on_4090 = course::fits(big, gpu("RTX 4090"));
  CHECK_FALSE(on_4090.ok);
  CHECK(on_4090.why == "needs 144 KiB of shared memory per block; this GPU gives 99 KiB");
  CHECK(course::fits(big, gpu("A100 SXM4 40GB")).ok);
  CHECK(course::fits(big, gpu("H100 SXM5")).ok);
  const course::Fit on_t4 = course::fits(variant("72 KiB", 256, 72 * kKiB), gpu("T4"));
  CHECK(on_t4.why == "needs 72 KiB of shared memory per block; this GPU gives 64 KiB");
  // 99 KiB and the 1 KiB reserve fill a 100 KiB SM exactly; static and dynamic count together.
  CHECK(course::fits(variant("99 KiB", 128, 99 * kKiB), gpu("RTX 3090")).ok);
  course::VariantInfo both = variant("static + dynamic", 128, 64 * kKiB);
  both.static_smem_bytes = 40 * kKiB;
  CHECK(course::fits(both, gpu("RTX 3090")).why ==
        "needs 104 KiB of shared memory per block; this GPU gives 99 KiB");
  CHECK(course::kib_string(49664) == "48.5 KiB");
}

TEST_CASE("fits: threads, the __launch_bounds__ promise, registers", "[cpu][fit]") {
  CHECK(course::fits(variant("1024", 1024, 0), gpu("T4")).ok);
  CHECK(course::fits(variant("2048", 2048, 0), gpu("H100 SXM5")).why ==
        "has 2048 threads per block; this GPU allows 1024");
  // Two blocks of 1024 threads: an H100's SM holds them, an RTX 3090's (1536 threads) does not.
  const course::VariantInfo two = variant("1024 x 2", 1024, 0, 2);
  CHECK(course::fits(two, gpu("H100 SXM5")).ok);
  const course::Fit on_3090 = course::fits(two, gpu("RTX 3090"));
  CHECK_FALSE(on_3090.ok);
  CHECK(on_3090.why.find("asks the compiler for 2 blocks of 1024 threads per SM") !=
        std::string::npos);
  // A kernel that lowers its promise to what an SM holds fits (lesson 06's fit_min_blocks).
  course::VariantInfo lowered = two;
  lowered.min_blocks_fit_sm = true;
  CHECK(course::promised_blocks(lowered, gpu("RTX 3090")) == 1);
  CHECK(course::promised_blocks(lowered, gpu("H100 SXM5")) == 2);
  CHECK(course::fits(lowered, gpu("RTX 3090")).ok);
  // The compiler's registers, where known: 1024 threads x 72 registers exceed 65536.
  course::KernelAttributes compiled;
  compiled.regs = 72;
  compiled.max_threads_per_block = 1024;
  CHECK(course::fits(variant("1024", 1024, 0), gpu("H100 SXM5"), &compiled).why ==
        "needs 73728 registers per block (72 a thread); this GPU gives 65536");
  compiled.regs = 64;
  CHECK(course::fits(variant("1024", 1024, 0), gpu("H100 SXM5"), &compiled).ok);
  // The compiled kernel's own limit on threads (its __launch_bounds__).
  compiled.max_threads_per_block = 256;
  CHECK(course::fits(variant("512", 512, 0), gpu("H100 SXM5"), &compiled).why ==
        "has 512 threads per block; its kernel was compiled for at most 256");
}

TEST_CASE("fits: the compute capability a variant needs", "[cpu][fit]") {
  course::VariantInfo tensor = variant("mma.sync", 128, 32 * kKiB);
  tensor.min_cc = 80;
  tensor.cc_why = "bf16 tensor cores";
  CHECK(course::fits(tensor, gpu("T4")).why ==
        "needs compute capability 8.0 (bf16 tensor cores); this GPU has 7.5");
  CHECK(course::fits(tensor, gpu("RTX 5070 Ti")).ok);
  course::VariantInfo hopper = variant("wgmma", 384, 200 * kKiB, 1);
  hopper.min_cc = hopper.max_cc = 90;
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    INFO(g.label);
    const course::Fit f = course::fits(hopper, g.limits);
    CHECK(f.ok == (g.limits.cc() == 90));
    if (!f) CHECK(f.why.rfind("needs compute capability 9.0; this GPU has ", 0) == 0);
  }
  // Not described (no threads): the compute capability alone.
  course::VariantInfo undescribed;
  undescribed.min_cc = 90;
  CHECK(course::fits(undescribed, gpu("H100 SXM5")).ok);
  CHECK_FALSE(course::fits(undescribed, gpu("RTX 4090")).ok);
}

TEST_CASE("resident_blocks and choose_fitting: the blocks a variant was tuned for", "[cpu][fit]") {
  // 128 threads and 96 KiB, tuned for two blocks an SM: an H100 holds two, an A100 and the
  // consumer GPUs one.
  const std::vector<course::VariantInfo> table = {
      variant("144 KiB", 256, 144 * kKiB, 1),
      variant("96 KiB x 2", 128, 96 * kKiB, 2),
      variant("48 KiB x 2", 128, 48 * kKiB, 2),
  };
  CHECK(course::resident_blocks(table[1], gpu("H100 SXM5")) == 2);
  CHECK(course::resident_blocks(table[1], gpu("A100 SXM4 40GB")) == 1);
  CHECK(course::resident_blocks(table[1], gpu("RTX 4090")) == 1);
  CHECK(course::resident_blocks(table[2], gpu("RTX 4090")) == 2);
  CHECK(course::resident_blocks(table[0], gpu("RTX 4090")) == 0);
  CHECK(course::choose_fitting(table, {1, 2}, gpu("H100 SXM5")) == 1);
  CHECK(course::choose_fitting(table, {1, 2}, gpu("RTX 4090")) == 2);
  CHECK(course::choose_fitting(table, {0, 1, 2}, gpu("H100 SXM5")) == 0);
  INFO("none holds its blocks: the first that fits at all");
  CHECK(course::choose_fitting(table, {0, 1}, gpu("RTX 4090")) == 1);
  CHECK(course::choose_fitting(table, {0}, gpu("RTX 4090")) == -1);
  CHECK(course::why_none_fits(table, {0}, gpu("RTX 4090")) ==
        "needs 144 KiB of shared memory per block; this GPU gives 99 KiB");
  std::vector<course::VariantInfo> hopper = {variant("a", 128, 0), variant("b", 384, 0)};
  for (course::VariantInfo& v : hopper) v.min_cc = v.max_cc = 90;
  CHECK(course::why_none_fits(hopper, {0, 1}, gpu("T4")) ==
        "needs compute capability 9.0; this GPU has 7.5");
  hopper.push_back(variant("c", 2048, 0));
  CHECK(course::why_none_fits(hopper, {0, 2}, gpu("T4")) ==
        "a: needs compute capability 9.0; this GPU has 7.5; c: has 2048 threads per block; this "
        "GPU allows 1024");
}

TEST_CASE("the table of the GPU's compute capability agrees with its driver", "[gpu][fit]") {
  const course::DeviceInfo& here = course::current_device_info();
  REQUIRE(here.present);
  course::DeviceLimits table;
  try {
    table = course::limits_for_compute_capability(here.cc());
  } catch (const std::invalid_argument&) {
    WARN("compute capability " << course::cc_string(here.cc()) << " (" << here.name
                               << ") is not in the table: nothing to compare");
    return;
  }
  const course::DeviceLimits& d = here.limits;
  INFO(here.name);
  CHECK(table.warp_size == d.warp_size);
  CHECK(table.max_threads_per_sm == d.max_threads_per_sm);
  CHECK(table.max_threads_per_block == d.max_threads_per_block);
  CHECK(table.max_blocks_per_sm == d.max_blocks_per_sm);
  CHECK(table.regs_per_sm == d.regs_per_sm);
  CHECK(table.regs_per_block == d.regs_per_block);
  CHECK(table.smem_per_sm_bytes == d.smem_per_sm_bytes);
  CHECK(table.smem_per_block_bytes == d.smem_per_block_bytes);
  CHECK(table.smem_per_block_optin_bytes == d.smem_per_block_optin_bytes);
  CHECK(table.smem_reserved_per_block_bytes == d.smem_reserved_per_block_bytes);
  for (const course::ReferenceGpu& g : course::reference_gpus()) {
    if (g.name != here.name) continue;
    INFO("the reference GPU " << g.label);
    CHECK(g.limits.sm_count == d.sm_count);
  }
}
