#!/usr/bin/env python3
"""The oracle: generated LibTorch programs run on the fake CUDA device, and
devplace's findings held to what they do.

Each generated entry point chooses a device (a flag, is_available(), a
string, a constant, cuda:1 of two devices), gets a tensor to it through one of the model's
constructs (moves, factories with options, branches, loops, early returns,
helpers with a body in the file, helpers and a module's forward declared
here and defined in a second translation unit, structs returned and passed,
structured bindings, vectors, maps, pairs, tuples, references, pointers,
range-for by reference, lambdas, out-parameters, modules moved with ->to)
and ends in one sink: a host read of its memory (an element, std::memcpy, a
std::vector copy), an accessor, an operation
with a CPU tensor or a 0-dim one (which never fails), or with a tensor on
device 0 of the same type, torch::from_blob over a host buffer told it is
on the device, a per-iteration
.item() in a loop that queues work (and one under a logging interval), a
read of a non_blocking copy, a pointer into a freed .cpu() copy, and a
module's registered or unregistered member in an operation. A batch of
entry points is compiled once against the build's LibTorch, with the
second translation unit linked in (devplace sees a declaration; the program
runs the body), and run in a child process per
entry point and valuation: every value of its flags, with the fake CUDA
device loaded (is_available() true) and without it (false). The child
reports when it reaches the sink; its exit status says whether and how the
sink failed: 86 a host read of device memory (the fake device), 3 two
devices in one operation (LibTorch's error), 88 a host synchronisation on
every iteration (the fake device's count), 89 a non_blocking copy read
before it landed (its poison, NaN), 87 a read through a pointer into a
freed host copy (the child runs with glibc's M_PERTURB, so the value read
is no longer the tensor's), 90 host memory given to LibTorch as device
memory (the fake device's refusal).

devplace runs every check once over the batch; findings inside an entry
point (and the module class its sink defines) are compared:
  precision   a finding that says "is on a CUDA device" must fail on every
              valuation that reaches its line; "may be" on at least one; a
              finding where no valuation fails, or anywhere but the sink,
              is a disagreement;
  recall      a sink that fails on some valuation and has no finding is a
              disagreement, unless the device came through code the model
              does not see or follow: a body in the other translation unit
              ("other file"), a write through a pointer ("not followed");
              those are counted apart, the price of "unknown"; so is
              `.cuda()` on the `index` device, the current device,
              whose index the code does not say ("current device").

  oracle.py --build build --count 200 --seed 1 [--keep DIR] [--jobs 2] [--shrink]
            [--project]

With --project, each program and the second translation unit are analysed
as one project (a compile_commands.json of both): calls into the other file
follow its summaries, and "other file" is judged like the rest.

With --shrink, each disagreement is shrunk (its lines removed one at a time
while the program compiles and disagrees in the same way) and printed: the
case for a lit test, with its fix.

Prints per construct and sink the entry points, valuations run, agreements
and each kind of disagreement, and exits non-zero on any precision or
recall disagreement.
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
    ("index", "torch::Device dev(torch::kCUDA, 1);", 0),
]

# How the tensor t gets its device: (name, code, flags it reads, unseen).
# `unseen`: the device passes through code the model does not see or
# follow, so it is unknown there by design: a body in the other translation
# unit ("other file"), a write through a pointer ("not followed").
CHAINS = [
    ("to", "auto t = torch::ones({4}).to(dev);", 0, None),
    ("options", "auto t = torch::ones({4}, torch::TensorOptions().device(dev));", 0, None),
    ("branch", "auto t = torch::ones({4});\n  if (f1)\n    t = t.to(dev);", 1, None),
    ("back-to-host", "auto t = torch::ones({4}).to(dev).cpu();", 0, None),
    ("cuda-method", "auto t = torch::ones({4});\n  if (dev.is_cuda())\n    t = t.cuda();", 0, None),
    ("operator", "auto t = torch::relu(torch::ones({4}).to(dev)) * 2;", 0, None),
    ("helper", "auto t = oracle_move_here(torch::ones({4}), dev);", 0, None),
    ("helper-elsewhere", "auto t = oracle_move_elsewhere(torch::ones({4}), dev);", 0, "other file"),
    ("struct-here", "OraclePair p = oracle_pair_here(dev);\n  auto t = torch::relu(p.a);", 0, None),
    ("struct-elsewhere", "OraclePair p = oracle_pair_elsewhere(dev);\n  auto t = torch::log_softmax(p.a, 0);", 0, "other file"),
    ("binding-here", "auto [a, b] = oracle_pair_here(dev);\n  auto t = a * b;", 0, None),
    ("binding-elsewhere", "auto [a, b] = oracle_pair_elsewhere(dev);\n  auto t = torch::relu(a) + b;", 0, "other file"),
    ("struct-out-parameter", "OraclePair p{torch::ones({4}), torch::ones({4})};\n  oracle_move_pair_here(p, dev);\n  auto t = p.b;", 0, None),
    ("vector", "std::vector<torch::Tensor> v{torch::ones({4}).to(dev)};\n  auto t = v[0];", 0, None),
    ("map", "std::map<std::string, torch::Tensor> m;\n  m[\"x\"] = torch::ones({4}).to(dev);\n  auto t = m[\"x\"];", 0, None),
    ("pair", "std::pair<torch::Tensor, int> pr{torch::ones({4}).to(dev), 1};\n  auto t = pr.first;", 0, None),
    ("tuple", "auto tup = std::make_tuple(1, torch::ones({4}).to(dev));\n  auto t = std::get<1>(tup);", 0, None),
    ("range-for", "std::vector<torch::Tensor> v{torch::ones({4}), torch::ones({4})};\n  for (auto &x : v)\n    x = x.to(dev);\n  auto t = v[1];", 0, None),
    ("reference", "auto s = torch::ones({4});\n  torch::Tensor &r = s;\n  r = r.to(dev);\n  auto t = s;", 0, None),
    ("pointer", "auto s = torch::ones({4});\n  torch::Tensor *q = &s;\n  *q = q->to(dev);\n  auto t = s;", 0, "not followed"),
    ("loop", "auto t = torch::ones({4});\n  for (int i = 0; i < 2; ++i)\n    t = t.to(dev) + 1;", 0, None),
    ("early-return", "auto t = torch::ones({4}).to(dev);\n  if (f1)\n    return;", 1, None),
    ("lambda", "auto move = [&](torch::Tensor x) { return x.to(dev); };\n  auto t = move(torch::ones({4}));", 0, None),
    ("lambda-capture", "auto make = [dev] { return torch::ones({4}, torch::TensorOptions().device(dev)); };\n  auto t = make();", 0, None),
    ("reassigned", "auto t = torch::ones({4}).to(dev);\n  torch::Tensor u = t.to(torch::kCPU);\n  t = u;", 0, None),
    ("out-parameter", "torch::Tensor t;\n  oracle_fill_here(t, dev);", 0, None),
    ("swap", "auto t = torch::ones({4});\n  auto s = torch::ones({4}).to(dev);\n  if (f1)\n    std::swap(t, s);", 1, None),
    ("module-forward", "auto net = std::make_shared<OracleNet>();\n  net->to(dev);\n  auto t = net->forward(torch::ones({4}).to(dev));", 0, None),
    ("module-forward-elsewhere", "auto net = std::make_shared<OracleNetElsewhere>();\n  auto t = net->forward(torch::ones({4}).to(dev));", 0, "other file"),
]

# Where t is used: (name, code, the check that reports it, failure kind).
# A sink's code may define a module class of its own (MODULES: `@K` is the
# entry's index); its check's finding may be anywhere in that class too.
SINKS = [
    ("host-read", "volatile float hr = t.data_ptr<float>()[0];\n  (void)hr;", "devplace-host-sink", "host-read"),
    ("accessor", "auto hacc = t.accessor<float, 1>();\n  volatile float hr = hacc[0];\n  (void)hr;", "devplace-host-sink", "host-read"),
    ("memcpy", "float hbuf[4];\n  std::memcpy(hbuf, t.data_ptr<float>(), sizeof hbuf);\n  volatile float hr = hbuf[0];\n  (void)hr;", "devplace-host-sink", "host-read"),
    ("vector-copy", "std::vector<float> hv(t.data_ptr<float>(), t.data_ptr<float>() + 4);\n  volatile float hr = hv[0];\n  (void)hr;", "devplace-host-sink", "host-read"),
    ("cpu-operand", "auto hm = t + torch::ones({4});\n  (void)hm;", "devplace-device-mismatch", "mismatch"),
    ("scalar-operand", "auto hm = t * torch::tensor(2.0f);\n  (void)hm;", "devplace-device-mismatch", "mismatch"),
    ("host-memory-as-device", "std::vector<float> hbuf(4, 1.0f);\n  auto hb = torch::from_blob(hbuf.data(), {4}, torch::TensorOptions().device(dev));\n  volatile float hr = hb.sum().item<float>();\n  (void)hr;", "devplace-host-sink", "host-memory"),
    ("index-operand", "auto hm = t + torch::ones({4}).to(torch::Device(dev.type(), 0));\n  (void)hm;", "devplace-device-mismatch", "mismatch"),
    ("item-in-loop", "long s0 = oracle_syncs();\n  double total = 0;\n  for (int i = 0; i < 3; ++i) {\n    auto y = t * (i + 1);\n    total += y.sum().item<double>();\n  }\n  oracle_each_iteration_synced(s0, 3);\n  (void)total;", "devplace-sync-in-loop", "sync"),
    ("item-every-100", "long s0 = oracle_syncs();\n  double total = 0;\n  for (int i = 0; i < 3; ++i) {\n    auto y = t * (i + 1);\n    if (i % 100 == 0)\n      total += y.sum().item<double>();\n  }\n  oracle_each_iteration_synced(s0, 3);\n  (void)total;", "devplace-sync-in-loop", "sync"),
    ("non-blocking-copy", "auto hcopy = t.to(torch::kCPU, /*non_blocking=*/true);\n  oracle_landed(hcopy.data_ptr<float>()[0]);", "devplace-async-host-copy", "pending"),
    ("freed-host-copy", "float *hp = t.cpu().data_ptr<float>();\n  oracle_intact(hp[0], t);", "devplace-dangling-host-copy", "freed"),
    ("registered-member", "auto hnet = std::make_shared<OracleKept@K>();\n  hnet->to(dev);\n  auto hm = hnet->w * t;\n  (void)hm;", "devplace-device-mismatch", "mismatch"),
    ("unregistered-member", "auto hnet = std::make_shared<OracleLeft@K>();\n  hnet->to(dev);\n  auto hm = hnet->w * t;\n  (void)hm;", "devplace-unregistered-submodule", "mismatch"),
]

# The module classes a sink uses, one per entry point.
MODULES = {
    "registered-member": "struct OracleKept@K : torch::nn::Module {\n  OracleKept@K() { w = register_parameter(\"w\", torch::ones({4})); }\n  torch::Tensor w;\n};",
    "unregistered-member": "struct OracleLeft@K : torch::nn::Module {\n  OracleLeft@K() { w = torch::ones({4}); }\n  torch::Tensor w;\n};",
}

# What the child's exit status says of the sink, per failure kind.
FAILURES = {"host-read": {86}, "mismatch": {3}, "sync": {88}, "pending": {89}, "freed": {87},
            "host-memory": {90}}

PRELUDE = """#include <torch/torch.h>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

void oracle_reached();
long oracle_syncs();
void oracle_each_iteration_synced(long before, int iterations);
void oracle_landed(float value);
void oracle_intact(float seen, const torch::Tensor &t);
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
static void oracle_move_pair_here(OraclePair &p, torch::Device d) {
  p.a = p.a.to(d);
  p.b = p.b.to(d);
}
struct OracleNet : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return torch::relu(x); }
};
struct OracleNetElsewhere : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
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
struct OracleNetElsewhere : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
torch::Tensor OracleNetElsewhere::forward(torch::Tensor x) { return torch::relu(x); }
"""

# The runner: one child per entry point and valuation. The child writes a
# byte to fd 3 when it reaches the sink; a c10::Error is status 3 (with its
# message on stderr), the fake device's host-read trap is status 86.
RUNNER = r"""#include <devplace/fakecuda.h>
#include <torch/torch.h>
#include <cmath>
#include <cstdio>
#include <malloc.h>
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

long oracle_syncs() { return devplace::fakecuda::synchronisations(); }
// A host synchronisation on every iteration of the sink's loop: status 88.
void oracle_each_iteration_synced(long before, int iterations) {
  if (devplace::fakecuda::synchronisations() - before >= iterations)
    _exit(88);
}
// A non_blocking copy read before it landed holds the fake device's poison
// (NaN): status 89.
void oracle_landed(float value) {
  if (std::isnan(value))
    _exit(89);
}
// A value read through a pointer into a host copy that was freed: the child
// runs with glibc's M_PERTURB, so freed bytes no longer hold the tensor's
// value (status 87).
void oracle_intact(float seen, const torch::Tensor &t) {
  auto host = t.cpu();
  if (seen != host.data_ptr<float>()[0])
    _exit(87);
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
        mallopt(M_PERTURB, 0xA5);
        try {
          oracle_entries[i](v & 1, v & 2);
        } catch (const c10::Error &e) {
          std::string what = e.what_without_backtrace();
          bool devices = what.find("same device") != std::string::npos ||
                         what.find("to be on") != std::string::npos;
          // The fake device's refusal of host memory given as its own.
          bool host_memory = what.find("is host memory") != std::string::npos;
          _exit(devices ? 3 : host_memory ? 90 : 4);
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


def choose(rng, count):
    """Each entry point's parts: its module class, its body before the sink
    (the device and the chain) and its sink, as lines, with what they are."""
    parts = []
    for i in range(count):
        dname, dcode, _ = rng.choice(DEVICES)
        cname, ccode, _, unseen = rng.choice(CHAINS)
        # .cuda() on a device with an index goes to the current device,
        # which the code does not say: some CUDA device, never compared.
        if dname == "index" and cname == "cuda-method":
            unseen = "current device"
        sname, scode, check, kind = rng.choice(SINKS)
        parts.append({
            "device": dname, "chain": cname, "sink": sname, "check": check, "kind": kind,
            "unseen": unseen,
            "module": MODULES[sname].replace("@K", str(i)).split("\n") if sname in MODULES else [],
            "body": indented(dcode) + indented(ccode),
            "sink_lines": indented(scode.replace("@K", str(i)))})
    return parts


def render(parts):
    """The batch's program text and, per entry point, where it is."""
    lines = PRELUDE.split("\n")
    entries = []
    for i, part in enumerate(parts):
        first = len(lines) + 1
        lines += part["module"]
        lines.append("void oracle_entry_%d(bool f0, bool f1) {" % i)
        lines.append("  (void)f0;")
        lines.append("  (void)f1;")
        lines += part["body"]
        lines.append("  oracle_reached();")
        sink_first = len(lines) + 1
        lines += part["sink_lines"]
        lines.append("}")
        # Where a finding may be: the sink's check on the sink's lines or in
        # the class the sink defines; a mixed-device operator the sink makes
        # with a module's member, on the sink's lines.
        check = part["check"]
        accepted = [(sink_first, len(lines), check)]
        if part["module"]:
            accepted += [(first, sink_first, check),
                         (sink_first, len(lines), "devplace-device-mismatch")]
        entries.append(dict(part, index=i, lines=(first, len(lines)), accepted=accepted))
    lines.append("using Entry = void (*)(bool, bool);")
    lines.append("Entry oracle_entries[] = {%s};" % ", ".join(
        "oracle_entry_%d" % i for i in range(len(parts))))
    lines.append("int oracle_entry_count = %d;" % len(parts))
    return "\n".join(lines) + "\n", entries


def torch_link_flags(build):
    """-L/-l flags for the build's LibTorch, from CMake's cache."""
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    m = re.search(r"^c10_LIBRARY:FILEPATH=(.*)$", cache, re.M)
    libdir = os.path.dirname(m.group(1)) if m else "/usr/lib/x86_64-linux-gnu"
    return ["-L" + libdir, "-Wl,-rpath," + libdir, "-ltorch", "-ltorch_cpu", "-lc10"]


def run_batch(args, seed, count, workdir):
    return run_program(args, choose(random.Random(seed), count), workdir)


def compile_or_exit(args, command, what, quiet=False):
    """Compiles with debug information; False when quiet and it fails,
    else a failure ends the run with the compiler's last words."""
    compiled = subprocess.run([args.clangxx, "-g", "-O0"] + command, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    if compiled.returncode != 0:
        if quiet:
            return False
        sys.stdout.write(compiled.stdout[-4000:])
        raise SystemExit("oracle: %s does not compile" % what)
    return True


def prepare(args, root):
    """What every program of a run shares, compiled once into root/common:
    the translation unit "elsewhere", the runner, and the prelude's headers
    as a precompiled header (a program then compiles in seconds, which the
    shrinker needs: it compiles once per line it tries to remove)."""
    common = os.path.join(root, "common")
    os.makedirs(common, exist_ok=True)
    # The runtime's include folder has devplace/fakecuda.h.
    runtime_include = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                   "runtime", "include")
    args.flags = shlex.split(open(os.path.join(args.build, "libtorch.flags")).read())
    args.flags.append("-I" + runtime_include)
    headers = os.path.join(common, "prelude.h")
    open(headers, "w").write("".join(l + "\n" for l in PRELUDE.split("\n")
                                     if l.startswith("#include")))
    args.pch = headers + ".pch"
    compile_or_exit(args, args.flags + ["-x", "c++-header", headers, "-o", args.pch], headers)
    args.objects = []
    for name, text in (("elsewhere", ELSEWHERE), ("runner", RUNNER)):
        src = os.path.join(common, name + ".cpp")
        open(src, "w").write(text)
        args.objects.append(src[:-4] + ".o")
        compile_or_exit(args, args.flags + ["-c", src, "-o", args.objects[-1]], src)


def run_program(args, parts, workdir, quiet=False):
    """Compiles and runs the entry points of parts; their outcomes and
    devplace's findings (None, when quiet, for a program that does not
    compile)."""
    program, entries = render(parts)
    src = os.path.join(workdir, "programs.cpp")
    open(src, "w").write(program)
    flags = args.flags
    exe = os.path.join(workdir, "oracle")
    if not compile_or_exit(args, ["-include-pch", args.pch] + flags + [src] + args.objects
                           + ["-o", exe] + torch_link_flags(args.build), src, quiet):
        return None
    fake = os.path.join(args.build, "runtime", "libdevplace_fakecuda.so")
    outcomes = collections.defaultdict(list)  # index -> [(valuation, reached, status)]
    for available in (True, False):
        env = dict(os.environ, DEVPLACE_FAKE_CUDA_BACKTRACE="0")
        if available:
            env["LD_PRELOAD"] = fake
            env["DEVPLACE_FAKE_CUDA_DEVICES"] = "2"  # the `index` device is cuda:1
        r = subprocess.run([exe], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
        for line in r.stdout.splitlines():
            i, v, reached, status = map(int, line.split())
            outcomes[i].append(((v, available), bool(reached), status))
    report = os.path.join(workdir, "findings.json")
    if args.project:
        # The program and the translation unit "elsewhere" as one project:
        # devplace follows calls into it through the project's summaries.
        other = os.path.join(workdir, "elsewhere.cpp")
        open(other, "w").write(ELSEWHERE)
        json.dump([{"directory": workdir, "file": f,
                    "arguments": [args.clangxx] + flags + ["-c", f]} for f in (src, other)],
                  open(os.path.join(workdir, "compile_commands.json"), "w"))
        command = [args.devplace, "-p", workdir, "-j", "1"]
        for e in entries:
            if e["unseen"] == "other file":
                e["unseen"] = None
    else:
        command = [args.devplace, src, "--"] + flags
    subprocess.run(command[:1] + ["--checks=-*,devplace-*", "--format=json",
                                  "--output=" + report] + command[1:],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    findings = [(f["line"], f["check"], f["message"])
                for f in json.load(open(report)).get("findings", [])
                if os.path.basename(f["file"]) == "programs.cpp"]
    return entries, outcomes, findings


def judge(entry, outcomes, findings):
    """One entry point's verdict: agree, precision, recall, or the class of
    code the model does not see or follow ("other file", "not followed")."""
    failure = FAILURES[entry["kind"]]
    reached = [(val, status) for val, was_reached, status in outcomes if was_reached]
    failed = [val for val, status in reached if status in failure]
    first, last = entry["lines"]
    mine = [(line, check, m) for line, check, m in findings if first <= line <= last]
    def accepted(line, check):
        return any(a <= line <= b and check == c for a, b, c in entry["accepted"])

    messages = [m for line, check, m in mine if accepted(line, check)]
    # Nothing but the sink can fail: a finding anywhere else is false.
    elsewhere = [(line, check) for line, check, m in mine if not accepted(line, check)]
    if elsewhere:
        return "precision", "reported at line %d (%s), where nothing fails" % elsewhere[0]
    if messages:
        definite = any(re.search(r"' is on (an? [A-Za-z]+ device|[a-z]+:)", m) for m in messages)
        # dangling-host-copy reports a tensor of unknown device (only one
        # proven on the host returns itself from .cpu()).
        if not failed and entry["unseen"] and entry["check"] == "devplace-dangling-host-copy":
            return entry["unseen"], "reported on an unknown device; no valuation fails"
        if not failed:
            return "precision", "reported, but no valuation fails"
        if definite and len(failed) != len(reached):
            return "precision", "'is on' reported, but %d of %d valuations pass" % (
                len(reached) - len(failed), len(reached))
        return "agree", ""
    if failed:
        return (entry["unseen"] or "recall"), "fails on %d of %d valuations" % (
            len(failed), len(reached))
    return "agree", ""


def shrink(args, part, verdict, workdir):
    """The entry point with its lines removed one at a time, as long as the
    program still compiles and disagrees in the same way."""
    def disagrees(trial):
        ran = run_program(args, [trial], workdir, quiet=True)
        return ran is not None and judge(ran[0][0], ran[1][0], ran[2])[0] == verdict

    changed = True
    while changed:
        changed = False
        for key in ("module", "body", "sink_lines"):
            i = 0
            while i < len(part[key]):
                trial = dict(part, **{key: part[key][:i] + part[key][i + 1:]})
                if disagrees(trial):
                    part, changed = trial, True
                else:
                    i += 1
    program, entries = render([part])
    first, last = entries[0]["lines"]
    return "\n".join(program.split("\n")[first - 1:last])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="a devplace build with the fake CUDA device")
    ap.add_argument("--clangxx", default="clang++-19")
    ap.add_argument("--count", type=int, default=200, help="entry points")
    ap.add_argument("--batch", type=int, default=400, help="entry points per compiled batch")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the batches here")
    ap.add_argument("--shrink", action="store_true",
                    help="print each disagreement shrunk to the lines it needs")
    ap.add_argument("--devplace", help="the devplace to judge (default: the build's)")
    ap.add_argument("--project", action="store_true",
                    help="analyse each program with the second translation unit as one "
                    "project (compile_commands.json): calls into it follow its summaries")
    args = ap.parse_args()
    args.devplace = args.devplace or os.path.join(args.build, "tool", "devplace")
    root = args.keep or tempfile.mkdtemp(prefix="devplace-oracle-")
    sizes = [min(args.batch, args.count - n) for n in range(0, args.count, args.batch)]
    prepare(args, root)

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
                    bad.append(("batch%d line %d (%s, %s, %s): %s: %s" % (
                        k, e["lines"][0], e["device"], e["chain"], e["sink"], verdict, why),
                        e, verdict))
    print("%-24s %-21s %6s %6s %9s %6s %10s %12s %14s" % (
        "construct", "sink", "points", "agree", "precision", "recall", "other file",
        "not followed", "current device"))
    for (chain, sink), c in sorted(table.items()):
        print("%-24s %-21s %6d %6d %9d %6d %10d %12d %14d" % (
            chain, sink, sum(c.values()), c["agree"], c["precision"], c["recall"],
            c["other file"], c["not followed"], c["current device"]))
    for line, e, verdict in bad:
        print("DISAGREEMENT " + line)
        if args.shrink:
            part = {k: v for k, v in e.items() if k not in ("index", "lines", "accepted")}
            d = os.path.join(root, "shrink")
            os.makedirs(d, exist_ok=True)
            print("SHRUNK (%s, still a %s disagreement):\n%s" % (
                e["sink"], verdict, shrink(args, part, verdict, d)))
    print("oracle: %d programs, %d entry points, %d valuations run: %d agree, %d precision "
          "and %d recall disagreements, %d through another file, %d through writes not "
          "followed, %d on the current device" % (
              len(sizes), sum(sizes), valuations, totals["agree"], totals["precision"],
              totals["recall"], totals["other file"], totals["not followed"],
              totals["current device"]))
    return 1 if totals["precision"] or totals["recall"] else 0


if __name__ == "__main__":
    sys.exit(main())
