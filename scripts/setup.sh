#!/usr/bin/env bash
# Installs what devplace needs from Debian 12's packages (when missing) and
# builds it into build/. Run as root, or as a user with sudo.
#   scripts/setup.sh          the tools and the example's dependencies
#   scripts/setup.sh --tests  also what the test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build python3 clang-19 clang-tidy-19 llvm-19-dev
          libclang-19-dev llvm-19-tools libtorch-dev libopencv-dev)
if [[ "${1:-}" == "--tests" ]]; then
  # GoogleTest for the runtime's unit tests, gnuplot for the curves, and a
  # clang-tidy of another version to test that the plugin refuses it.
  packages+=(libgtest-dev clang-tidy-14 gnuplot-nox)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "devplace setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
