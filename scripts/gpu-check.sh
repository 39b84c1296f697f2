#!/usr/bin/env bash
# The smile-classifier example on a real GPU, in one run, for a machine with
# an NVIDIA GPU, PyTorch under python3, CMake, Ninja and a C++ compiler (no
# LLVM, no OpenCV, nothing installed):
#   1. builds the example on its own against that PyTorch's LibTorch
#      (find_package(Torch) with torch.utils.cmake_prefix_path);
#   2. trains the fixed example on CUDA: its validation accuracy must pass
#      the threshold, and it reads metrics to the host a constant number of
#      times per epoch;
#   3. runs the buggy example and records what its host read of the device
#      accuracy history does (a crash, or garbage);
#   4. runs the original Python program as written (its accuracy history,
#      device tensors, handed to matplotlib) and the fixed Python variant,
#      and times an epoch of each against the C++ example;
#   5. writes report.txt (and curves.png where gnuplot or matplotlib is
#      there) under the output folder;
#   6. builds the fake CUDA device's scenarios (test/runtime/fakecuda_rules)
#      and runs them on the GPU: each must end as it ends on the fake device.
# Exits non-zero when the fixed example fails or misses its threshold, or a
# scenario ends otherwise than on the fake device.
#
#   scripts/gpu-check.sh [--dry-run] [--out DIR] [--python PY]
#
# --dry-run does the same on the CPU with a smaller dataset, so that the
# script is known to work before it meets a GPU. --out defaults to $OUT
# (the device machine's result folder) or ./gpu-check-out.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dry=0
out="${OUT:-$root/gpu-check-out}"
py=python3
while (($#)); do
  case "$1" in
    --dry-run) dry=1 ;;
    --out) out="${2:?--out needs a directory}"; shift ;;
    --python) py="${2:?--python needs an interpreter}"; shift ;;
    *) echo "gpu-check: unknown option '$1' (options: --dry-run, --out DIR, --python PY)" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
work="$out/work"
report="$out/report.txt"
: > "$report"
say() { echo "$*" | tee -a "$report"; }
fail() { say "gpu-check: $*"; exit 1; }

if ((dry)); then
  device=cpu images=600 train=480 valid=60 epochs=2 threshold=0  # mechanics only: too few images to learn
else
  device=cuda images=6000 train=4800 valid=600 epochs=5 threshold=0.75
fi
say "gpu-check $(date -u +%FT%TZ) device=$device dry_run=$dry"
"$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")' 2>&1 | tee -a "$report" ||
  fail "$py cannot import torch"
if ((!dry)) && ! "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)'; then
  fail "no CUDA device visible to PyTorch (use --dry-run on a CPU machine)"
fi

# 1. The example on its own, as users build LibTorch programs.
prefix="$("$py" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')" || fail "no torch.utils.cmake_prefix_path"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
start=$SECONDS
# The torch folder itself is a prefix too: TorchConfig.cmake finds its
# libraries with the system's paths first, and a system LibTorch there
# (Debian's) would be linked with this one's headers.
cmake -S examples -B "$work/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix/../..;$prefix" > "$work.cmake.log" 2>&1 &&
  cmake --build "$work/build" -j "$(nproc)" >> "$work.cmake.log" 2>&1 ||
  { tail -30 "$work.cmake.log" >> "$report"; fail "the example does not build (see $work.cmake.log)"; }
say "built the example against $prefix in $((SECONDS - start)) s"
bin="$work/build"

"$bin/make_fake_celeba" "$work/data" "$images" 1 >/dev/null || fail "make_fake_celeba failed"

# 2. The fixed example.
args=(--data "$work/data" --device "$device" --epochs "$epochs" --train-size "$train"
      --valid-size "$valid" --batch-size 32)
"$bin/celeba_train" "${args[@]}" --out "$out/cxx" > "$work/cxx.txt" 2>&1
rc=$?
grep -E "^epoch|^test" "$work/cxx.txt" | tee -a "$report"
((rc == 0)) || { tail -20 "$work/cxx.txt" >> "$report"; fail "the fixed example exited with $rc"; }
last_valid=$(grep -oE "validation accuracy: [0-9.]+" "$work/cxx.txt" | tail -1 | awk '{print $3}')
reads=$(grep -oE "\(([0-9]+) host reads" "$work/cxx.txt" | grep -oE "[0-9]+" | sort -u | tr '\n' ' ')
cxx_epoch=$(grep -oE "host reads, [0-9.]+ s\)" "$work/cxx.txt" | tail -1 | grep -oE "[0-9.]+")
say "fixed example: last validation accuracy $last_valid (threshold $threshold), host reads per epoch: $reads, last epoch $cxx_epoch s"
awk -v a="$last_valid" -v t="$threshold" 'BEGIN { exit !(a >= t) }' ||
  fail "validation accuracy $last_valid is below $threshold"
[[ "$reads" =~ ^[0-9]+\ $ ]] || fail "host reads per epoch are not constant: $reads"

# 3. The buggy example: its plot reads the device accuracy through data_ptr.
"$bin/celeba_train_buggy" "${args[@]}" --epochs 1 --out "$out/buggy" > "$work/buggy.txt" 2>&1
rc=$?
say "buggy example: exit status $rc$( ((rc > 128)) && echo " (signal $((rc - 128)))")"
tail -5 "$work/buggy.txt" | sed 's/^/  /' | tee -a "$report"

# 4. The Python original as written, and fixed, on the same data.
pyargs=(--device "$device" --epochs 2 --train-size "$train" --valid-size "$valid")
if "$py" -c 'import matplotlib, PIL, numpy' 2>/dev/null; then
  "$py" bench/smile_original.py "$work/data" "$out/py-as-written" "${pyargs[@]}" --as-written \
      > "$work/py-as-written.txt" 2>&1
  say "Python original as written: exit status $?"
  tail -3 "$work/py-as-written.txt" | sed 's/^/  /' | tee -a "$report"
  "$py" bench/smile_original.py "$work/data" "$out/py-fixed" "${pyargs[@]}" --host-metrics \
      > "$work/py-fixed.txt" 2>&1
  rc=$?
  grep "^epoch" "$work/py-fixed.txt" | sed 's/^/  /' | tee -a "$report"
  py_epoch=$(grep -oE "seconds [0-9.]+" "$work/py-fixed.txt" | tail -1 | awk '{print $2}')
  say "Python fixed: exit status $rc, last epoch $py_epoch s; C++ fixed: $cxx_epoch s (the C++ epoch of $epochs, Python's of 2)"
else
  say "Python programs skipped: $py has no matplotlib, PIL or numpy"
fi

# 5. The curves: the example's gnuplot PNG, or matplotlib from its CSV.
if [[ -f "$out/cxx/curves.png" ]]; then
  cp "$out/cxx/curves.png" "$out/curves.png"
elif "$py" -c 'import matplotlib' 2>/dev/null; then
  "$py" - "$out/cxx/curves.csv" "$out/curves.png" <<'EOF'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = list(csv.DictReader(open(sys.argv[1])))
cols = list(rows[0].keys())
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
for ax, kind in zip(axes, ("loss", "acc")):
    for c in cols[1:]:
        if kind in c:
            ax.plot([float(r[cols[0]]) for r in rows], [float(r[c]) for r in rows], "-o", label=c)
    ax.legend()
fig.savefig(sys.argv[2])
EOF
fi
[[ -f "$out/curves.png" ]] && say "curves: $out/curves.png"

# 6. The fake CUDA device's scenarios on this device: every outcome (ran or
# stopped, each operation ran or threw) must be the fake device's, checked
# in as test/runtime/fakecuda-outcomes.txt; a difference is a bug in the
# fake device (or, on --dry-run, the CPU's own answers).
cmake -S test/runtime/fakecuda-rules-standalone -B "$work/rules" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix/../..;$prefix" > "$work.rules.log" 2>&1 &&
  cmake --build "$work/rules" -j "$(nproc)" >> "$work.rules.log" 2>&1 ||
  { tail -30 "$work.rules.log" >> "$report"; fail "fakecuda_rules does not build (see $work.rules.log)"; }
"$py" test/runtime/fakecuda_outcomes.py "$work/rules/fakecuda-rules" > "$work/outcomes.txt" 2>&1
if diff test/runtime/fakecuda-outcomes.txt "$work/outcomes.txt" > "$work/outcomes.diff"; then
  say "fake CUDA scenarios: every outcome on $device is the fake device's"
else
  say "fake CUDA scenarios: outcomes differ (< fake device, > $device):"
  sed 's/^/  /' "$work/outcomes.diff" | tee -a "$report"
  ((dry)) || fail "the fake CUDA device disagrees with the GPU"
fi
say "gpu-check: ok"
