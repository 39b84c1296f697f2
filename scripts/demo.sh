#!/usr/bin/env bash
# Quick start, part one: set everything up, then run devplace on the bundled
# buggy training example and print what it finds. Takes setup.sh's options
# (--llvm NN, --build DIR, --libtorch debian|pip|DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-dir.sh "$@"
scripts/setup.sh "$@"
# The flags that parse the LibTorch headers the build was configured with.
read -r -a torch_flags < "$build/libtorch.flags"
flags=("${torch_flags[@]}" -Iruntime/include)
echo
echo "== devplace on examples/celeba_smile/train_buggy.cpp =="
status=0
"$build/tool/devplace" examples/celeba_smile/train_buggy.cpp -- "${flags[@]}" || status=$?
# Exit status 1 means devplace reported findings, as it should here.
if [[ $status -ne 1 ]]; then
  echo "unexpected: devplace exited with status $status on the buggy example" >&2
  exit 1
fi
echo
echo "The fixed version, examples/celeba_smile/train.cpp, is clean:"
"$build/tool/devplace" examples/celeba_smile/train.cpp -- "${flags[@]}"
