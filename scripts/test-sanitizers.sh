#!/usr/bin/env bash
# The test suite again on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/): the lit suite, the mutation
# sample among it, against LLVM 19, less the example's training runs and
# the metamorphic runs over every site of one input. Expects scripts/setup.sh --tests to have run (CI runs
# scripts/test.sh first). Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDEVPLACE_SANITIZE=ON \
      -DDEVPLACE_LLVM_VERSION=19 \
      -DDEVPLACE_NODE_MODULES="$PWD/build/node/node_modules" >/dev/null
# The example's training runs (5 epochs on the CPU, 1 on the fake CUDA
# device) exercise LibTorch more than devplace's code: the runtime's own
# tests cover the fake device here, and the runs themselves are in the
# uninstrumented suite. The metamorphic runs over every site of one or two
# inputs (moves, opaque) hold the model to its properties, which the
# uninstrumented suite asks; the metamorphic and mutation samples run here.
export LIT_OPTS="${LIT_OPTS:---filter-out=example/(training|fakecuda)|robustness/metamorphic-(moves|opaque)}"
cmake --build build-asan --target check
