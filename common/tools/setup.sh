#!/usr/bin/env bash
# make setup: install the system packages the course builds with, idempotently.
# Says what it found, what it installed, and on a system without apt what to install by hand.
set -euo pipefail

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

missing=()
have_cmake || missing+=(cmake)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
have_header eigen3/Eigen/Dense || missing+=(libeigen3-dev)
have_catch2 || missing+=(catch2)

if ! command -v apt-get >/dev/null 2>&1 && [ ${#missing[@]} -gt 0 ]; then
  echo "setup: missing ${missing[*]}, and this system has no apt. Install them yourself:"
  echo "  CMake >= 3.24, a C++17 compiler, Python 3, Eigen 3.4 (headers), Catch2 2.13 or 3.x,"
  echo "  and the CUDA toolkit (nvcc, cuBLAS) 12.x or 13.x; then run make again."
  exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: everything present (CMake >= 3.24, make, g++, Python 3, Eigen, Catch2)"
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
  if ! have_cmake; then
    echo "setup: the packaged CMake is older than 3.24; install a newer one (pip install cmake)" >&2
    exit 1
  fi
fi

# The CUDA toolkit is not an apt package we can choose for you: check it and say what to do.
nvcc_bin=$(command -v nvcc || true)
[ -z "$nvcc_bin" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc_bin=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc_bin" ]; then
  echo "setup: no CUDA toolkit found (nvcc). Install CUDA 12.x or 13.x from NVIDIA and put nvcc on PATH." >&2
  exit 1
fi
echo "setup: CUDA toolkit $("$nvcc_bin" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $(dirname "$nvcc_bin")"
