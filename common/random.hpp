/// \file random.hpp
/// \brief Seeded random inputs: reproducible, printed, overridable, never constant.
///
/// One *run seed* per program: taken from the environment variable COURSE_SEED when it is set,
/// otherwise drawn fresh, and printed once ("seed: 1234 (COURSE_SEED=1234 repeats this run)").
/// Each matrix gets its own stream, derived from the run seed and a label, so two tests never
/// share inputs and a failure can be replayed exactly. The generator is a fixed algorithm
/// (SplitMix64), so the same seed gives the same numbers with any compiler or standard library.
#pragma once

#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace course {

/// The run seed (COURSE_SEED, or fresh), printed to stdout the first time it is asked for.
std::uint64_t run_seed();

/// Overrides the run seed (a lesson's `--seed` flag); prints it like run_seed() does.
void set_run_seed(std::uint64_t seed);

/// A seed for one named input of this run: mixes the run seed with `label` (e.g. "A 257x300").
std::uint64_t derive_seed(const std::string& label);

/// Fills `n` floats with independent uniform values in [lo, hi) from `seed`.
void fill_uniform(float* data, std::size_t n, std::uint64_t seed, float lo = -1.0f,
                  float hi = 1.0f);

/// `rows x cols` uniform values in [-1, 1), row-major, from `seed`, as `T`: float (the default)
/// or `__nv_bfloat16` (the same values rounded to bf16: what a bf16 GEMM really multiplies).
template <typename T = float>
std::vector<T> random_matrix(int rows, int cols, std::uint64_t seed);

/// random_matrix in FP32.
template <>
std::vector<float> random_matrix<float>(int rows, int cols, std::uint64_t seed);
/// random_matrix in bf16: the FP32 values, rounded.
template <>
std::vector<__nv_bfloat16> random_matrix<__nv_bfloat16>(int rows, int cols, std::uint64_t seed);

}  // namespace course
