/// \file figures.hpp
/// \brief A lesson's figures: drawn by its own functions (yours, or the reference solution's), with
/// the parameters a reader can change on the page, written as SVG files and one JSON index.
///
/// A lesson's `figures.cpp` registers what it draws with COURSE_FIGURES. The build links it into
/// two programs: `figuresNN` (your exercise's functions: `make lesson-N` runs it and says where the
/// pictures are) and `figuresNN_solution` (the reference's: the book shows these). No GPU is
/// needed: every figure is drawn on the CPU.
///
/// A Figure with controls has one frame per combination of their values; the book's page only
/// shows the frame the controls select, so nothing a figure shows is computed a second time in
/// the browser.
#pragma once

#include "common/svg.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace course::fig {

/// A parameter the reader can change: its values (as they appear in a frame's key) and how each
/// is shown on the page.
struct Control {
  std::string name;                 ///< short, unique within the figure
  std::string label;                ///< shown beside the control
  std::vector<std::string> values;  ///< in order; the first is shown first unless `initial` says
  std::vector<std::string> shown;   ///< how each value is labelled (empty: the values themselves)
  std::string initial;              ///< the value shown first (empty: the first)
  bool slider = false;              ///< a range slider (steps through values) instead of buttons
};

/// One figure of a chapter.
struct Figure {
  std::string id;       ///< unique in the book, starting with the lesson's number: "04-warp-step"
  std::string title;    ///< a few words
  std::string caption;  ///< what to look at
  std::vector<Control> controls;
  /// Every frame: its key (the controls' values joined by '|', "" without controls) and its SVG.
  std::vector<std::pair<std::string, std::string>> frames;
  std::string error;  ///< why it could not be drawn (a stub not written yet), else empty
};

/// Draws a figure: `draw` is called once per combination of the controls' values (in the order
/// of `controls`) and returns that frame's scene. A course::NotImplemented from your code gives a
/// placeholder frame that says which function is still a TODO; any other exception, a placeholder
/// that quotes it.
Figure make(std::string id, std::string title, std::string caption, std::vector<Control> controls,
            const std::function<svg::Scene(const std::vector<std::string>&)>& draw);

/// The key of a frame: values joined by '|'.
std::string frame_key(const std::vector<std::string>& values);

/// What a lesson's figures.cpp registers: a function that draws all of its figures.
using Maker = std::function<std::vector<Figure>()>;

/// Registers `maker` (use COURSE_FIGURES).
struct Registrar {
  Registrar(const char* lesson, Maker maker);
};

/// Every registered maker, with its lesson's number.
std::vector<std::pair<std::string, Maker>>& registry();

/// The figures program: `--out DIR` writes DIR/ID/N.svg for every frame of every figure and
/// DIR/figures.json (the index: ids, titles, captions, controls and the file of each frame);
/// `--list` prints the ids. Returns the exit code.
int run(int argc, char** argv);

}  // namespace course::fig

#define COURSE_FIGURES_CAT2(a, b) a##b
#define COURSE_FIGURES_CAT(a, b) COURSE_FIGURES_CAT2(a, b)
/// Registers a lesson's figures: `COURSE_FIGURES(my_figures);` at namespace scope, where
/// `std::vector<course::fig::Figure> my_figures()` draws them.
#define COURSE_FIGURES(maker)                                                          \
  static const ::course::fig::Registrar COURSE_FIGURES_CAT(course_figures_, __LINE__)( \
      COURSE_LESSON_ID, maker)
