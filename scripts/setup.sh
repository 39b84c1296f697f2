#!/usr/bin/env bash
# Installs what devplace needs from Debian 12's packages (when missing) and
# builds it into build/. Run as root, or as a user with sudo.
#   scripts/setup.sh          the tools and the example's dependencies
#   scripts/setup.sh --tests  also what the test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."

# clangd's libraries (in libclang-19-dev) need gRPC, protobuf and abseil to
# link devplace-clangd.
packages=(cmake ninja-build python3 clang-19 clang-tidy-19 llvm-19-dev
          libclang-19-dev llvm-19-tools libtorch-dev libopencv-dev
          libgrpc++-dev libprotobuf-dev libabsl-dev)
tests=0
[[ "${1:-}" == "--tests" ]] && tests=1
if ((tests)); then
  # GoogleTest for the runtime's and the model's unit tests, clang-format
  # for the format check, gnuplot for the curves, a
  # clang-tidy of another version to test that the plugin refuses it,
  # clang's sanitizer runtimes, git, pre-commit and Neovim for the recipes,
  # and Node.js for the SARIF validator and the
  # Language Server Protocol test.
  packages+=(libgtest-dev clang-format-19 clang-tidy-14 gnuplot-nox libclang-rt-19-dev git pre-commit neovim)
  command -v npm >/dev/null || packages+=(nodejs npm)
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

if ((tests)); then
  # From the npm registry, pinned: Microsoft's SARIF multitool validates the
  # SARIF the CLI writes; vscode-jsonrpc speaks LSP to devplace-clangd.
  if [[ ! -x build/node/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ||
        ! -d build/node/node_modules/vscode-jsonrpc ]]; then
    echo "devplace setup: installing the test suite's npm packages into build/node"
    mkdir -p build/node
    npm install --prefix build/node --no-audit --no-fund --silent \
        @microsoft/sarif-multitool@5.7.0 vscode-jsonrpc@8.2.1 >/dev/null
    # npm no longer runs the package's postinstall (chmod u+x) by default.
    chmod u+x build/node/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
  fi
fi
