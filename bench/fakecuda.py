#!/usr/bin/env python3
"""The fake CUDA device's cost: an epoch of the fixed smile-classifier example
on the fake CUDA device (libdevplace_fakecuda.so, preloaded) against the same
epoch on the CPU, on the same generated CelebA-format data, in one run.

Each program trains two epochs; the second epoch's time is compared (the
first includes warm-up), and the peak resident memory of the whole process.
The runs alternate (CPU, fake CUDA, CPU, ...) --repeat times and the medians
are reported, so that the load of a shared machine falls on both.

usage: bench/fakecuda.py [--build build] [--train-size 960] [--repeat 3] [--markdown]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measured(cmd, env, log):
    """Second-epoch seconds and peak resident MiB of one run of cmd, whose
    output goes to the file log."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(devnull, 2)
        os.execvpe(cmd[0], cmd, env)
    _, status, usage = os.wait4(pid, 0)
    with open(log) as f:
        out = f.read()
    if status != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed (status {status}):\n{out}")
    times = [float(t) for t in re.findall(r"host reads, ([0-9.]+) s\)", out)]
    return times[-1], usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--train-size", type=int, default=960)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    examples = os.path.join(args.build, "examples")
    library = os.path.join(args.build, "runtime", "libdevplace_fakecuda.so")
    for path in (os.path.join(examples, "celeba_train"), library):
        if not os.path.exists(path):
            sys.exit(f"bench: {path} is missing; build devplace first (scripts/setup.sh)")
    tmp = tempfile.mkdtemp(prefix="devplace-fakecuda-")
    data = os.path.join(tmp, "data")
    subprocess.run([os.path.join(examples, "make_fake_celeba"), data, str(args.train_size + 200), "1"],
                   check=True, capture_output=True)
    log = os.path.join(tmp, "out.txt")

    def command(device):
        return [os.path.join(examples, "celeba_train"), "--data", data, "--out", os.path.join(tmp, device),
                "--device", device, "--epochs", "2", "--train-size", str(args.train_size),
                "--valid-size", "100", "--batch-size", "32"]

    plain = dict(os.environ)
    fake = dict(os.environ, LD_PRELOAD=library)
    results = {"cpu": [], "cuda": []}
    for _ in range(args.repeat):
        results["cpu"].append(measured(command("cpu"), plain, log))
        results["cuda"].append(measured(command("cuda"), fake, log))
    shutil.rmtree(tmp, ignore_errors=True)
    cpu_s = statistics.median(t for t, _ in results["cpu"])
    cuda_s = statistics.median(t for t, _ in results["cuda"])
    cpu_mb = statistics.median(m for _, m in results["cpu"])
    cuda_mb = statistics.median(m for _, m in results["cuda"])
    rows = [("CPU", cpu_s, cpu_mb), ("fake CUDA", cuda_s, cuda_mb)]
    if args.markdown:
        print("| device | epoch | peak memory |")
        print("|---|---|---|")
        for name, s, mb in rows:
            print(f"| {name} | {s:.2f} s | {mb:.0f} MiB |")
        print(f"| fake CUDA / CPU | {cuda_s / cpu_s:.2f}x | {cuda_mb / cpu_mb:.2f}x |")
    else:
        for name, s, mb in rows:
            print(f"{name:10} epoch {s:6.2f} s   peak {mb:6.0f} MiB")
        print(f"fake CUDA / CPU: epoch {cuda_s / cpu_s:.2f}x, peak memory {cuda_mb / cpu_mb:.2f}x")


if __name__ == "__main__":
    main()
