"""The small TOML subset the lesson records (lessons/NN-slug/lesson.toml) are written in.

Standard library only and Python 3.8+ (tomllib arrived in 3.11). What it reads, and nothing more:

- `key = value` lines, with bare keys (letters, digits, `_` and `-`);
- values: basic strings ("...", one line, with the escapes \\b \\t \\n \\f \\r \\" \\\\ \\uXXXX
  \\UXXXXXXXX), literal strings ('...', one line, no escapes), integers (no leading zeros), floats,
  `true` / `false`, and arrays of those (`[ ... ]`, which may span lines, with comments and a
  trailing comma);
- `[table]` and `[[array-of-tables]]` headers with bare names (no dotted names);
- comments from `#` to the end of a line, and blank lines.

Everything else TOML has (multi-line strings, inline tables, dotted keys, dates) is an error with
the file and line, never a silent misreading. On the records, it agrees with tomllib (a test
checks it where tomllib exists).
"""

import re

__all__ = ["TomlError", "loads"]

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_NUMBER = re.compile(r"[+-]?(?:0|[1-9](?:_?[0-9])*)(\.[0-9](?:_?[0-9])*)?([eE][+-]?[0-9](?:_?[0-9])*)?")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class TomlError(ValueError):
    """A record that is not in the subset: the message starts with file:line."""


def loads(text, source="<string>"):
    """The document `text` as a dict: tables are dicts, arrays of tables lists of dicts."""
    return _Parser(text, source).document()


class _Parser:
    def __init__(self, text, source):
        self.s, self.i, self.source = text, 0, source

    def fail(self, message):
        line = self.s.count("\n", 0, min(self.i, len(self.s))) + 1
        raise TomlError(f"{self.source}:{line}: {message}")

    def peek(self, n=1):
        return self.s[self.i:self.i + n]

    def spaces(self):
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def comment(self):
        if self.peek() == "#":
            while self.i < len(self.s) and self.s[self.i] != "\n":
                self.i += 1

    def blanks(self):
        """Spaces, newlines and comments (between lines, and inside arrays)."""
        while True:
            self.spaces()
            self.comment()
            if self.peek(2) == "\r\n":
                self.i += 2
            elif self.peek() == "\n":
                self.i += 1
            else:
                return

    def end_of_line(self):
        self.spaces()
        self.comment()
        if self.i >= len(self.s):
            return
        if self.peek(2) == "\r\n":
            self.i += 2
        elif self.peek() == "\n":
            self.i += 1
        else:
            self.fail(f"expected the end of the line, found {self.rest()!r}")

    def rest(self):
        end = self.s.find("\n", self.i)
        return self.s[self.i:end if end >= 0 else len(self.s)].strip()

    def key(self, what="a key"):
        m = _BARE.match(self.s, self.i)
        if not m:
            self.fail(f"expected {what} (letters, digits, _ and -), found {self.rest()!r}")
        self.i = m.end()
        if self.peek() == ".":
            self.fail("dotted keys are not part of the records' TOML subset")
        return m.group()

    def document(self):
        root, current, arrays = {}, None, set()
        current = root
        while True:
            self.blanks()
            if self.i >= len(self.s):
                return root
            if self.peek(2) == "[[":
                self.i += 2
                self.spaces()
                name = self.key("a table name")
                self.spaces()
                if self.peek(2) != "]]":
                    self.fail(f"[[{name} needs a closing ]]")
                self.i += 2
                if name in root and name not in arrays:
                    self.fail(f"[[{name}]]: '{name}' is already defined")
                arrays.add(name)
                current = {}
                root.setdefault(name, []).append(current)
            elif self.peek() == "[":
                self.i += 1
                self.spaces()
                name = self.key("a table name")
                self.spaces()
                if self.peek() != "]":
                    self.fail(f"[{name} needs a closing ]")
                self.i += 1
                if name in root:
                    self.fail(f"[{name}]: '{name}' is already defined")
                current = root[name] = {}
            else:
                name = self.key()
                self.spaces()
                if self.peek() != "=":
                    self.fail(f"expected '=' after the key '{name}'")
                self.i += 1
                self.spaces()
                value = self.value()
                if name in current:
                    self.fail(f"the key '{name}' is defined twice")
                current[name] = value
            self.end_of_line()

    def value(self):
        c = self.peek()
        if c == '"':
            if self.peek(3) == '"""':
                self.fail('multi-line strings (""") are not part of the subset')
            return self.basic_string()
        if c == "'":
            if self.peek(3) == "'''":
                self.fail("multi-line strings (''') are not part of the subset")
            end = self.s.find("'", self.i + 1)
            newline = self.s.find("\n", self.i + 1)
            if end < 0 or (0 <= newline < end):
                self.fail("a literal string ('...') must end on its line")
            text = self.s[self.i + 1:end]
            self.i = end + 1
            return text
        if c == "[":
            return self.array()
        if c == "{":
            self.fail("inline tables ({...}) are not part of the subset")
        for word, value in (("true", True), ("false", False)):
            if self.s.startswith(word, self.i) and not _BARE.match(self.s, self.i + len(word)):
                self.i += len(word)
                return value
        m = _NUMBER.match(self.s, self.i)
        if m and m.end() > self.i and not _BARE.match(self.s, m.end()) and \
                self.s[m.end():m.end() + 1] not in (".", ":"):
            self.i = m.end()
            text = m.group().replace("_", "")
            return float(text) if (m.group(1) or m.group(2)) else int(text)
        self.fail(f"a value must be a string, a number, true, false or an array; found "
                  f"{self.rest()!r}")

    def basic_string(self):
        self.i += 1
        out = []
        while True:
            if self.i >= len(self.s) or self.s[self.i] == "\n":
                self.fail('a string ("...") must end on its line')
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                return "".join(out)
            if c == "\\":
                e = self.s[self.i + 1:self.i + 2]
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                    self.i += 2
                elif e in ("u", "U"):
                    width = 4 if e == "u" else 8
                    digits = self.s[self.i + 2:self.i + 2 + width]
                    if not re.fullmatch(r"[0-9A-Fa-f]{%d}" % width, digits):
                        self.fail(f"\\{e} needs {width} hexadecimal digits")
                    out.append(chr(int(digits, 16)))
                    self.i += 2 + width
                else:
                    self.fail(f"unknown escape \\{e} in a string")
            elif ord(c) < 0x20 and c != "\t" or c == "\x7f":
                self.fail("a control character in a string (write it as an escape)")
            else:
                out.append(c)
                self.i += 1

    def array(self):
        self.i += 1
        items = []
        while True:
            self.blanks()
            if self.peek() == "]":
                self.i += 1
                return items
            if self.i >= len(self.s):
                self.fail("an array ([...]) is never closed")
            items.append(self.value())
            self.blanks()
            if self.i >= len(self.s):
                self.fail("an array ([...]) is never closed")
            if self.peek() == ",":
                self.i += 1
            elif self.peek() == "]":
                self.i += 1
                return items
            else:
                self.fail(f"expected ',' or ']' in an array, found {self.rest()!r}")
