#!/usr/bin/env python3
"""The oracle: generated LibTorch programs run on the fake CUDA device, and
devplace's findings held to what they do.

Each generated entry point chooses a device (a flag, is_available(), a
constant), gets a tensor to it through one of the model's constructs
(moves, factories with options, branches, helpers with a body in the file,
helpers declared here and defined in a second translation unit, structs
returned by either, containers, reassignments) and ends in one sink: a host
read of its memory, an accessor, an operation with a CPU tensor, or one
with a 0-dim CPU tensor (which never fails). A batch of entry points is
compiled once against the build's LibTorch, with the second translation
unit linked in (devplace sees a declaration; the program runs the body),
and run in a child process per entry point and valuation: every value of
its flags, with the fake CUDA device loaded (is_available() true) and
without it (false). The child reports when it reaches the sink; its exit
says whether the sink failed (a host read of device memory: the fake
device's status 86; two devices in one operation: LibTorch's error).

devplace runs once over the batch, and each sink line is compared:
  precision   a finding that says "is on a CUDA device" must fail on every
              valuation that reaches its line; "may be" on at least one; a
              finding where no valuation fails is a disagreement;
  recall      a sink that fails on some valuation and has no finding is a
              disagreement, unless the device came through code the model
              cannot see (a helper defined in the other translation unit):
              those are counted apart, the price of "unknown".

  oracle.py --build build --count 200 --seed 1 [--keep DIR] [--jobs 2]

Prints per construct and sink the entry points, valuations run, agreements
and each kind of disagreement, and exits non-zero on a precision
disagreement or a recall one outside the "unseen" class.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile

# How the entry point's device is chosen: (name, code, flags it reads).
DEVICES = [
    ("flag", "torch::Device dev = f0 ? torch::kCUDA : torch::kCPU;", 1),
    ("available", "torch::Device dev = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;", 0),
    ("string", 'torch::Device dev(f0 ? "cuda:0" : "cpu");', 1),
    ("cuda", "torch::Device dev(torch::kCUDA);", 0),
    ("cpu", "torch::Device dev(torch::kCPU);", 0),
]

# How the tensor t gets its device: (name, code, flags it reads, unseen).
# `unseen`: the device passes through a body in the other translation unit.
CHAINS = [
    ("to", "auto t = torch::ones({4}).to(dev);", 0, False),
    ("options", "auto t = torch::ones({4}, torch::TensorOptions().device(dev));", 0, False),
    ("branch", "auto t = torch::ones({4});\n  if (f1)\n    t = t.to(dev);", 1, False),
    ("back-to-host", "auto t = torch::ones({4}).to(dev).cpu();", 0, False),
    ("operator", "auto t = torch::relu(torch::ones({4}).to(dev)) * 2;", 0, False),
    ("helper", "auto t = oracle_move_here(torch::ones({4}), dev);", 0, False),
    ("helper-elsewhere", "auto t = oracle_move_elsewhere(torch::ones({4}), dev);", 0, True),
    ("struct-here", "OraclePair p = oracle_pair_here(dev);\n  auto t = torch::relu(p.a);", 0, False),
    ("struct-elsewhere", "OraclePair p = oracle_pair_elsewhere(dev);\n  auto t = torch::log_softmax(p.a, 0);", 0, True),
    ("binding-elsewhere", "auto [a, b] = oracle_pair_elsewhere(dev);\n  auto t = torch::relu(a) + b;", 0, True),
    ("vector", "std::vector<torch::Tensor> v{torch::ones({4}).to(dev)};\n  auto t = v[0];", 0, False),
    ("reassigned", "auto t = torch::ones({4}).to(dev);\n  torch::Tensor u = t.to(torch::kCPU);\n  t = u;", 0, False),
    ("out-parameter", "torch::Tensor t;\n  oracle_fill_here(t, dev);", 0, False),
    ("swap", "auto t = torch::ones({4});\n  auto s = torch::ones({4}).to(dev);\n  if (f1)\n    std::swap(t, s);", 1, False),
]

# Where t is used: (name, code, the check that reports it, failure kind).
SINKS = [
    ("host-read", "volatile float r = t.data_ptr<float>()[0];\n  (void)r;", "devplace-host-sink", "host-read"),
    ("accessor", "auto acc = t.accessor<float, 1>();\n  volatile float r = acc[0];\n  (void)r;", "devplace-host-sink", "host-read"),
    ("cpu-operand", "auto m = t + torch::ones({4});\n  (void)m;", "devplace-device-mismatch", "mismatch"),
    ("scalar-operand", "auto m = t * torch::tensor(2.0f);\n  (void)m;", "devplace-device-mismatch", "mismatch"),
]

PRELUDE = """#include <torch/torch.h>
#include <utility>
#include <vector>

void oracle_reached();
struct OraclePair {
  torch::Tensor a;
  torch::Tensor b;
};
torch::Tensor oracle_move_elsewhere(torch::Tensor x, torch::Device d);
OraclePair oracle_pair_elsewhere(torch::Device d);
static torch::Tensor oracle_move_here(torch::Tensor x, torch::Device d) { return x.to(d); }
static OraclePair oracle_pair_here(torch::Device d) {
  return {torch::ones({4}).to(d), torch::ones({4}).to(d)};
}
static void oracle_fill_here(torch::Tensor &out, torch::Device d) { out = torch::ones({4}).to(d); }
"""

ELSEWHERE = """#include <torch/torch.h>
struct OraclePair {
  torch::Tensor a;
  torch::Tensor b;
};
torch::Tensor oracle_move_elsewhere(torch::Tensor x, torch::Device d) { return x.to(d); }
OraclePair oracle_pair_elsewhere(torch::Device d) {
  return {torch::ones({4}).to(d), torch::ones({4}).to(d)};
}
"""

# The runner: one child per entry point and valuation. The child writes a
# byte to fd 3 when it reaches the sink; a c10::Error is status 3 (with its
# message on stderr), the fake device's host-read trap is status 86.
RUNNER = r"""#include <torch/torch.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using Entry = void (*)(bool, bool);
extern Entry oracle_entries[];
extern int oracle_entry_count;
static int reached_fd = -1;
void oracle_reached() {
  if (reached_fd >= 0 && write(reached_fd, "R", 1) != 1)
    _exit(5);
}

int main() {
  torch::set_num_threads(1);
  // One line per entry point and valuation: index, flags, reached, status.
  for (int i = 0; i < oracle_entry_count; ++i)
    for (int v = 0; v < 4; ++v) {
      int fds[2];
      if (pipe(fds) != 0)
        return 2;
      std::fflush(stdout);
      pid_t pid = fork();
      if (pid == 0) {
        close(fds[0]);
        reached_fd = fds[1];
        try {
          oracle_entries[i](v & 1, v & 2);
        } catch (const c10::Error &e) {
          std::string what = e.what_without_backtrace();
          bool devices = what.find("same device") != std::string::npos ||
                         what.find("to be on") != std::string::npos;
          _exit(devices ? 3 : 4);
        }
        _exit(0);
      }
      close(fds[1]);
      char c;
      bool reached = read(fds[0], &c, 1) == 1;
      close(fds[0]);
      int status = 0;
      waitpid(pid, &status, 0);
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      std::printf("%d %d %d %d\n", i, v, reached ? 1 : 0, code);
    }
  return 0;
}
"""


def indented(code):
    """The lines of a rule's code in a function body."""
    return [l if l.startswith("  ") else "  " + l for l in code.split("\n")]


def generate(rng, count):
    """The batch's program text and, per entry point, what it is made of."""
    lines = PRELUDE.split("\n")
    entries = []
    for i in range(count):
        dname, dcode, _ = rng.choice(DEVICES)
        cname, ccode, _, unseen = rng.choice(CHAINS)
        sname, scode, check, kind = rng.choice(SINKS)
        lines.append("void oracle_entry_%d(bool f0, bool f1) {" % i)
        lines.append("  (void)f0;")
        lines.append("  (void)f1;")
        lines += indented(dcode) + indented(ccode)
        lines.append("  oracle_reached();")
        sink_line = len(lines) + 1
        lines += indented(scode)
        lines.append("}")
        entries.append({"index": i, "device": dname, "chain": cname, "sink": sname,
                        "check": check, "kind": kind, "line": sink_line, "unseen": unseen})
    lines.append("using Entry = void (*)(bool, bool);")
    lines.append("Entry oracle_entries[] = {%s};" % ", ".join(
        "oracle_entry_%d" % i for i in range(count)))
    lines.append("int oracle_entry_count = %d;" % count)
    return "\n".join(lines) + "\n", entries


def torch_link_flags(build):
    """-L/-l flags for the build's LibTorch, from CMake's cache."""
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    m = re.search(r"^c10_LIBRARY:FILEPATH=(.*)$", cache, re.M)
    libdir = os.path.dirname(m.group(1)) if m else "/usr/lib/x86_64-linux-gnu"
    return ["-L" + libdir, "-Wl,-rpath," + libdir, "-ltorch", "-ltorch_cpu", "-lc10"]


def run_batch(args, seed, count, workdir):
    rng = random.Random(seed)
    program, entries = generate(rng, count)
    src = os.path.join(workdir, "programs.cpp")
    open(src, "w").write(program)
    open(os.path.join(workdir, "elsewhere.cpp"), "w").write(ELSEWHERE)
    open(os.path.join(workdir, "runner.cpp"), "w").write(RUNNER)
    flags = shlex.split(open(os.path.join(args.build, "libtorch.flags")).read())
    exe = os.path.join(workdir, "oracle")
    compiled = subprocess.run([args.clangxx, "-g", "-O0"] + flags
                              + [src, os.path.join(workdir, "elsewhere.cpp"),
                                 os.path.join(workdir, "runner.cpp"), "-o", exe]
                              + torch_link_flags(args.build),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if compiled.returncode != 0:
        sys.stdout.write(compiled.stdout[-4000:])
        raise SystemExit("oracle: batch %d does not compile" % seed)
    fake = os.path.join(args.build, "runtime", "libdevplace_fakecuda.so")
    outcomes = collections.defaultdict(list)  # index -> [(valuation, reached, status)]
    for available in (True, False):
        env = dict(os.environ, DEVPLACE_FAKE_CUDA_BACKTRACE="0")
        if available:
            env["LD_PRELOAD"] = fake
        r = subprocess.run([exe], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
        for line in r.stdout.splitlines():
            i, v, reached, status = map(int, line.split())
            outcomes[i].append(((v, available), bool(reached), status))
    report = os.path.join(workdir, "findings.json")
    subprocess.run([args.devplace, "--checks=-*,devplace-host-sink,devplace-device-mismatch",
                    "--format=json", "--output=" + report, src, "--"] + flags,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    findings = collections.defaultdict(list)
    for f in json.load(open(report)).get("findings", []):
        findings[(f["line"], f["check"])].append(f["message"])
    return entries, outcomes, findings


def judge(entry, outcomes, findings):
    """One entry point's verdict: agree, precision, recall or unseen."""
    failure = {"host-read": {86}, "mismatch": {3}}[entry["kind"]]
    reached = [(val, status) for val, was_reached, status in outcomes if was_reached]
    failed = [val for val, status in reached if status in failure]
    messages = findings.get((entry["line"], entry["check"]), [])
    if messages:
        definite = any(re.search(r"' is on an? [A-Za-z]+ device", m) for m in messages)
        if not failed:
            return "precision", "reported, but no valuation fails"
        if definite and len(failed) != len(reached):
            return "precision", "'is on' reported, but %d of %d valuations pass" % (
                len(reached) - len(failed), len(reached))
        return "agree", ""
    if failed:
        return ("unseen" if entry["unseen"] else "recall"), "fails on %d of %d valuations" % (
            len(failed), len(reached))
    return "agree", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="a devplace build with the fake CUDA device")
    ap.add_argument("--clangxx", default="clang++-19")
    ap.add_argument("--count", type=int, default=200, help="entry points")
    ap.add_argument("--batch", type=int, default=400, help="entry points per compiled batch")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the batches here")
    args = ap.parse_args()
    args.devplace = os.path.join(args.build, "tool", "devplace")
    root = args.keep or tempfile.mkdtemp(prefix="devplace-oracle-")
    sizes = [min(args.batch, args.count - n) for n in range(0, args.count, args.batch)]

    def one(k):
        d = os.path.join(root, "batch%d" % k)
        os.makedirs(d, exist_ok=True)
        return run_batch(args, args.seed * 1000 + k, sizes[k], d)

    table = collections.defaultdict(collections.Counter)
    totals = collections.Counter()
    valuations = 0
    bad = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for k, (entries, outcomes, findings) in enumerate(pool.map(one, range(len(sizes)))):
            for e in entries:
                verdict, why = judge(e, outcomes[e["index"]], findings)
                valuations += len(outcomes[e["index"]])
                table[(e["chain"], e["sink"])][verdict] += 1
                totals[verdict] += 1
                if verdict in ("precision", "recall"):
                    bad.append("batch%d line %d (%s, %s, %s): %s: %s" % (
                        k, e["line"], e["device"], e["chain"], e["sink"], verdict, why))
    print("%-20s %-15s %6s %6s %9s %6s %6s" % ("construct", "sink", "points", "agree",
                                               "precision", "recall", "unseen"))
    for (chain, sink), c in sorted(table.items()):
        print("%-20s %-15s %6d %6d %9d %6d %6d" % (chain, sink, sum(c.values()), c["agree"],
                                                   c["precision"], c["recall"], c["unseen"]))
    for line in bad:
        print("DISAGREEMENT " + line)
    print("oracle: %d programs, %d entry points, %d valuations run: %d agree, %d precision "
          "and %d recall disagreements, %d through code the model cannot see"
          % (len(sizes), sum(sizes), valuations, totals["agree"], totals["precision"],
             totals["recall"], totals["unseen"]))
    return 1 if totals["precision"] or totals["recall"] else 0


if __name__ == "__main__":
    sys.exit(main())
