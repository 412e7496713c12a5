#!/usr/bin/env bash
# make setup: install the system packages the course builds with, idempotently.
# Says what it found, what it installed, and on a system without apt what to install by hand.
#   setup.sh        everything: the build, the tests and the book
#   setup.sh book   only what `make book` needs (no CUDA toolkit required)
set -euo pipefail
only_book=0
[ "${1:-}" = "book" ] && only_book=1

# What the course needs, each with a probe and the Debian/Ubuntu package that provides it.
# A tool already present some other way (CMake from pip, say) counts as present.
# catch2 is 2.13 on Debian 12 and 3.x on Ubuntu 24.04; the tests build with either.
have_cmake() {
  command -v cmake >/dev/null 2>&1 || return 1
  local v
  v=$(cmake --version | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  set -- $v
  [ "${1:-0}" -gt 3 ] || { [ "${1:-0}" -eq 3 ] && [ "${2:-0}" -ge 24 ]; }
}
have_header() { for d in /usr/include /usr/local/include; do [ -e "$d/$1" ] && return 0; done; return 1; }
have_catch2() { have_header catch2/catch.hpp || have_header catch2/catch_test_macros.hpp; }

# The book (`make book`): Doxygen, Graphviz, the local MathJax 2, the doxygen-awesome theme, and
# matplotlib for the charts. matplotlib counts as present when the `python3` on PATH or the
# system's /usr/bin/python3 imports it (python3-matplotlib serves /usr/bin/python3 only; a pyenv
# or venv python3 does not see it, and book/build.py looks for one that does).
have_matplotlib() {
  local py
  for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 && "$py" -c 'import matplotlib' >/dev/null 2>&1 && return 0
  done
  return 1
}

missing=()
if [ "$only_book" -eq 0 ]; then
  have_cmake || missing+=(cmake)
  command -v make >/dev/null 2>&1 || missing+=(make)
  command -v g++ >/dev/null 2>&1 || missing+=(g++)
  have_header eigen3/Eigen/Dense || missing+=(libeigen3-dev)
  have_catch2 || missing+=(catch2)
fi
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v doxygen >/dev/null 2>&1 || missing+=(doxygen)
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
[ -f /usr/share/javascript/mathjax/MathJax.js ] || missing+=(libjs-mathjax)
[ -f /usr/share/doxygen-awesome-css/doxygen-awesome.css ] || missing+=(doxygen-awesome-css)
have_matplotlib || missing+=(python3-matplotlib)

if ! command -v apt-get >/dev/null 2>&1 && [ ${#missing[@]} -gt 0 ]; then
  echo "setup: missing ${missing[*]}, and this system has no apt. Install them yourself:"
  echo "  CMake >= 3.24, a C++17 compiler, Python 3, Eigen 3.4 (headers), Catch2 2.13 or 3.x,"
  echo "  and the CUDA toolkit (nvcc, cuBLAS) 12.x or 13.x; for the book Doxygen, Graphviz,"
  echo "  MathJax 2 (/usr/share/javascript/mathjax), doxygen-awesome-css"
  echo "  (/usr/share/doxygen-awesome-css) and matplotlib (pip install matplotlib); then run make again."
  exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
  if [ "$only_book" -eq 1 ]; then
    echo "setup: everything the book needs present (Doxygen, Graphviz, MathJax, doxygen-awesome-css, matplotlib)"
  else
    echo "setup: everything present (CMake >= 3.24, make, g++, Python 3, Eigen, Catch2; for the book" \
      "Doxygen, Graphviz, MathJax, doxygen-awesome-css, matplotlib)"
  fi
else
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup: not root and no sudo; as root run: apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/course-setup-apt.log 2>&1; then
    # The package lists may be stale or absent on a fresh machine.
    $sudo apt-get update -q >>/tmp/course-setup-apt.log 2>&1 || true
    if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/course-setup-apt.log 2>&1; then
      echo "setup: apt-get install failed; see /tmp/course-setup-apt.log" >&2
      tail -n 20 /tmp/course-setup-apt.log >&2
      exit 1
    fi
  fi
  echo "setup: installed ${missing[*]}"
  if [ "$only_book" -eq 0 ] && ! have_cmake; then
    echo "setup: the packaged CMake is older than 3.24; install a newer one (pip install cmake)" >&2
    exit 1
  fi
fi

[ "$only_book" -eq 1 ] && exit 0

# The CUDA toolkit is not an apt package we can choose for you: check it and say what to do.
nvcc_bin=$(command -v nvcc || true)
[ -z "$nvcc_bin" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc_bin=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc_bin" ]; then
  echo "setup: no CUDA toolkit found (nvcc). Install CUDA 12.x or 13.x from NVIDIA and put nvcc on PATH." >&2
  exit 1
fi
echo "setup: CUDA toolkit $("$nvcc_bin" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $(dirname "$nvcc_bin")"
