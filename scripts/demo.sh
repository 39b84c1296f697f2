#!/usr/bin/env bash
# Quick start, part one: set everything up, then run devplace on the bundled
# buggy training example and print what it finds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo
echo "== devplace on examples/celeba_smile/train_buggy.cpp =="
status=0
build/tool/devplace examples/celeba_smile/train_buggy.cpp -- \
  -std=c++17 -I/usr/include/torch/csrc/api/include -I/usr/include/opencv4 \
  -Iruntime/include || status=$?
# Exit status 1 means devplace reported findings, as it should here.
if [[ $status -ne 1 ]]; then
  echo "unexpected: devplace exited with status $status on the buggy example" >&2
  exit 1
fi
echo
echo "The fixed version, examples/celeba_smile/train.cpp, is clean:"
build/tool/devplace examples/celeba_smile/train.cpp -- \
  -std=c++17 -I/usr/include/torch/csrc/api/include -I/usr/include/opencv4 \
  -Iruntime/include
