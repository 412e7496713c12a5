/// \file svg.cpp
/// \brief The scene library of svg.hpp.
#include "common/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace course::svg {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  throw std::invalid_argument(std::string("not a hex digit: ") + c);
}

std::string rgb(double r, double g, double b) {
  auto u8 = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", u8(r), u8(g), u8(b));
  return buf;
}

const char* anchor_name(Anchor a) {
  return a == Anchor::kStart ? "start" : a == Anchor::kEnd ? "end" : "middle";
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

}  // namespace

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string category(int i) {
  static const char* order[] = {kBlue, kOrange, kGreen, kPurple, kSky, kVermillion, kYellow};
  const int n = static_cast<int>(sizeof order / sizeof order[0]);
  return order[((i % n) + n) % n];
}

std::string tint(const std::string& colour, double white) {
  if (colour.size() != 7 || colour[0] != '#') return colour;
  const double w = std::clamp(white, 0.0, 1.0);
  double c[3];
  for (int k = 0; k < 3; ++k) {
    c[k] = (hex_digit(colour[1 + 2 * k]) * 16 + hex_digit(colour[2 + 2 * k])) / 255.0;
    c[k] = c[k] + (1.0 - c[k]) * w;
  }
  return rgb(c[0], c[1], c[2]);
}

std::string wheel(int i, int n) {
  // HSL at saturation 0.65 and lightness 0.80: pale, so black labels read on every hue.
  const double h = std::fmod(i * 360.0 / std::max(n, 1) + 200.0, 360.0) / 60.0;
  const double l = 0.80, s = 0.65, c = (1.0 - std::fabs(2 * l - 1.0)) * s;
  const double x = c * (1.0 - std::fabs(std::fmod(h, 2.0) - 1.0)), m = l - c / 2;
  const int sector = static_cast<int>(h);
  const double r[] = {c, x, 0, 0, x, c}, g[] = {x, c, c, x, 0, 0}, b[] = {0, 0, x, c, c, x};
  return rgb(r[sector % 6] + m, g[sector % 6] + m, b[sector % 6] + m);
}

Scene::Scene(std::string title, std::string desc)
    : title_(std::move(title)), desc_(std::move(desc)) {}

void Scene::grow(double x, double y) {
  right_ = std::max(right_, x);
  bottom_ = std::max(bottom_, y);
}

Scene& Scene::rect(double x, double y, double w, double h, const std::string& fill,
                   const std::string& stroke, double stroke_width, const std::string& cls,
                   const std::string& tip) {
  body_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
        << "\" height=\"" << num(h) << "\" fill=\"" << fill << "\"";
  if (stroke != "none")
    body_ << " stroke=\"" << stroke << "\" stroke-width=\"" << num(stroke_width) << "\"";
  if (!cls.empty()) {
    body_ << " class=\"" << escape(cls) << "\"";
    ++counts_[cls];
  }
  if (tip.empty()) {
    body_ << "/>\n";
  } else {
    body_ << "><title>" << escape(tip) << "</title></rect>\n";
  }
  grow(x + w, y + h);
  return *this;
}

Scene& Scene::cell(double x, double y, double w, double h, const std::string& fill,
                   const std::string& label, const std::string& cls, const std::string& tip,
                   double font) {
  rect(x, y, w, h, fill, "#ffffff", 1, cls, tip);
  if (!label.empty()) {
    const auto lines = std::count(label.begin(), label.end(), '\n');
    text(x + w / 2, y + h / 2 + font * 0.36 - lines * font * 0.55, label, {font});
  }
  return *this;
}

Scene& Scene::text(double x, double y, const std::string& s, const Font& font) {
  std::size_t start = 0;
  double yy = y;
  while (true) {
    const std::size_t end = s.find('\n', start);
    const std::string piece =
        s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    body_ << "<text x=\"" << num(x) << "\" y=\"" << num(yy) << "\" font-size=\"" << num(font.size)
          << "\" text-anchor=\"" << anchor_name(font.anchor) << "\"";
    if (font.bold) body_ << " font-weight=\"bold\"";
    if (font.fill != kInk) body_ << " fill=\"" << font.fill << "\"";
    body_ << ">" << escape(piece) << "</text>\n";
    // Text width is not known without a font: about 0.6 em a character is an upper estimate.
    const double w = 0.6 * font.size * static_cast<double>(piece.size());
    const double x_right = font.anchor == Anchor::kStart    ? x + w
                           : font.anchor == Anchor::kMiddle ? x + w / 2
                                                            : x;
    grow(x_right, yy + font.size * 0.3);
    smallest_font_ = std::min(smallest_font_, font.size);
    if (end == std::string::npos) break;
    start = end + 1;
    yy += font.size * 1.25;
  }
  return *this;
}

Scene& Scene::line(double x1, double y1, double x2, double y2, const std::string& stroke,
                   double width, bool dashed, const std::string& cls) {
  body_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\""
        << num(y2) << "\" stroke=\"" << stroke << "\" stroke-width=\"" << num(width) << "\"";
  if (dashed) body_ << " stroke-dasharray=\"6 4\"";
  if (!cls.empty()) {
    body_ << " class=\"" << escape(cls) << "\"";
    ++counts_[cls];
  }
  body_ << "/>\n";
  grow(std::max(x1, x2), std::max(y1, y2));
  return *this;
}

Scene& Scene::arrow(double x1, double y1, double x2, double y2, const std::string& stroke,
                    double width, const std::string& cls) {
  line(x1, y1, x2, y2, stroke, width, false, cls);
  // The head: two strokes 9 px long at 25 degrees either side of the shaft.
  const double a = std::atan2(y2 - y1, x2 - x1), len = 9, spread = 0.44;
  for (double side : {-1.0, 1.0}) {
    const double b = a + M_PI + side * spread;
    body_ << "<line x1=\"" << num(x2) << "\" y1=\"" << num(y2) << "\" x2=\""
          << num(x2 + len * std::cos(b)) << "\" y2=\"" << num(y2 + len * std::sin(b))
          << "\" stroke=\"" << stroke << "\" stroke-width=\"" << num(width) << "\"/>\n";
  }
  return *this;
}

double Scene::legend(double x, double y,
                     const std::vector<std::pair<std::string, std::string>>& items) {
  for (const auto& [swatch, label] : items) {
    if (swatch.rfind("line:", 0) == 0) {
      line(x, y - 4, x + 24, y - 4, swatch.substr(5), 3);
    } else if (!swatch.empty()) {
      rect(x, y - 13, 24, 16, swatch, kInk, 1);
    }
    text(x + 32, y, label, {12, Anchor::kStart});
    y += 22;
  }
  return y;
}

int Scene::count(const std::string& cls) const {
  const auto it = counts_.find(cls);
  return it == counts_.end() ? 0 : it->second;
}

double Scene::width() const {
  return std::ceil(right_ + 12);
}
double Scene::height() const {
  return std::ceil(bottom_ + 12);
}

std::string Scene::str() const {
  const double w = width(), h = height();
  const double shown = smallest_font_ * std::min(1.0, kPageWidthPx / w);
  if (smallest_font_ < 1e9 && shown < kMinFontPx - 1e-9) {
    throw std::logic_error("figure \"" + title_ + "\": " + num(w) +
                           " px wide, its smallest label (" + num(smallest_font_) +
                           " px) would be shown at " + num(shown) + " px in the book, under " +
                           num(kMinFontPx));
  }
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(w) << "\" height=\"" << num(h)
    << "\" viewBox=\"0 0 " << num(w) << " " << num(h) << "\" role=\"img\""
    << " font-family=\"'DejaVu Sans',Verdana,Arial,sans-serif\" fill=\"" << kInk << "\">\n"
    << "<title>" << escape(title_) << "</title>\n<desc>" << escape(desc_) << "</desc>\n"
    << "<defs><pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\""
       " patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#eeeeee\"/>"
       "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#bbbbbb\" stroke-width=\"3\"/>"
       "</pattern></defs>\n"
    << "<rect width=\"" << num(w) << "\" height=\"" << num(h) << "\" fill=\"#ffffff\"/>\n"
    << body_.str() << "</svg>\n";
  return o.str();
}

void Grid::numbers(Scene& s, int step, double font) const {
  const int sx = step > 0 ? step : std::max(1, static_cast<int>(std::ceil(font * 2.2 / w)));
  const int sy = step > 0 ? step : std::max(1, static_cast<int>(std::ceil(font * 1.3 / h)));
  for (int c = 0; c < cols; c += sx)
    s.text(cx(c), y - 5, std::to_string(c), {font, Anchor::kMiddle, false, kFaint});
  for (int r = 0; r < rows; r += sy) {
    s.text(x - 5, cy(r) + font * 0.36, std::to_string(r), {font, Anchor::kEnd, false, kFaint});
  }
}

void Grid::edges(Scene& s, int every_rows, int every_cols, const std::string& stroke,
                 double width) const {
  if (every_rows > 0) {
    for (int r = every_rows; r < rows; r += every_rows)
      s.line(x, top(r), right(), top(r), stroke, width);
  }
  if (every_cols > 0) {
    for (int c = every_cols; c < cols; c += every_cols)
      s.line(left(c), y, left(c), bottom(), stroke, width);
  }
  s.rect(x, y, cols * w, rows * h, "none", stroke, width);
}

std::string placeholder(const std::string& title, const std::string& why) {
  Scene s(title, "Not drawn: " + why);
  s.rect(0, 0, 640, 90, tint(kGrey, 0.8), kGrey, 1);
  s.text(16, 30, title, {14, Anchor::kStart, true});
  // Wrap the reason at about 90 characters a line.
  std::string line, text;
  std::istringstream words(why);
  for (std::string w; words >> w;) {
    if (line.size() + w.size() + 1 > 90) {
      text += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  text += line;
  s.text(16, 54, text, {12, Anchor::kStart});
  return s.str();
}

}  // namespace course::svg
