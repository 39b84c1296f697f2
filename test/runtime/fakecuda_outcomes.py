#!/usr/bin/env python3
"""What each scenario of fakecuda_rules does, in a form that a real GPU and
the fake CUDA device must agree on: whether the program ran to the end or
stopped, and for each operation it attempts, whether it ran or threw. The
numbers it prints are left out (a GPU's convolutions round differently, a
pending copy's destination holds whatever it held).

usage: fakecuda_outcomes.py PROGRAM [--preload LIBRARY] [--devices N] [--skip SCENARIO ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("--preload", help="libdevplace_fakecuda.so; none: the LibTorch's own CUDA")
    ap.add_argument("--devices", type=int, default=1, help="devices the run has (two-devices needs 2)")
    ap.add_argument("--skip", nargs="*", default=[])
    args = ap.parse_args()
    usage = subprocess.run([args.program], capture_output=True, text=True).stderr
    scenarios = usage.split("scenarios:")[1].split()
    env = dict(os.environ, SCRATCH=tempfile.mkdtemp(prefix="fakecuda-outcomes-"))
    if args.preload:
        env["LD_PRELOAD"] = args.preload
        env["DEVPLACE_FAKE_CUDA_DEVICES"] = str(args.devices)
    # Scenarios about the runtime itself (its settings, its limits), not
    # about CUDA, and those that need OpenCV (optional;
    # fakecuda-opencv.test runs them).
    skip = set(args.skip) | {"late-load", "syncs", "out-of-memory", "cuda-only", "cv-mat", "cv-mat-fixed"}
    if args.devices < 2:
        skip.add("two-devices")
    for scenario in scenarios:
        if scenario in skip:
            continue
        run = subprocess.run([args.program, scenario], capture_output=True, text=True, env=env)
        for line in run.stdout.splitlines():
            m = re.match(r"(.*): (ran|threw)", line)
            if m:
                print(f"{scenario}: {m.group(1)}: {m.group(2)}")
        print(f"{scenario}: {'ran to the end' if run.returncode == 0 else 'stopped'}")


if __name__ == "__main__":
    sys.exit(main())
