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

# The same bug at run time, on this CPU: the buggy program under the fake
# CUDA device stops at the host read devplace reported.
fakecuda="$build/runtime/libdevplace_fakecuda.so"
if [[ -f "$fakecuda" && -x "$build/examples/celeba_train_buggy" ]]; then
  echo
  echo "== train_buggy on the fake CUDA device (LD_PRELOAD=$fakecuda) =="
  data="$(mktemp -d)"
  "$build/examples/make_fake_celeba" "$data" 200 1 > /dev/null
  status=0
  LD_PRELOAD="$fakecuda" "$build/examples/celeba_train_buggy" --data "$data" --out "$data/out" --device cuda \
    --epochs 1 --train-size 96 --valid-size 32 --batch-size 16 > "$data/log" 2>&1 || status=$?
  # The backtrace's first frame is the program's line; the rest is libc.
  grep -v '^  #[1-9]' "$data/log"
  rm -rf "$data"
  # 86: the fake device stopped a host read of device memory, as it should.
  if [[ $status -ne 86 ]]; then
    echo "unexpected: train_buggy exited with status $status on the fake CUDA device" >&2
    exit 1
  fi
fi
