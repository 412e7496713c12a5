#!/usr/bin/env bash
# make setup: install the system packages the course builds with, idempotently.
# Says what it found, what it installed, and on a system without apt what to install by hand.
#   setup.sh        everything: the build, the tests, the book and inotifywait (make watch)
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

core=()  # needed to configure and build: setup fails without them
if [ "$only_book" -eq 0 ]; then
  have_cmake || core+=(cmake)
  command -v make >/dev/null 2>&1 || core+=(make)
  command -v g++ >/dev/null 2>&1 || core+=(g++)
  have_header eigen3/Eigen/Dense || core+=(libeigen3-dev)
  have_catch2 || core+=(catch2)
fi
command -v python3 >/dev/null 2>&1 || core+=(python3)
book=()  # needed by the book (and its test): without them `make book` cannot run
command -v doxygen >/dev/null 2>&1 || book+=(doxygen)
command -v dot >/dev/null 2>&1 || book+=(graphviz)
[ -f /usr/share/javascript/mathjax/MathJax.js ] || book+=(libjs-mathjax)
[ -f /usr/share/doxygen-awesome-css/doxygen-awesome.css ] || book+=(doxygen-awesome-css)
have_matplotlib || book+=(python3-matplotlib)
# The book's browser test reads every chapter in headless Chromium through Selenium (Debian's
# python3-selenium serves /usr/bin/python3; book/browser.py finds it there).
have_selenium() { /usr/bin/python3 -c 'import selenium' >/dev/null 2>&1; }
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || book+=(chromium)
command -v chromedriver >/dev/null 2>&1 || [ -x /usr/bin/chromedriver ] || book+=(chromium-driver)
have_selenium || book+=(python3-selenium)
[ "$only_book" -eq 1 ] && { core+=("${book[@]}"); book=(); }
watch=()  # `make watch` waits for saves with inotifywait; without it, it polls
[ "$only_book" -eq 0 ] && ! command -v inotifywait >/dev/null 2>&1 && watch+=(inotify-tools)
# A save's build through Ninja finds what changed in about 0.1 s where CMake's Makefiles take about
# a second; without it the build uses make.
[ "$only_book" -eq 0 ] && ! command -v ninja >/dev/null 2>&1 && watch+=(ninja-build)

# install PACKAGES...: apt-get install, refreshing the package lists once if that fails.
install() {
  local sudo=""
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: this system has no apt; install yourself: $*" >&2
    return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup: not root and no sudo; as root run: apt-get install -y $*" >&2
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! $sudo apt-get install -y --no-install-recommends "$@" >/tmp/course-setup-apt.log 2>&1; then
    $sudo apt-get update -q >>/tmp/course-setup-apt.log 2>&1 || true
    if ! $sudo apt-get install -y --no-install-recommends "$@" >>/tmp/course-setup-apt.log 2>&1; then
      echo "setup: apt-get install $* failed; see /tmp/course-setup-apt.log" >&2
      tail -n 5 /tmp/course-setup-apt.log >&2
      return 1
    fi
  fi
  echo "setup: installed $*"
}

if [ ${#core[@]} -gt 0 ]; then
  echo "setup: installing ${core[*]}"
  if ! install "${core[@]}"; then
    echo "setup: needed: CMake >= 3.24, a C++17 compiler, Python 3, Eigen 3.4 (headers)," >&2
    echo "  Catch2 2.13 or 3.x, and the CUDA toolkit 12.x or 13.x; for the book Doxygen, Graphviz," >&2
    echo "  MathJax 2, doxygen-awesome-css, matplotlib, Chromium, chromedriver and Selenium." >&2
    exit 1
  fi
  if [ "$only_book" -eq 0 ] && ! have_cmake; then
    echo "setup: the packaged CMake is older than 3.24; install a newer one (pip install cmake)" >&2
    exit 1
  fi
fi
if [ ${#book[@]} -gt 0 ]; then
  echo "setup: installing the book's packages: ${book[*]}"
  install "${book[@]}" ||
    echo "setup: carrying on without them: everything but the book works (its test is skipped)" >&2
fi
if [ ${#watch[@]} -gt 0 ]; then
  echo "setup: installing ${watch[*]} (faster saves: inotify-tools for make watch, ninja-build)"
  install "${watch[@]}" ||
    echo "setup: carrying on without them: make watch polls for changes, the build uses make" >&2
fi
if [ ${#core[@]} -eq 0 ] && [ ${#book[@]} -eq 0 ] && [ ${#watch[@]} -eq 0 ]; then
  if [ "$only_book" -eq 1 ]; then
    echo "setup: everything the book needs present (Doxygen, Graphviz, MathJax, doxygen-awesome-css, matplotlib," \
      "Chromium, chromedriver, Selenium)"
  else
    echo "setup: everything present (CMake >= 3.24, make, g++, Python 3, Eigen, Catch2, inotifywait, ninja;" \
      "for the book Doxygen, Graphviz, MathJax, doxygen-awesome-css, matplotlib, Chromium, Selenium)"
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
