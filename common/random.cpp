#include "common/random.hpp"

#include <cstdio>
#include <cstdlib>
#include <random>

namespace course {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

bool g_have_seed = false;
std::uint64_t g_seed = 0;

void announce(std::uint64_t seed) {
  std::printf("seed: %llu (COURSE_SEED=%llu repeats this run)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  std::fflush(stdout);
}

}  // namespace

std::uint64_t run_seed() {
  if (!g_have_seed) {
    const char* env = std::getenv("COURSE_SEED");
    char* end = nullptr;
    if (env != nullptr && *env != '\0') {
      g_seed = std::strtoull(env, &end, 10);
      if (end == nullptr || *end != '\0') {
        std::fprintf(stderr, "COURSE_SEED=%s is not a whole number; drawing a fresh seed\n", env);
        env = nullptr;
      }
    }
    if (env == nullptr || *env == '\0') g_seed = std::random_device{}() % 1000000007ull;
    g_have_seed = true;
    announce(g_seed);
  }
  return g_seed;
}

void set_run_seed(std::uint64_t seed) {
  g_seed = seed;
  g_have_seed = true;
  announce(seed);
}

std::uint64_t derive_seed(const std::string& label) {
  std::uint64_t h = run_seed() ^ 0x6A09E667F3BCC909ull;
  for (unsigned char c : label) {  // FNV-1a over the label, then one SplitMix64 round
    h ^= c;
    h *= 0x100000001B3ull;
  }
  return splitmix64(h);
}

void fill_uniform(float* data, std::size_t n, std::uint64_t seed, float lo, float hi) {
  std::uint64_t state = seed;
  const float scale = (hi - lo) / 16777216.0f;  // 24 random bits: exact in a float
  for (std::size_t i = 0; i < n; ++i) {
    data[i] = lo + static_cast<float>(splitmix64(state) >> 40) * scale;
  }
}

template <>
std::vector<float> random_matrix<float>(int rows, int cols, std::uint64_t seed) {
  std::vector<float> m(static_cast<std::size_t>(rows) * cols);
  fill_uniform(m.data(), m.size(), seed);
  return m;
}

template <>
std::vector<__nv_bfloat16> random_matrix<__nv_bfloat16>(int rows, int cols, std::uint64_t seed) {
  std::vector<float> f = random_matrix<float>(rows, cols, seed);
  std::vector<__nv_bfloat16> m(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) m[i] = __float2bfloat16(f[i]);
  return m;
}

}  // namespace course
