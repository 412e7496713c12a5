/// \file figures.cpp
/// \brief A lesson's figures: frames, placeholders, the registry and the program that writes them.
#include "common/figures.hpp"

#include "common/report.hpp"
#include "common/todo.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace course::fig {

std::string frame_key(const std::vector<std::string>& values) {
  std::string key;
  for (std::size_t i = 0; i < values.size(); ++i) key += (i ? "|" : "") + values[i];
  return key;
}

Figure make(std::string id, std::string title, std::string caption, std::vector<Control> controls,
            const std::function<svg::Scene(const std::vector<std::string>&)>& draw) {
  Figure f{std::move(id), std::move(title), std::move(caption), std::move(controls), {}, {}};
  for (const Control& c : f.controls) {
    if (c.values.empty()) throw std::logic_error(f.id + ": control " + c.name + " has no values");
  }
  // Every combination, the last control fastest.
  std::vector<std::size_t> at(f.controls.size(), 0);
  while (true) {
    std::vector<std::string> values;
    for (std::size_t i = 0; i < at.size(); ++i) values.push_back(f.controls[i].values[at[i]]);
    try {
      f.frames.emplace_back(frame_key(values), draw(values).str());
    } catch (const NotImplemented& e) {
      // A stub draws nothing: one placeholder stands for every frame.
      f.error = e.what();
      f.frames.assign(1, {"", svg::placeholder(f.title, f.error)});
      f.controls.clear();
      return f;
    } catch (const std::exception& e) {
      f.error = std::string("the figure could not be drawn: ") + e.what();
      f.frames.assign(1, {"", svg::placeholder(f.title, f.error)});
      f.controls.clear();
      return f;
    }
    std::size_t i = at.size();
    while (i > 0) {
      --i;
      if (++at[i] < f.controls[i].values.size()) break;
      at[i] = 0;
      if (i == 0) return f;
    }
    if (at.empty()) return f;
  }
}

Registrar::Registrar(const char* lesson, Maker maker) {
  registry().emplace_back(lesson, std::move(maker));
}

std::vector<std::pair<std::string, Maker>>& registry() {
  static std::vector<std::pair<std::string, Maker>> makers;
  return makers;
}

int run(int argc, char** argv) {
  std::string out;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) {
      out = argv[++i];
    } else if (!std::strcmp(argv[i], "--list")) {
      list = true;
    } else {
      std::cerr << "usage: " << argv[0] << " --out DIR | --list\n"
                << "  draws this lesson's figures from its functions: DIR/ID/N.svg for every frame"
                   " and DIR/figures.json, their index\n";
      return std::strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  if (out.empty() && !list) {
    std::cerr << argv[0] << ": say --out DIR (where to write the figures) or --list\n";
    return 2;
  }
  std::vector<Figure> figures;
  std::string lesson;
  for (const auto& [num, maker] : registry()) {
    lesson = num;
    for (Figure& f : maker()) figures.push_back(std::move(f));
  }
  if (list) {
    for (const Figure& f : figures) {
      std::cout << f.id << "  " << f.frames.size() << " frame(s)"
                << (f.error.empty() ? "" : "  (" + f.error + ")") << "\n";
    }
    return 0;
  }
  namespace fs = std::filesystem;
  try {
    fs::create_directories(out);
    // The index, in the course's one JSON writer (report.hpp): a figure a line.
    std::string list;
    for (const Figure& f : figures) {
      fs::remove_all(fs::path(out) / f.id);
      fs::create_directories(fs::path(out) / f.id);
      std::string controls;
      for (const Control& c : f.controls) {
        JsonLine line;
        line.add("name", c.name).add("label", c.label).add("values", c.values);
        line.add("shown", c.shown.empty() ? c.values : c.shown);
        line.add("initial", c.initial.empty() ? c.values.front() : c.initial)
            .add("slider", c.slider);
        controls += (controls.empty() ? "" : ", ") + line.str();
      }
      JsonLine frames;
      for (std::size_t k = 0; k < f.frames.size(); ++k) {
        const std::string file = f.id + "/" + std::to_string(k) + ".svg";
        std::ofstream(fs::path(out) / file) << f.frames[k].second;
        frames.add(f.frames[k].first, file);
      }
      JsonLine figure;
      figure.add("id", f.id).add("title", f.title).add("caption", f.caption).add("error", f.error);
      figure.add_json("controls", "[" + controls + "]").add_json("frames", frames.str());
      list += (list.empty() ? "\n " : ",\n ") + figure.str();
    }
    JsonLine index;
    index.add("lesson", lesson).add_json("figures", "[" + list + "\n]");
    std::ofstream(fs::path(out) / "figures.json") << index.str() << "\n";
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": cannot write the figures into " << out << ": " << e.what() << "\n";
    return 1;
  }
  std::size_t frames = 0, stubs = 0;
  for (const Figure& f : figures) frames += f.frames.size(), stubs += !f.error.empty();
  std::cout << "figures: " << figures.size() << " figure(s), " << frames << " frame(s) in " << out;
  if (stubs) std::cout << "; " << stubs << " not drawn (a function is still a TODO)";
  std::cout << "\n";
  return 0;
}

}  // namespace course::fig
