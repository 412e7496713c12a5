#include "common/report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace course {

std::string fixed(double value, int digits) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

Table::Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != headers_.size()) {
    throw std::logic_error("Table: a row of " + std::to_string(cells.size()) + " cells for " +
                           std::to_string(headers_.size()) + " columns");
  }
  rows_.push_back(std::move(cells));
}

namespace {
bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end != nullptr && (*end == '\0' || *end == '%' || *end == 'x');
}
}  // namespace

std::string Table::str() const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::size_t pad = width[c] - cells[c].size();
      const bool right = !header && looks_numeric(cells[c]);
      if (c > 0) out << "  ";
      if (right) out << std::string(pad, ' ');
      out << cells[c];
      if (!right && c + 1 < cells.size()) out << std::string(pad, ' ');
    }
    out << "\n";
  };
  line(headers_, true);
  std::size_t total = 0;
  for (std::size_t c = 0; c < width.size(); ++c) total += width[c] + (c > 0 ? 2 : 0);
  out << std::string(total, '-') << "\n";
  for (const auto& row : rows_) line(row, false);
  return out.str();
}

void Table::print() const {
  std::fputs(str().c_str(), stdout);
  std::fflush(stdout);
}

namespace {
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}
}  // namespace

JsonLine& JsonLine::add(const std::string& key, const std::string& value) {
  fields_.emplace_back(key, quote(value));
  return *this;
}
JsonLine& JsonLine::add(const std::string& key, const char* value) {
  return add(key, std::string(value));
}
JsonLine& JsonLine::add(const std::string& key, double value) {
  if (!std::isfinite(value)) {
    fields_.emplace_back(key, "null");  // JSON has no NaN
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    fields_.emplace_back(key, buf);
  }
  return *this;
}
JsonLine& JsonLine::add(const std::string& key, long value) {
  fields_.emplace_back(key, std::to_string(value));
  return *this;
}
JsonLine& JsonLine::add(const std::string& key, int value) {
  return add(key, static_cast<long>(value));
}
JsonLine& JsonLine::add(const std::string& key, bool value) {
  fields_.emplace_back(key, value ? "true" : "false");
  return *this;
}

JsonLine& JsonLine::add(const std::string& key, const std::optional<double>& value) {
  if (!value) {
    fields_.emplace_back(key, "null");
    return *this;
  }
  return add(key, *value);
}

JsonLine& JsonLine::add(const std::string& key, const std::vector<std::string>& values) {
  std::string encoded = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) encoded += ", ";
    encoded += quote(values[i]);
  }
  fields_.emplace_back(key, encoded + "]");
  return *this;
}
JsonLine& JsonLine::add_json(const std::string& key, const std::string& encoded) {
  fields_.emplace_back(key, encoded);
  return *this;
}

std::string JsonLine::str() const {
  std::string out = "{";
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += ", ";
    out += quote(fields_[i].first) + ": " + fields_[i].second;
  }
  return out + "}";
}

void JsonLine::print() const {
  std::printf("%s\n", str().c_str());
  std::fflush(stdout);
}

JsonLine GemmMeasurement::json() const {
  JsonLine line;
  line.add("schema", kMeasurementSchema)
      .add("lesson", lesson)
      .add("kernel", kernel)
      .add("M", M)
      .add("N", N)
      .add("K", K)
      .add("ms", ms)
      .add("spread", spread)
      .add("tflops", tflops)
      .add("cublas_ms", cublas_ms)
      .add("cublas_tflops", cublas_tflops)
      .add("pct_of_cublas", pct_of_cublas)
      .add("checked", checked)
      .add("passed", passed)
      .add("headline", headline)
      .add("gpu", gpu)
      .add("precision", precision);
  if (intensity > 0) line.add("intensity", intensity);
  line.add("regime", regime)
      .add("samples", samples)
      .add("kernel_first", kernel_first)
      .add("sm_clock_mhz", sm_clock_mhz)
      .add("cublas_sm_clock_mhz", cublas_sm_clock_mhz)
      .add("power_w", power_w)
      .add("cublas_power_w", cublas_power_w)
      .add("energy_j", energy_j)
      .add("cublas_energy_j", cublas_energy_j);
  // The trace of a sustained run: seconds to the millisecond, the clock in MHz, the power in W.
  auto trace = [](const std::vector<BlockReading>& blocks) {
    auto num = [](const std::optional<double>& v, int decimals) {
      if (!v || !std::isfinite(*v)) return std::string("null");
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
      return std::string(buf);
    };
    std::string out = "[";
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const BlockReading& b = blocks[i];
      out += (i ? ", [" : "[") + num(b.from_ms / 1e3, 3) + ", " + num(b.to_ms / 1e3, 3) + ", " +
             num(b.sm_clock_mhz, 0) + ", " + num(b.power_w, 1) + "]";
    }
    return out + "]";
  };
  if (!blocks.empty()) line.add_json("blocks", trace(blocks));
  if (!cublas_blocks.empty()) line.add_json("cublas_blocks", trace(cublas_blocks));
  return line;
}

void GemmMeasurement::print() const {
  json().print();
}

JsonLine measurement_line(const std::string& lesson, const std::string& what) {
  JsonLine line;
  line.add("schema", kMeasurementSchema).add("lesson", lesson).add("what", what);
  return line;
}

}  // namespace course
