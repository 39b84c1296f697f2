#!/usr/bin/env bash
# Quick start, part two: set everything up and run the whole test suite
# (lit + FileCheck through the plugin and the CLI, integration tests on the
# real LibTorch headers). Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
cmake --build build --target check
