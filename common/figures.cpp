/// \file figures.cpp
/// \brief A lesson's figures: frames, placeholders, the registry and the program that writes them.
#include "common/figures.hpp"

#include "common/todo.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace course::fig {

namespace {

std::string json(const std::string& s) {
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

std::string json(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json(items[i]);
  return out + "]";
}

}  // namespace

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
    std::ostringstream index;
    index << "{\"lesson\": " << json(lesson) << ", \"figures\": [";
    for (std::size_t fi = 0; fi < figures.size(); ++fi) {
      const Figure& f = figures[fi];
      fs::remove_all(fs::path(out) / f.id);
      fs::create_directories(fs::path(out) / f.id);
      index << (fi ? ",\n " : "\n ") << "{\"id\": " << json(f.id)
            << ", \"title\": " << json(f.title) << ", \"caption\": " << json(f.caption)
            << ", \"error\": " << json(f.error) << ", \"controls\": [";
      for (std::size_t ci = 0; ci < f.controls.size(); ++ci) {
        const Control& c = f.controls[ci];
        index << (ci ? ", " : "") << "{\"name\": " << json(c.name)
              << ", \"label\": " << json(c.label) << ", \"values\": " << json(c.values)
              << ", \"shown\": " << json(c.shown.empty() ? c.values : c.shown)
              << ", \"initial\": " << json(c.initial.empty() ? c.values.front() : c.initial)
              << ", \"slider\": " << (c.slider ? "true" : "false") << "}";
      }
      index << "], \"frames\": {";
      for (std::size_t k = 0; k < f.frames.size(); ++k) {
        const std::string file = f.id + "/" + std::to_string(k) + ".svg";
        std::ofstream(fs::path(out) / file) << f.frames[k].second;
        index << (k ? ", " : "") << json(f.frames[k].first) << ": " << json(file);
      }
      index << "}}";
    }
    index << "\n]}\n";
    std::ofstream(fs::path(out) / "figures.json") << index.str();
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
