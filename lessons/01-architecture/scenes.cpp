/// \file scenes.cpp
/// \brief Lesson 01's pictures (given code, compiled with each library): the hierarchy and the
/// roofline of a GPU, drawn from its DeviceSpec and from the summary your summarize() makes of it.
#include "lessons/01-architecture/figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace lesson01 {

namespace {

namespace svg = course::svg;

constexpr double kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

/// Bytes in the binary units the driver uses: "256 KiB", "50 MiB", "80 GiB".
std::string bytes_str(double b) {
  if (b >= kGiB) return figure_number(b / kGiB) + " GiB";
  if (b >= kMiB) return figure_number(b / kMiB) + " MiB";
  return figure_number(b / kKiB) + " KiB";
}

/// A bandwidth given in 10^9 B/s: "3352 GB/s", "33.4 TB/s".
std::string bandwidth_str(double gbs) {
  return gbs >= 10000 ? figure_number(gbs / 1000) + " TB/s" : figure_number(gbs) + " GB/s";
}

/// An intensity as a power of two reads: 1/16, 1/4, 1, 4, ...
std::string power_of_two_str(int e) {
  return e >= 0 ? std::to_string(1L << e) : "1/" + std::to_string(1L << -e);
}

/// Where a value falls on a log axis from `lo` to `hi` drawn from `p0` to `p1` pixels.
double log_at(double v, double lo, double hi, double p0, double p1) {
  return p0 + (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) * (p1 - p0);
}

}  // namespace

std::string figure_number(double v) {
  char buf[32];
  const double a = std::fabs(v);
  const int digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : 4;
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::vector<MemoryLevel> memory_levels(const DeviceSpec& spec, const DeviceSummary& summary) {
  const double sms = spec.sm_count, clock_hz = spec.sm_clock_khz * 1e3;
  std::vector<MemoryLevel> levels;
  MemoryLevel regs{"registers",
                   "one thread",
                   spec.regs_per_sm * kRegisterBytes * sms,
                   spec.regs_per_sm * kRegisterBytes,
                   summary.fp32_lanes_total * kFmaOperands * kRegisterBytes * clock_hz / 1e9,
                   "3 operands of 4 B to each lane a clock"};
  MemoryLevel smem{"shared memory / L1",
                   "a block / the SM",
                   static_cast<double>(spec.smem_per_sm_bytes) * sms,
                   static_cast<double>(spec.smem_per_sm_bytes),
                   kL1BytesPerClockPerSm * sms * clock_hz / 1e9,
                   "128 B a clock per SM (32 banks)"};
  MemoryLevel l2{"L2 cache", "all SMs", static_cast<double>(spec.l2_bytes),
                 0,          0,         "bandwidth not reported by the driver"};
  MemoryLevel dram{"device memory",
                   "all SMs and the host",
                   static_cast<double>(spec.global_mem_bytes),
                   0,
                   summary.peak_bandwidth_gbs,
                   "the peak of summarize()"};
  levels.push_back(regs);
  levels.push_back(smem);
  levels.push_back(l2);
  levels.push_back(dram);
  return levels;
}

std::vector<KernelIntensity> chapter_kernels(int n) {
  const double nn = n;
  return {
      {"vector add", 1, 3 * 4},
      {"naive SGEMM (lesson 03)", 2, 2 * 4},
      {"SGEMM, each byte once (N = " + std::to_string(n) + ")", 2 * nn * nn * nn, 3 * 4 * nn * nn}};
}

svg::Scene roofline_scene(const std::string& device, const DeviceSummary& summary,
                          const std::vector<Roof>& extra, const std::vector<RoofPoint>& points) {
  const double peak = summary.peak_fp32_tflops, ridge = summary.ridge_flop_per_byte;
  if (!(peak > 0) || !(summary.peak_bandwidth_gbs > 0) || !(ridge > 0)) {
    throw std::invalid_argument("the summary of " + device +
                                " has no FP32 peak, bandwidth or ridge point to draw");
  }
  std::vector<Roof> roofs{{"device memory", summary.peak_bandwidth_gbs}};
  roofs.insert(roofs.end(), extra.begin(), extra.end());
  auto reach = [&](const RoofPoint& p) {  // TFLOP/s the point's roof allows
    return std::min(peak,
                    p.intensity * roofs.at(static_cast<std::size_t>(p.roof)).bandwidth_gbs / 1000);
  };

  // The axes: powers of two of FLOP/byte around the points and the ridge, powers of ten of
  // TFLOP/s from where the lowest roof enters to above the peak.
  double lo_i = ridge, hi_i = ridge;
  for (const RoofPoint& p : points)
    lo_i = std::min(lo_i, p.intensity), hi_i = std::max(hi_i, p.intensity);
  const int e_lo = static_cast<int>(std::floor(std::log2(lo_i / 2)));
  const int e_hi = static_cast<int>(std::ceil(std::log2(hi_i * 2)));
  const double x_lo = std::ldexp(1.0, e_lo), x_hi = std::ldexp(1.0, e_hi);
  double low_roof = summary.peak_bandwidth_gbs;
  for (const Roof& r : roofs) low_roof = std::min(low_roof, r.bandwidth_gbs);
  const double y_lo = std::pow(10, std::floor(std::log10(x_lo * low_roof / 1000)));
  const double y_hi = std::pow(10, std::ceil(std::log10(peak * 1.2)));
  constexpr double kL = 92, kT = 78, kW = 600, kH = 340;
  auto X = [&](double i) { return log_at(i, x_lo, x_hi, kL, kL + kW); };
  auto Y = [&](double t) { return log_at(t, y_lo, y_hi, kT + kH, kT); };

  const std::string head = device + ": " + figure_number(peak) + " TFLOP/s, " +
                           bandwidth_str(summary.peak_bandwidth_gbs) + ", ridge point " +
                           figure_number(ridge) + " FLOP/byte";
  std::string desc =
      "A roofline on log scales, arithmetic intensity in FLOP per byte across and "
      "TFLOP/s up. " +
      head + ". ";
  for (const RoofPoint& p : points) {
    desc += p.label + ": " + figure_number(p.intensity) + " FLOP/byte, at most " +
            figure_number(reach(p)) + " TFLOP/s. ";
  }
  svg::Scene s("The roofline of the " + device, desc);
  s.text(12, 24, head, {15, svg::Anchor::kStart, true});
  s.text(12, 44,
         "attainable = min(peak FP32, intensity x bandwidth): a kernel sits on or under its roof",
         {12, svg::Anchor::kStart});

  // Grid lines and tick labels.
  for (int e = e_lo; e <= e_hi; ++e) {
    const double x = X(std::ldexp(1.0, e));
    s.line(x, kT, x, kT + kH, "#e6e6e6", 1);
    if (e % 2 == 0) {
      s.text(x, kT + kH + 16, power_of_two_str(e), {11, svg::Anchor::kMiddle, false, svg::kFaint});
    }
  }
  for (double t = y_lo; t <= y_hi * 1.001; t *= 10) {
    const double y = Y(t);
    s.line(kL, y, kL + kW, y, "#e6e6e6", 1);
    char tick[16];
    std::snprintf(tick, sizeof tick, "%g", t);
    s.text(kL - 6, y + 4, tick, {11, svg::Anchor::kEnd, false, svg::kFaint});
  }
  s.rect(kL, kT, kW, kH, "none", svg::kGrey, 1);
  s.text(kL + kW / 2, kT + kH + 36, "arithmetic intensity (FLOP per byte, log scale)",
         {12, svg::Anchor::kMiddle});
  s.text(kL - 6, kT - 12, "TFLOP/s (log scale)", {12, svg::Anchor::kStart});

  // The roofs: each bandwidth's slope up to the peak, then the peak itself.
  double first_corner = x_hi, fastest = 0;
  for (const Roof& r : roofs) fastest = std::max(fastest, r.bandwidth_gbs);
  for (std::size_t r = 0; r < roofs.size(); ++r) {
    const double bw = roofs[r].bandwidth_gbs / 1000;  // TFLOP/s per FLOP/byte
    const double corner = peak / bw;
    first_corner = std::min(first_corner, corner);
    const double x0 = std::max(x_lo, y_lo / bw);
    const std::string colour = r == 0 ? svg::kBlue : svg::category(static_cast<int>(r) + 1);
    s.line(X(x0), Y(x0 * bw), X(std::min(corner, x_hi)), Y(std::min(peak, x_hi * bw)), colour, 3,
           r > 0, "roof");
    // Its label. The fastest roof's goes above its slope, where no kernel can be, ending at the
    // slope halfway up it (or far enough right to stay in the plot); a slower roof's goes under
    // its slope, ending before its corner, so that it crosses no faster roof's line.
    const std::string label = roofs[r].label + ": " + bandwidth_str(roofs[r].bandwidth_gbs);
    const double room = 0.62 * 12 * static_cast<double>(label.size());
    auto at_px = [&](double px) {
      return std::exp(std::log(x_lo) + (px - kL) / kW * (std::log(x_hi) - std::log(x_lo)));
    };
    if (roofs[r].bandwidth_gbs >= fastest) {
      const double end = std::max(X(std::sqrt(x0 * std::min(corner, x_hi))), kL + 14 + room);
      s.text(end - 8, Y(std::min(peak, at_px(end) * bw)) - 8, label,
             {12, svg::Anchor::kEnd, true, colour});
    } else {
      const double start = std::max(kL + 6, X(std::min(corner, x_hi)) - 12 - room);
      s.text(start + 8, Y(std::min(peak, at_px(start) * bw)) + 20, label,
             {12, svg::Anchor::kStart, true, colour});
    }
  }
  s.line(X(first_corner), Y(peak), kL + kW, Y(peak), svg::kInk, 3, false, "roof");
  s.text(kL + kW - 4, Y(peak) - 8, "peak FP32: " + figure_number(peak) + " TFLOP/s",
         {12, svg::Anchor::kEnd, true});

  // The ridge point, where the kernels stop being limited by device memory: summarize()'s.
  s.line(X(ridge), Y(peak), X(ridge), kT + kH, svg::kVermillion, 2, true, "ridge");
  const bool ridge_right = X(ridge) > kL + kW * 0.7;  // its label then goes left of the line
  s.text(X(ridge) + (ridge_right ? -6 : 6), kT + kH - 8,
         "ridge point: " + figure_number(ridge) + " FLOP/byte",
         {12, ridge_right ? svg::Anchor::kEnd : svg::Anchor::kStart, true, svg::kVermillion});

  // The kernels, each where its roof caps it: a number beside it, its words under the plot.
  double ly = kT + kH + 62;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const RoofPoint& p = points[k];
    const double x = X(p.intensity), y = Y(reach(p));
    const std::string n = std::to_string(k + 1);
    s.rect(x - 5, y - 5, 10, 10, svg::kInk, "#ffffff", 1.5, "point",
           p.label + ": " + figure_number(p.intensity) + " FLOP/byte");
    s.text(x + 8, y + 17, n, {13, svg::Anchor::kStart, true});
    s.text(kL, ly,
           n + "  " + p.label + ": " + figure_number(p.intensity) + " FLOP/byte, at most " +
               figure_number(reach(p)) + " TFLOP/s",
           {12, svg::Anchor::kStart});
    ly += 18;
  }
  return s;
}

svg::Scene hierarchy_scene(const std::string& device, const DeviceSpec& spec,
                           const DeviceSummary& summary) {
  const std::vector<MemoryLevel> levels = memory_levels(spec, summary);
  std::string desc = "The " + device + " from the outside in: " + std::to_string(spec.sm_count) +
                     " streaming multiprocessors (SMs) above one L2 cache of " +
                     bytes_str(static_cast<double>(spec.l2_bytes)) + " and " +
                     bytes_str(static_cast<double>(spec.global_mem_bytes)) +
                     " of device memory; one SM inside; and the memory levels: ";
  for (const MemoryLevel& l : levels) {
    desc += l.name + " " + bytes_str(l.bytes) +
            (l.bandwidth_gbs > 0 ? " at " + bandwidth_str(l.bandwidth_gbs) : "") + "; ";
  }
  svg::Scene s(device + ": SMs, L2, memory", desc);
  s.text(12, 24,
         device + ": " + std::to_string(spec.sm_count) + " SMs, " +
             std::to_string(summary.fp32_lanes_total) + " FP32 lanes, " +
             std::to_string(summary.max_resident_threads) + " threads resident at once",
         {15, svg::Anchor::kStart, true});

  // The chip: every SM the driver reports (it does not say how the die groups them), the L2 and
  // device memory under them.
  const int per_row = spec.sm_count > 100 ? 12 : 10;
  constexpr double kSmW = 24, kSmH = 16, kGap = 4, kChipX = 20, kChipY = 64;
  s.text(kChipX, kChipY - 10, "the chip: " + std::to_string(spec.sm_count) + " SMs",
         {13, svg::Anchor::kStart, true});
  for (int i = 0; i < spec.sm_count; ++i) {  // SM 0 dark: the one drawn enlarged
    s.rect(kChipX + (i % per_row) * (kSmW + kGap), kChipY + (i / per_row) * (kSmH + kGap), kSmW,
           kSmH, i == 0 ? svg::kBlue : svg::tint(svg::kBlue, 0.55), svg::kBlue, 1, "sm",
           "SM " + std::to_string(i));
  }
  const int sm_rows = (spec.sm_count + per_row - 1) / per_row;
  const double chip_w = per_row * (kSmW + kGap) - kGap;
  double y = kChipY + sm_rows * (kSmH + kGap) + 10;
  s.rect(kChipX, y, chip_w, 30, svg::tint(svg::kGreen, 0.6), svg::kGreen, 1.5);
  s.text(kChipX + chip_w / 2, y + 20,
         "L2 cache: " + bytes_str(static_cast<double>(spec.l2_bytes)) + ", all SMs",
         {12, svg::Anchor::kMiddle, true});
  y += 40;
  s.rect(kChipX, y, chip_w, 30, svg::tint(svg::kOrange, 0.6), svg::kOrange, 1.5);
  s.text(kChipX + chip_w / 2, y + 20,
         "device memory: " + bytes_str(static_cast<double>(spec.global_mem_bytes)) + ", " +
             bandwidth_str(summary.peak_bandwidth_gbs),
         {12, svg::Anchor::kMiddle, true});
  const double chip_bottom = y + 30;

  // One SM: four partitions, each a scheduler with a quarter of the lanes and registers.
  constexpr double kSmX = 400, kPartW = 200, kPartH = 86;
  s.text(kSmX, kChipY - 10, "one SM (the dark one), enlarged", {13, svg::Anchor::kStart, true});
  const int lanes = summary.fp32_lanes_per_sm / 4, regs = spec.regs_per_sm / 4;
  for (int p = 0; p < 4; ++p) {
    const double px = kSmX + (p % 2) * (kPartW + 8), py = kChipY + (p / 2) * (kPartH + 8);
    s.rect(px, py, kPartW, kPartH, svg::tint(svg::kBlue, 0.8), svg::kBlue, 1.5);
    s.text(px + 8, py + 18, "partition " + std::to_string(p), {12, svg::Anchor::kStart, true});
    s.text(px + 8, py + 36, "1 warp scheduler", {12, svg::Anchor::kStart});
    s.text(px + 8, py + 54, std::to_string(lanes) + " FP32 lanes", {12, svg::Anchor::kStart});
    s.text(px + 8, py + 72,
           std::to_string(regs) + " registers (" + bytes_str(regs * kRegisterBytes) + ")",
           {12, svg::Anchor::kStart});
  }
  const double smem_y = kChipY + 2 * (kPartH + 8);
  s.rect(kSmX, smem_y, 2 * kPartW + 8, 30, svg::tint(svg::kPurple, 0.6), svg::kPurple, 1.5);
  s.text(kSmX + kPartW + 4, smem_y + 20,
         "shared memory / L1: up to " + bytes_str(static_cast<double>(spec.smem_per_sm_bytes)) +
             " shared",
         {12, svg::Anchor::kMiddle, true});
  s.text(kSmX, smem_y + 50,
         "up to " + std::to_string(summary.max_warps_per_sm) + " warps (" +
             std::to_string(spec.max_threads_per_sm) + " threads) resident;",
         {12, svg::Anchor::kStart});
  s.text(kSmX, smem_y + 68,
         std::to_string(summary.regs_per_thread_at_full_occupancy) +
             " registers a thread when the SM is full",
         {12, svg::Anchor::kStart});

  // The levels: sizes and bandwidths, each on its own log scale.
  double ly = std::max(chip_bottom, smem_y + 68) + 44;
  constexpr double kSizeX = 220, kBwX = 510, kBar = 260;
  s.text(12, ly, "the memory levels, nearest first", {13, svg::Anchor::kStart, true});
  ly += 20;
  s.text(kSizeX, ly, "size on the whole chip (log scale)", {12, svg::Anchor::kStart});
  s.text(kBwX, ly, "bandwidth (log scale)", {12, svg::Anchor::kStart});
  ly += 14;
  const double size_lo = 1 * kMiB, size_hi = 1024 * kGiB, bw_lo = 100, bw_hi = 1e6;
  const std::string fills[] = {svg::kSky, svg::kPurple, svg::kGreen, svg::kOrange};
  for (std::size_t k = 0; k < levels.size(); ++k) {
    const MemoryLevel& l = levels[k];
    const double ry = ly + k * 46;
    s.text(12, ry + 16, l.name, {12, svg::Anchor::kStart, true});
    s.text(12, ry + 32, "seen by " + l.shared_by, {11, svg::Anchor::kStart, false, svg::kFaint});
    const double sw = log_at(std::max(l.bytes, size_lo), size_lo, size_hi, 0, kBar);
    s.rect(kSizeX, ry + 20, std::max(sw, 2.0), 14, svg::tint(fills[k], 0.35), "none", 1, "level",
           l.name + ": " + bytes_str(l.bytes));
    s.text(kSizeX, ry + 15,
           bytes_str(l.bytes) +
               (l.per_sm_bytes > 0 ? " (" + bytes_str(l.per_sm_bytes) + " per SM)" : ""),
           {11, svg::Anchor::kStart});
    if (l.bandwidth_gbs > 0) {
      const double bw = log_at(std::max(l.bandwidth_gbs, bw_lo), bw_lo, bw_hi, 0, kBar);
      s.rect(kBwX, ry + 20, bw, 14, svg::tint(fills[k], 0.35), "none", 1, "bandwidth",
             l.bandwidth_rule);
      s.text(kBwX, ry + 15, bandwidth_str(l.bandwidth_gbs) + ": " + l.bandwidth_rule,
             {11, svg::Anchor::kStart});
    } else {
      s.text(kBwX, ry + 31, l.bandwidth_rule, {11, svg::Anchor::kStart, false, svg::kFaint});
    }
  }
  return s;
}

}  // namespace lesson01
