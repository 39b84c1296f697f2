#!/usr/bin/env bash
# Installs what devplace needs from Debian 12's packages (when missing) and
# builds it. Run as root, or as a user with sudo.
#   scripts/setup.sh                 the tools and the example's dependencies
#   scripts/setup.sh --tests         also what the test suite needs
#   scripts/setup.sh --llvm NN       build against LLVM/Clang NN (16, 19 or 22
#                                    are tested; default 19)
#   scripts/setup.sh --build DIR     build into DIR (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0
llvm=19
build=build
while (($#)); do
  case "$1" in
    --tests) tests=1 ;;
    --llvm) llvm="${2:?--llvm needs a version, e.g. --llvm 22}"; shift ;;
    --build) build="${2:?--build needs a directory}"; shift ;;
    *) echo "devplace setup: unknown option '$1' (options: --tests, --llvm NN, --build DIR)" >&2
       exit 2 ;;
  esac
  shift
done
if ! [[ "$llvm" =~ ^[0-9]+$ ]] || ((llvm < 16)); then
  echo "devplace setup: --llvm takes a major version of 16 or newer (16, 19 and 22 are tested), not '$llvm'" >&2
  exit 2
fi

# clangd's libraries (in libclang-NN-dev) need gRPC, protobuf and abseil to
# link devplace-clangd.
packages=(cmake ninja-build python3 "clang-$llvm" "clang-tidy-$llvm" "llvm-$llvm-dev"
          "libclang-$llvm-dev" "llvm-$llvm-tools" libtorch-dev libopencv-dev
          libgrpc++-dev libprotobuf-dev libabsl-dev)
if ((tests)); then
  # GoogleTest for the runtime's and the model's unit tests, clang-format
  # (the project formats with 19's) for the format check, gnuplot for the
  # curves, a clang-tidy of another version to test that the plugin refuses
  # it, clang's sanitizer runtimes, git, pre-commit and Neovim for the
  # recipes, and Node.js for the SARIF validator and the Language Server
  # Protocol test.
  packages+=(libgtest-dev clang-format-19 clang-tidy-14 gnuplot-nox "libclang-rt-$llvm-dev" git pre-commit neovim)
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

# A build directory configured for another LLVM starts over.
if [[ -f "$build/CMakeCache.txt" ]] &&
   ! grep -qx "DEVPLACE_LLVM_VERSION:STRING=$llvm" "$build/CMakeCache.txt"; then
  echo "devplace setup: $build/ was configured for another LLVM; reconfiguring it for LLVM $llvm"
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDEVPLACE_LLVM_VERSION="$llvm" \
      -DDEVPLACE_NODE_MODULES="$PWD/build/node/node_modules" >/dev/null
cmake --build "$build"

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
