#!/usr/bin/env bash
# Quick start, part two: set everything up and run the whole test suite
# (lit + FileCheck through the plugin and the CLI, integration tests on the
# real LibTorch headers). Exits non-zero when any test fails.
#   scripts/test.sh                          LLVM 19, in build/
#   scripts/test.sh --llvm 22 --build DIR    another LLVM, in its own build
#   scripts/test.sh --libtorch pip           the real-header tests on LibTorch 2.13
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-dir.sh "$@"
scripts/setup.sh --tests "$@"
cmake --build "$build" --target check
