/// \file svg.hpp
/// \brief The course's one way to draw: a small SVG scene of cells, grids, labels, arrows and
/// legends, in a colour-blind-safe palette, with a title and a description for screen readers.
///
/// Every figure of the book and every picture a lesson program draws of your code goes through a
/// Scene. Coordinates are pixels at 1:1, y down. A figure wider than the book's text column
/// (kPageWidthPx) is shown scaled down to it, so Scene::str() refuses a figure whose smallest label
/// would then fall under kMinFontPx: every label stays readable where the book shows it.
///
/// \code
///   course::svg::Scene s("Two cells", "A green cell beside an orange one, labelled 0 and 1.");
///   s.cell(10, 10, 40, 30, course::svg::tint(course::svg::kGreen, 0.5), "0");
///   s.cell(50, 10, 40, 30, course::svg::tint(course::svg::kOrange, 0.5), "1");
///   std::string document = s.str();
/// \endcode
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace course::svg {

/// The smallest label, in pixels, as the book shows it.
constexpr double kMinFontPx = 11;
/// The width of the book's text column: a wider figure is scaled down to it.
constexpr double kPageWidthPx = 860;

/// The palette of Okabe and Ito (2008), told apart with every common colour-vision deficiency.
using Colour = const char*;
constexpr Colour kBlack = "#000000";
constexpr Colour kOrange = "#e69f00";
constexpr Colour kSky = "#56b4e9";
constexpr Colour kGreen = "#009e73";
constexpr Colour kYellow = "#f0e442";
constexpr Colour kBlue = "#0072b2";
constexpr Colour kVermillion = "#d55e00";
constexpr Colour kPurple = "#cc79a7";
constexpr Colour kGrey = "#999999";
constexpr Colour kInk = "#222222";  ///< text and outlines
constexpr Colour kFaint = "#666666";

/// The palette's seven colours in an order where neighbours differ most (for categories).
std::string category(int i);
/// `colour` mixed with white: 0 keeps it, 1 is white. Labels in black stay legible from 0.4 up.
std::string tint(const std::string& colour, double white);
/// A fill for item `i` of `n` (lanes, blocks) around the colour wheel, pale enough for black
/// labels. For many items, where a legend of seven cannot tell them apart: label them as well.
std::string wheel(int i, int n);
/// The fill of a hatched area (idle threads, padding): a pattern the scene defines.
constexpr const char* kHatch = "url(#hatch)";

/// Where text is anchored.
enum class Anchor { kStart, kMiddle, kEnd };

/// How a label looks.
struct Font {
  double size = 13;
  Anchor anchor = Anchor::kMiddle;
  bool bold = false;
  std::string fill = kInk;
};

/// A figure being drawn. Elements can carry a class, so a test can count what the figure shows
/// (Scene::count) and hold it to the function it is drawn from.
class Scene {
 public:
  /// `title` is the figure's name, `desc` says what it shows in words (both read by screen
  /// readers).
  Scene(std::string title, std::string desc);

  /// A rectangle. `cls` tags it for count(); `tip` becomes a tooltip (the title element of SVG).
  Scene& rect(double x, double y, double w, double h, const std::string& fill,
              const std::string& stroke = "none", double stroke_width = 1,
              const std::string& cls = "", const std::string& tip = "");
  /// A rectangle with `label` at its centre (a cell of a grid), outlined in white.
  Scene& cell(double x, double y, double w, double h, const std::string& fill,
              const std::string& label = "", const std::string& cls = "",
              const std::string& tip = "", double font = 12);
  /// A label; the first line at baseline y, further lines (split at '\n') below it.
  Scene& text(double x, double y, const std::string& s, const Font& font = {});
  /// A straight line.
  Scene& line(double x1, double y1, double x2, double y2, const std::string& stroke = kInk,
              double width = 1, bool dashed = false, const std::string& cls = "");
  /// A line with an arrowhead at (x2, y2).
  Scene& arrow(double x1, double y1, double x2, double y2, const std::string& stroke = kInk,
               double width = 1.5, const std::string& cls = "");
  /// A legend: one swatch (a fill, or "line:COLOUR" for a line) and its text a row, from (x, y).
  /// Returns the y under its last row.
  double legend(double x, double y, const std::vector<std::pair<std::string, std::string>>& items);

  /// How many elements were drawn with class `cls`.
  int count(const std::string& cls) const;
  /// The extent drawn so far (right and bottom edges, with a margin).
  double width() const;
  double height() const;
  /// The complete SVG document. \throws std::logic_error when a label would be shown under
  /// kMinFontPx in the book (the figure is wider than kPageWidthPx and its labels too small).
  std::string str() const;

 private:
  void grow(double x, double y);
  std::string title_, desc_;
  std::ostringstream body_;
  double right_ = 0, bottom_ = 0, smallest_font_ = 1e9;
  std::map<std::string, int> counts_;
};

/// A rows x cols grid of equal cells at (x, y): where each cell is, and its frame and numbers.
struct Grid {
  double x = 0, y = 0, w = 20, h = 20;
  int rows = 1, cols = 1;
  double left(int col) const { return x + col * w; }
  double top(int row) const { return y + row * h; }
  double cx(int col) const { return left(col) + w / 2; }
  double cy(int row) const { return top(row) + h / 2; }
  double right() const { return x + cols * w; }
  double bottom() const { return y + rows * h; }
  /// The column numbers above and the row numbers left of the grid, every `step` (0: as room
  /// allows).
  void numbers(Scene& s, int step = 0, double font = 11) const;
  /// Lines every `every_rows` rows and `every_cols` columns (tile edges), and the outer frame.
  void edges(Scene& s, int every_rows, int every_cols, const std::string& stroke = kInk,
             double width = 2) const;
};

/// The SVG of a placeholder figure: what `what` could not draw, and why (a stub not written yet).
std::string placeholder(const std::string& title, const std::string& why);
/// `s` with &, <, >, " escaped for XML.
std::string escape(const std::string& s);

}  // namespace course::svg
