#!/usr/bin/env bash
# make setup: install the system packages the course builds with, idempotently.
# Says what it found, what it installed, and on a system without apt what to install by hand.
set -euo pipefail

# Debian 12 / Ubuntu 24.04 package names. catch2 is 2.13 on Debian 12 and 3.x on Ubuntu 24.04;
# the tests build with either.
packages=(cmake make g++ python3 libeigen3-dev catch2)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      :
    else
      missing+=("$p")
    fi
  done
else
  echo "setup: this system has no dpkg/apt. Install these yourself, then run make again:"
  echo "  CMake >= 3.24, a C++17 compiler, Python 3, Eigen 3.4 (headers), Catch2 2.13 or 3.x,"
  echo "  and the CUDA toolkit (nvcc, cuBLAS) 12.x or 13.x."
  exit 0
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: system packages present (${packages[*]})"
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
fi

# The CUDA toolkit is not an apt package we can choose for you: check it and say what to do.
nvcc_bin=$(command -v nvcc || true)
[ -z "$nvcc_bin" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc_bin=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc_bin" ]; then
  echo "setup: no CUDA toolkit found (nvcc). Install CUDA 12.x or 13.x from NVIDIA and put nvcc on PATH." >&2
  exit 1
fi
echo "setup: CUDA toolkit $("$nvcc_bin" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $(dirname "$nvcc_bin")"
