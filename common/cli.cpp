#include "common/cli.hpp"

#include "common/check.hpp"
#include "common/device.hpp"
#include "common/todo.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace course {

std::optional<long> parse_positive(const std::string& text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value <= 0) return std::nullopt;
  return value;
}

Cli::Cli(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

Cli& Cli::number(const std::string& name, long fallback, const std::string& help) {
  Option o{Kind::kNumber, help};
  o.number = fallback;
  o.fallback_number = fallback;
  options_[name] = o;
  order_.push_back(name);
  return *this;
}

Cli& Cli::text(const std::string& name, const std::string& fallback, const std::string& help) {
  Option o{Kind::kText, help};
  o.text = fallback;
  o.fallback_text = fallback;
  options_[name] = o;
  order_.push_back(name);
  return *this;
}

Cli& Cli::choice(const std::string& name, const std::string& fallback,
                 const std::vector<std::string>& choices, const std::string& help) {
  text(name, fallback, help);
  options_[name].choices = choices;
  return *this;
}

Cli& Cli::flag(const std::string& name, const std::string& help) {
  options_[name] = Option{Kind::kFlag, help};
  order_.push_back(name);
  return *this;
}

std::string Cli::try_parse(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      help_ = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) return "unexpected argument '" + arg + "' (options start with --)";
    std::string name = arg.substr(2), value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    auto it = options_.find(name);
    if (it == options_.end()) return "unknown option --" + name;
    Option& o = it->second;
    o.given = true;
    if (o.kind == Kind::kFlag) {
      if (inline_value) return "--" + name + " is a switch and takes no value";
      o.on = true;
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) return "--" + name + " needs a value";
      value = argv[++i];
    }
    if (o.kind == Kind::kNumber) {
      // A whole number too large for the int the programs keep it in is its own error, not "not
      // a positive whole number".
      const bool digits =
          !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
      const std::size_t first = value.find_first_not_of('0');
      const bool too_large =
          digits && first != std::string::npos &&
          (value.size() - first > 10 || std::stoll(value.substr(first)) > kMaxNumber);
      if (too_large) {
        return "--" + name + " is at most " + std::to_string(kMaxNumber) + ", got '" + value + "'";
      }
      auto n = parse_positive(value);
      if (!n) return "--" + name + " needs a positive whole number, got '" + value + "'";
      o.number = *n;
    } else {
      if (value.empty()) return "--" + name + " needs a value";
      if (!o.choices.empty() &&
          std::find(o.choices.begin(), o.choices.end(), value) == o.choices.end()) {
        std::string names;
        for (const std::string& c : o.choices) names += (names.empty() ? "" : " or ") + c;
        return "--" + name + " is " + names + ", got '" + value + "'";
      }
      o.text = value;
    }
  }
  return "";
}

void Cli::parse(int argc, const char* const* argv) {
  std::string error = try_parse(argc, argv);
  if (!error.empty()) {
    std::fprintf(stderr, "%s: %s\n\n%s", program_.c_str(), error.c_str(), usage().c_str());
    std::exit(kExitUsage);
  }
  if (help_) {
    std::printf("%s", usage().c_str());
    std::exit(kExitOk);
  }
}

const Cli::Option& Cli::find(const std::string& name, Kind kind) const {
  auto it = options_.find(name);
  if (it == options_.end() || it->second.kind != kind) {
    throw std::logic_error("Cli: no option --" + name + " of that kind was declared");
  }
  return it->second;
}

long Cli::get(const std::string& name) const {
  return find(name, Kind::kNumber).number;
}
const std::string& Cli::str(const std::string& name) const {
  return find(name, Kind::kText).text;
}
bool Cli::on(const std::string& name) const {
  return find(name, Kind::kFlag).on;
}
bool Cli::given(const std::string& name) const {
  auto it = options_.find(name);
  return it != options_.end() && it->second.given;
}

std::string Cli::usage() const {
  std::ostringstream out;
  out << "usage: " << program_ << " [options]\n  " << summary_ << "\n\noptions:\n";
  for (const auto& name : order_) {
    const Option& o = options_.at(name);
    std::string left = "--" + name;
    if (o.kind == Kind::kNumber) left += " N";
    if (o.kind == Kind::kText) left += " TEXT";
    out << "  " << left;
    for (std::size_t pad = left.size(); pad < 18; ++pad) out << ' ';
    out << ' ' << o.help;
    if (o.kind == Kind::kNumber) out << " (default " << o.fallback_number << ")";
    if (o.kind == Kind::kText && !o.fallback_text.empty()) {
      out << " (default " << o.fallback_text << ")";
    }
    out << "\n";
  }
  out << "  --help             this text\n";
  return out.str();
}

namespace {

// The stubs a lesson program met, in the order it met them.
std::vector<std::string>& not_written() {
  static std::vector<std::string> messages;
  return messages;
}

// "not written yet: vector_add (exercises/02-dispatch/dispatch.cu); make hint-2 gives a hint,
// make grade-2 grades your code". Several stubs: one line each, the commands on the last. True
// when there was one; the notes are then printed and gone.
bool print_not_written(const LessonId& lesson) {
  std::vector<std::string> all;
  all.swap(not_written());
  const std::string head = kNotImplementedPrefix, tail = " is still a TODO stub";
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::string what = all[i];
    if (what.rfind(head, 0) == 0) what = what.substr(head.size());
    if (what.size() > tail.size() &&
        what.compare(what.size() - tail.size(), tail.size(), tail) == 0) {
      what.resize(what.size() - tail.size());
    }
    std::printf("%s%s", i == 0 ? "\nnot written yet: " : "                 ", what.c_str());
    if (i + 1 < all.size()) {
      std::printf("\n");
    } else {
      std::printf("; %s gives a hint, %s grades your code\n", lesson.hint_command().c_str(),
                  lesson.grade_command().c_str());
    }
  }
  std::fflush(stdout);
  return !all.empty();
}

}  // namespace

void note_not_written(const std::string& message) {
  auto& seen = not_written();
  if (std::find(seen.begin(), seen.end(), message) == seen.end()) seen.push_back(message);
}

bool try_yours(const std::function<void()>& part) {
  try {
    part();
    return true;
  } catch (const NotImplemented& e) {
    note_not_written(e.what());
    return false;
  }
}

int guarded_main(const LessonId& lesson, const std::function<int()>& body) {
  try {
    const int rc = body();
    std::fflush(stdout);
    const bool met_stub = print_not_written(lesson);
    const bool no_gpu = rc == kExitNoDevice || rc == kExitDeviceTooOld;
    return met_stub && no_gpu ? static_cast<int>(kExitOk) : rc;
  } catch (const NotImplemented& e) {
    note_not_written(e.what());
    std::fflush(stdout);
    print_not_written(lesson);
    return kExitOk;
  } catch (const CudaError& e) {
    std::fprintf(stderr, "CUDA error: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
  }
  return kExitFailed;
}

}  // namespace course
