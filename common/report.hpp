/// \file report.hpp
/// \brief Reporting: an aligned table for people, one JSON line per measurement for tools.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace course {

/// `value` with `digits` after the point ("%.*f"); NaN and infinities print as "nan"/"inf".
std::string fixed(double value, int digits);

/// A text table whose columns line up. Numbers are right-aligned, text left-aligned.
class Table {
 public:
  explicit Table(std::vector<std::string> headers);
  /// Adds a row; it must have as many cells as there are headers.
  void add_row(std::vector<std::string> cells);
  /// The table, header underlined, one line per row, each line ending in '\n'.
  std::string str() const;
  /// Prints str() to stdout.
  void print() const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

/// One measurement as one line of JSON, for tools (the grader, `make bench`, the book's charts).
/// Keys keep the order they were added in; strings are escaped.
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& value);
  JsonLine& add(const std::string& key, const char* value);
  JsonLine& add(const std::string& key, double value);
  JsonLine& add(const std::string& key, long value);
  JsonLine& add(const std::string& key, int value);
  JsonLine& add(const std::string& key, bool value);
  /// `{"key": value, ...}` on one line, no trailing newline.
  std::string str() const;
  /// Prints str() and a newline to stdout.
  void print() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;  // key, encoded value
};

}  // namespace course
