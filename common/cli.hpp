/// \file cli.hpp
/// \brief Command-line options for lesson programs, and the guard around main().
///
/// Every lesson program takes `--name VALUE` options and `--flag` switches. A bad command line
/// (an unknown flag, a size that is not a positive whole number, a number above kMaxNumber) prints
/// the error and the usage and exits with kExitUsage (2) before anything runs; `--help` prints the
/// usage and exits 0. The usage always shows the declared defaults, whatever was given.
#pragma once

#include "common/lesson.hpp"

#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace course {

/// "12" -> 12; "0", "-3", "12x", "", "1e3" -> nothing. Sizes and counts go through this.
std::optional<long> parse_positive(const std::string& text);

/// The largest value a number option takes (the programs keep sizes and counts in an `int`).
inline constexpr long kMaxNumber = std::numeric_limits<int>::max();

/// The options of one program. Declare them, parse, then read them back by name.
class Cli {
 public:
  /// `program` is the name shown in the usage, `summary` one line on what the program does.
  Cli(std::string program, std::string summary);

  /// `--name N`: a positive whole number up to kMaxNumber, `fallback` when not given.
  Cli& number(const std::string& name, long fallback, const std::string& help);
  /// `--name TEXT`: free text (a path, say), `fallback` when not given.
  Cli& text(const std::string& name, const std::string& fallback, const std::string& help);
  /// `--name TEXT` where TEXT is one of `choices` (anything else is a usage error), `fallback`
  /// when not given.
  Cli& choice(const std::string& name, const std::string& fallback,
              const std::vector<std::string>& choices, const std::string& help);
  /// `--name`: a switch, off unless given.
  Cli& flag(const std::string& name, const std::string& help);

  /// Parses argv[1..]. Empty on success, otherwise what is wrong ("unknown option --foo").
  std::string try_parse(int argc, const char* const* argv);
  /// try_parse, then on error prints it and the usage to stderr and exits with kExitUsage;
  /// on `--help` prints the usage to stdout and exits 0.
  void parse(int argc, const char* const* argv);

  long get(const std::string& name) const;                ///< a number option's value
  const std::string& str(const std::string& name) const;  ///< a text option's value
  bool on(const std::string& name) const;                 ///< whether a switch was given
  bool given(const std::string& name) const;  ///< whether the option was on the command line
  bool help_requested() const { return help_; }

  std::string usage() const;  ///< the usage text

 private:
  enum class Kind { kNumber, kText, kFlag };
  struct Option {  // every member after help has a default: Option{kind, help} is complete
    Kind kind;
    std::string help;
    long number = 0;
    std::string text{};
    long fallback_number = 0;  // the declared default, shown by usage()
    std::string fallback_text{};
    std::vector<std::string> choices{};  // a text option's allowed values; empty: any
    bool on = false;
    bool given = false;
  };
  const Option& find(const std::string& name, Kind kind) const;

  std::string program_, summary_;
  std::vector<std::string> order_;
  std::map<std::string, Option> options_;
  bool help_ = false;
};

/// Runs a lesson program's body and turns what it throws into a message and an exit code.
/// An exercise not written yet is the expected state of a fresh clone, not an error: a
/// course::NotImplemented thrown by the body, and every part noted by try_yours() or
/// note_not_written(), ends the output with one line each (what is not written yet, in which
/// file, `make hint-N`), and the exit code stays the body's (kExitOk for a stub). A body that met
/// a stub and then found no GPU to go on (kExitNoDevice, kExitDeviceTooOld: no_usable_device())
/// exits kExitOk too: what is left to write is what there is to do here. CudaError and other
/// exceptions -> "error: ..." and kExitFailed.
int guarded_main(const LessonId& lesson, const std::function<int()>& body);

/// Runs `part`, a piece of a lesson program that calls the learner's code. When that code is still
/// a stub (it throws course::NotImplemented), notes it for guarded_main's closing lines and
/// returns false; the program goes on with what does not need it. True when `part` ran.
bool try_yours(const std::function<void()>& part);

/// Notes a NotImplemented's message for guarded_main's closing lines (once per message).
void note_not_written(const std::string& message);

}  // namespace course
