#!/usr/bin/env python3
"""The epoch benchmark of the smile-classifier example: one epoch of the
fixed C++ example against the original Python program (bench/smile_original.py)
on the same generated CelebA-format data, on the CPU,
and the host-device synchronisations per epoch of each, at two training-set
sizes (the original syncs on every batch; the fixed example a constant number
of times per epoch).

Each program runs two epochs; the second epoch's time is reported (the
first includes warm-up). The C++ example uses one LibTorch intra-op thread per
core; the Python original, run as written, keeps Debian's default of one. A
last row runs the C++ example with --threads 1 for the like-for-like figure.

Like for like, both on one torch: the example built against PyPI's torch
2.13 (scripts/setup.sh --libtorch pip) and the Python original run by that
virtual environment's Python (--python, default build/libtorch-pip/bin/python),
with matplotlib and Pillow installed into it:
  build/libtorch-pip/bin/pip install matplotlib==3.10.9 pillow==11.3.0
--python /usr/bin/python3 runs it on Debian's python3-torch (1.13) instead.

usage: bench/epoch.py [--build build] [--python PY] [--device cpu] [--markdown]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{out.stderr}")
    return out.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--python", default=os.path.join(ROOT, "build", "libtorch-pip", "bin", "python"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    probe = subprocess.run([args.python, "-c", "import torch, matplotlib, PIL; print(torch.__version__)"],
                           capture_output=True, text=True) if os.path.exists(args.python) else None
    if not probe or probe.returncode != 0:
        sys.exit(f"bench: {args.python} cannot import torch, matplotlib and PIL; see bench/epoch.py's usage")
    print(f"bench: Python original on torch {probe.stdout.strip()}", file=sys.stderr)
    examples = os.path.join(args.build, "examples")
    tmp = tempfile.mkdtemp(prefix="devplace-epoch-")
    data = os.path.join(tmp, "data")
    run([os.path.join(examples, "make_fake_celeba"), data, "2400", "1"])

    rows = []
    for train_size in (960, 1920):
        cxx = run([os.path.join(examples, "celeba_train"), "--data", data, "--out", os.path.join(tmp, "cxx"),
                   "--device", args.device, "--epochs", "2", "--train-size", str(train_size),
                   "--valid-size", "240", "--batch-size", "32"])
        m = re.findall(r"\((\d+) host reads, ([0-9.]+) s\)", cxx)
        cxx_syncs, cxx_time = int(m[-1][0]), float(m[-1][1])
        py = run([args.python, os.path.join(ROOT, "bench", "smile_original.py"), data,
                  os.path.join(tmp, "py"), "--device", args.device, "--epochs", "2",
                  "--train-size", str(train_size), "--valid-size", "240"])
        m = re.findall(r"seconds ([0-9.]+) syncs (\d+)", py)
        py_time, py_syncs = float(m[-1][0]), int(m[-1][1])
        batches = (train_size + 31) // 32 + (240 + 31) // 32
        rows.append((train_size, batches, py_time, cxx_time, cxx_time / py_time, py_syncs, cxx_syncs))
        print(f"train {train_size}: python {py_time:.2f}s ({py_syncs} syncs), "
              f"C++ {cxx_time:.2f}s ({cxx_syncs} syncs), ratio {cxx_time / py_time:.2f}", file=sys.stderr)

    # The same with LibTorch's default single thread, as the Python original
    # runs here: the kernels are the same, so the epochs cost about the same.
    cxx = run([os.path.join(examples, "celeba_train"), "--data", data, "--out", os.path.join(tmp, "cxx1"),
               "--device", args.device, "--epochs", "2", "--train-size", "1920", "--valid-size", "240",
               "--batch-size", "32", "--threads", "1"])
    single = float(re.findall(r"\(\d+ host reads, ([0-9.]+) s\)", cxx)[-1])
    print(f"train 1920, C++ with one thread: {single:.2f}s, ratio {single / rows[-1][2]:.2f}", file=sys.stderr)

    if args.markdown:
        print("| training images | batches per epoch | Python epoch | C++ epoch | C++ / Python | Python syncs | C++ syncs |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r[0]} | {r[1]} | {r[2]:.2f} s | {r[3]:.2f} s | {r[4]:.2f}x | {r[5]} | {r[6]} |")
        print(f"| 1920, C++ with --threads 1 | {rows[-1][1]} | {rows[-1][2]:.2f} s | {single:.2f} s | "
              f"{single / rows[-1][2]:.2f}x | {rows[-1][5]} | {rows[-1][6]} |")


if __name__ == "__main__":
    main()
