#!/usr/bin/env python3
"""The mutation harness: broken variants of real inputs, and devplace must
behave on every one of them.

Takes every lit test input (mock LibTorch headers), the integration tests and
the example sources (real LibTorch and OpenCV headers) and makes variants:

  truncate    the file cut at a line end or in the middle of a token
  delete      one line removed
  unbalance   one '}' or ')' removed, or an extra '{' inserted
  rename      one identifier renamed to an undeclared one
  retype      one tensor type replaced by `auto` or by an unrelated type
  arrow       one '.' member access turned into '->'

For each variant it runs `clang++ -fsyntax-only` (of the LLVM devplace is built against) and the devplace CLI (all
checks, plus the header-analysis mode on a share of them) and requires: exit
status 0, 1 or 2; no crash, stack dump or sanitizer report; and devplace's
CPU time within --time-factor times clang's (plus 50 ms for the timer's
granularity). It prints how many variants ran and how many misbehaved, keeps
each misbehaving variant with its output under --keep, and exits 1 if any did.

  mutate.py --sample 300     a reproducible sample (CI)
  mutate.py --all            every variant of every input (thousands)

Usage: mutate.py [--devplace PATH] [--sample N [--real R] | --all] [--seed S]
                 [--jobs J] [--time-factor F] [--keep DIR] [--no-real-headers]
"""
import argparse
import concurrent.futures
import glob
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MOCK = ["-std=c++17", "-I" + os.path.join(ROOT, "test", "Inputs")]
REAL = ["-std=c++17", "-I/usr/include/torch/csrc/api/include", "-I/usr/include/opencv4",
        "-I" + os.path.join(ROOT, "runtime", "include")]
BAD_OUTPUT = re.compile(r"Stack dump|PLEASE submit a bug report|Assertion .* failed|"
                        r"ERROR: AddressSanitizer|runtime error:|UndefinedBehaviorSanitizer|"
                        r"LLVM ERROR|Segmentation fault|terminate called")
IDENT = re.compile(r"\b[A-Za-z_][A-Za-z_0-9]*\b")
KEYWORDS = set("""alignas alignof and asm auto bool break case catch char class const constexpr
const_cast continue decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not nullptr
operator or private protected public register reinterpret_cast return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try typedef typeid
typename union unsigned using virtual void volatile while include define pragma once""".split())
RETYPES = ["auto", "int", "std::string", "float *", "torch::Device", "std::vector<float>"]


def inputs(real_headers):
    out = [(p, MOCK) for p in sorted(glob.glob(os.path.join(ROOT, "test", "checks", "*.cpp")))]
    if real_headers:
        out += [(p, REAL) for p in sorted(glob.glob(os.path.join(ROOT, "test", "integration", "*.cpp")))]
        out += [(p, REAL + ["-I" + os.path.join(ROOT, "examples", "celeba_smile")])
                for p in sorted(glob.glob(os.path.join(ROOT, "examples", "celeba_smile", "*.cpp")))]
    return out


def code_lines(lines):
    """Indices of lines that are code, not comments or preprocessor lines."""
    return [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith(("//", "#"))]


def variants(text):
    """Every mutation of `text`, as (kind, detail, new text)."""
    lines = text.split("\n")
    code = code_lines(lines)
    offsets, pos = [], 0
    for l in lines:
        offsets.append(pos)
        pos += len(l) + 1
    for i in code:
        # Truncated at the end of a code line, and in the middle of it.
        end = offsets[i] + len(lines[i])
        yield "truncate", f"after line {i + 1}", text[:end]
        yield "truncate", f"inside line {i + 1}", text[:offsets[i] + len(lines[i]) // 2]
        yield "delete", f"line {i + 1}", "\n".join(lines[:i] + lines[i + 1:])
        for m in IDENT.finditer(lines[i]):
            if m.group(0) not in KEYWORDS:
                new = lines[i][:m.start()] + "undeclared_" + m.group(0) + lines[i][m.end():]
                yield "rename", f"line {i + 1} '{m.group(0)}'", "\n".join(lines[:i] + [new] + lines[i + 1:])
        for m in re.finditer(r"torch::Tensor\b", lines[i]):
            for t in RETYPES:
                new = lines[i][:m.start()] + t + lines[i][m.end():]
                yield "retype", f"line {i + 1} -> {t}", "\n".join(lines[:i] + [new] + lines[i + 1:])
        for m in re.finditer(r"(?<=[A-Za-z0-9_)\]])\.(?=[A-Za-z_])", lines[i]):
            new = lines[i][:m.start()] + "->" + lines[i][m.end():]
            yield "arrow", f"line {i + 1} col {m.start() + 1}", "\n".join(lines[:i] + [new] + lines[i + 1:])
        for ch in "})":
            j = lines[i].find(ch)
            if j >= 0:
                new = lines[i][:j] + lines[i][j + 1:]
                yield "unbalance", f"line {i + 1} without '{ch}'", "\n".join(lines[:i] + [new] + lines[i + 1:])
        yield "unbalance", f"'{{' before line {i + 1}", "\n".join(lines[:i] + ["{"] + lines[i:])


def measure(cmd, timeout):
    """Runs cmd under wait4, killed after `timeout` seconds; returns (exit
    status, CPU seconds, output, whether it was killed)."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        killed = threading.Event()
        timer = threading.Timer(timeout, lambda: (killed.set(), proc.kill()))
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return proc.returncode, usage.ru_utime + usage.ru_stime, text, killed.is_set()


def check_variant(args, job):
    path, flags, kind, detail, text, headers_mode = job
    workdir = tempfile.mkdtemp(prefix="devplace-mutant-")
    try:
        name = os.path.join(workdir, os.path.basename(path))
        with open(name, "w") as f:
            f.write(text)
        base = [*flags, "-I" + os.path.dirname(path)]
        _, clang_cpu, _, _ = measure([args.clangxx, "-fsyntax-only", *base, name], args.timeout)
        cmd = [args.devplace, "--quiet", name]
        if headers_mode:
            cmd.insert(1, "--config={CheckOptions: {AnalyzeHeaders: true}}")
        cmd += ["--", *base]
        limit = max(args.time_factor * clang_cpu + 0.05, 1.0 if args.time_factor > 2 else 0)
        status, cpu, out, timed_out = measure(cmd, max(args.timeout, 20 * clang_cpu))
        problems = []
        if timed_out:
            problems.append("hang (killed after the timeout)")
        elif status not in (0, 1, 2):
            problems.append(f"exit status {status}")
        if BAD_OUTPUT.search(out):
            problems.append("crash or sanitizer report: " + BAD_OUTPUT.search(out).group(0))
        if not timed_out and cpu > limit:
            problems.append(f"{cpu:.2f} s CPU against clang's {clang_cpu:.2f} s")
        if problems and args.keep:
            digest = hashlib.sha1(text.encode()).hexdigest()[:10]
            keep = os.path.join(args.keep, f"{os.path.splitext(os.path.basename(path))[0]}-{kind}-{digest}")
            os.makedirs(keep, exist_ok=True)
            shutil.copy(name, keep)
            with open(os.path.join(keep, "report.txt"), "w") as f:
                f.write(f"{path}: {kind} {detail}\n{'; '.join(problems)}\n{' '.join(cmd)}\n\n{out}")
        return path, kind, detail, problems
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--devplace", default=os.path.join(ROOT, "build", "tool", "devplace"))
    ap.add_argument("--clangxx", default="clang++-19",
                    help="the clang++ of the LLVM devplace is built against")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--sample", type=int, default=300)
    group.add_argument("--all", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--time-factor", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--keep", default=os.path.join(tempfile.gettempdir(), "devplace-mutants"))
    ap.add_argument("--no-real-headers", action="store_true")
    ap.add_argument("--real", type=int, default=None,
                    help="real-header variants in the sample (default: one in 30)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    jobs, seen = [], set()
    for path, flags in inputs(not args.no_real_headers):
        original = open(path).read()
        real = flags is not MOCK
        for kind, detail, text in variants(original):
            digest = hashlib.sha1(text.encode()).digest()
            if text == original or digest in seen:
                continue
            seen.add(digest)
            jobs.append((path, flags, kind, detail, text, real))
    # Real-header variants cost ten times more: the sample takes them in
    # proportion to what they are worth, a fixed share.
    mock_jobs = [j for j in jobs if j[1] is MOCK]
    real_jobs = [j for j in jobs if j[1] is not MOCK]
    if not args.all:
        wanted = args.real if args.real is not None else max(1, args.sample // 30)
        n_real = min(len(real_jobs), wanted)
        jobs = rng.sample(mock_jobs, min(len(mock_jobs), args.sample - n_real)) + rng.sample(real_jobs, n_real)
    # Every fifth variant also analyses every function of the headers.
    jobs = [(p, f, k, d, t, i % 5 == 0) for i, (p, f, k, d, t, _) in enumerate(jobs)]
    kinds = {}
    for j in jobs:
        kinds[j[2]] = kinds.get(j[2], 0) + 1
    print("mutation: %d variants (%s) of %d inputs" % (
        len(jobs), ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())), len({j[0] for j in jobs})),
        flush=True)

    bad = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for path, kind, detail, problems in pool.map(lambda j: check_variant(args, j), jobs):
            if problems:
                bad += 1
                print(f"MISBEHAVED: {os.path.relpath(path, ROOT)}: {kind} {detail}: {'; '.join(problems)}",
                      flush=True)
    print(f"mutation: {len(jobs)} variants run, {bad} misbehaved"
          + (f" (kept under {args.keep})" if bad else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
