#!/usr/bin/env bash
# The test suite again on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/): the lit suite, the mutation
# sample among it, against LLVM 19. Expects scripts/setup.sh --tests to have run (CI runs
# scripts/test.sh first). Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDEVPLACE_SANITIZE=ON \
      -DDEVPLACE_LLVM_VERSION=19 \
      -DDEVPLACE_NODE_MODULES="$PWD/build/node/node_modules" >/dev/null
cmake --build build-asan --target check
