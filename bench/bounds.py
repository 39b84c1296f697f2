#!/usr/bin/env python3
"""How much work the analysis needs, measured: the evidence behind its bound.

The analysis visits the CFG blocks of a function until the states settle,
and stops at VisitsPerBlockLimit (default 64) visits per block. This script
runs `devplace --analysis-stats` over:

  tests        every lit test input (mock headers)
  integration  the integration tests (real LibTorch and OpenCV headers)
  example      the smile-classifier example (buggy and fixed)
  generated    bench/run.py's big-fn, many-fns and chains workloads
  headers      every inline function of <torch/torch.h>, <torch/script.h>
               and OpenCV's core and imgproc (AnalyzeHeaders: true), with
               the time against clang++-19 -fsyntax-only on the same file
  chain-N      a pathological loop that carries a chain of N tensor copies
               around its back edge: N iterations before the states settle

and prints, per corpus, the functions analysed, the largest number of
visits per block any one function needed, and how many were cut short.

Usage: bench/bounds.py [--build build] [--markdown]
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the generators and flags of the speed benchmark)

STATS = re.compile(r"devplace: stats: (\d+) function analyses, (\d+) CFG blocks, (\d+) block visits, "
                   r"at most ([0-9.]+) visits per block in one function, (\d+) cut short")


def loop_chain(n):
    """A loop whose body copies v{i+1} into v{i}: a device value entering at
    the end of the chain needs n trips around the loop to reach v0."""
    decls = " ".join(f"torch::Tensor v{i} = torch::zeros({{1}});" for i in range(n + 1))
    copies = " ".join(f"v{i} = v{i + 1};" for i in range(n))
    return ("#include <torch/torch.h>\n#include <vector>\n"
            f"float chain(std::vector<torch::Tensor> &xs) {{ {decls}\n"
            f"  for (auto &x : xs) {{ {copies} v{n} = x.cuda(); }}\n"
            "  return v0.data_ptr<float>()[0]; }\n")


def stats(devplace, files, flags, config=None):
    cmd = [devplace, "--quiet", "--analysis-stats", *files]
    if config:
        cmd.insert(1, "--config=" + config)
    cmd += ["--", *flags]
    start = time.monotonic()
    out = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if out.returncode not in (0, 1, 2):
        sys.exit(f"bounds: {' '.join(cmd)} exited with {out.returncode}:\n{out.stderr}")
    m = STATS.search(out.stderr)
    if not m:
        sys.exit(f"bounds: no stats from {' '.join(cmd)}:\n{out.stderr}")
    return int(m.group(1)), float(m.group(4)), int(m.group(5)), seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(run.ROOT, "build"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    devplace = os.path.join(args.build, "tool", "devplace")
    tmp = tempfile.mkdtemp(prefix="devplace-bounds-")

    def write(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    generated = [write("big-fn.cpp", run.big_function(5000)),
                 write("many-fns.cpp", run.many_functions(2000)),
                 write("chains.cpp", run.call_chains(2000, 20))]
    headers = write("headers.cpp", "#include <torch/torch.h>\n#include <torch/script.h>\n"
                    "#include <opencv2/core.hpp>\n#include <opencv2/imgproc.hpp>\nint main() { return 0; }\n")
    corpora = [
        ("tests", sorted(glob.glob(os.path.join(run.ROOT, "test", "checks", "*.cpp"))), run.MOCK, None),
        ("integration", sorted(glob.glob(os.path.join(run.ROOT, "test", "integration", "*.cpp"))), run.TORCH, None),
        ("example", sorted(glob.glob(os.path.join(run.ROOT, "examples", "celeba_smile", "train*.cpp"))), run.TORCH, None),
        ("generated", generated, run.MOCK, None),
        ("headers", [headers], run.TORCH, "{CheckOptions: {AnalyzeHeaders: true}}"),
    ]
    for n in (16, 128, 320):
        corpora.append((f"chain-{n}", [write(f"chain{n}.cpp", loop_chain(n))], run.MOCK, None))

    rows = []
    for name, files, flags, config in corpora:
        functions, worst, cut, seconds = stats(devplace, files, flags, config)
        extra = ""
        if name == "headers":
            start = time.monotonic()
            subprocess.run(["clang++-19", "-fsyntax-only", *flags, headers], check=True)
            syntax = time.monotonic() - start
            extra = f"{seconds:.1f} s vs {syntax:.1f} s for clang++-19 -fsyntax-only ({seconds / syntax:.2f}x)"
        rows.append((name, len(files), functions, worst, cut, extra))
        print(f"{name}: {len(files)} files, {functions} function analyses, at most {worst:.2f} "
              f"visits per block, {cut} cut short {extra}", file=sys.stderr)
    if args.markdown:
        print("| corpus | files | function analyses | most visits per block | cut short | time |")
        print("|---|---|---|---|---|---|")
        for name, nfiles, functions, worst, cut, extra in rows:
            print(f"| {name} | {nfiles} | {functions} | {worst:.2f} | {cut} | {extra} |")


if __name__ == "__main__":
    main()
