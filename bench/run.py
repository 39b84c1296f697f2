#!/usr/bin/env python3
"""devplace's benchmark: devplace against `clang++ -fsyntax-only` of the same
LLVM on the same file in the same run, reported as ratios (never as timed
tests).

Workloads:
  real      a real LibTorch training file (examples/celeba_smile/train_buggy.cpp)
  real-pch  the same file over a precompiled header of its leading #include
            lines (built once per LLVM, not timed), for both commands: what
            devplace does for files that share them (--preamble); the floor
            is clang++ over the same header
  big-fn    a generated file with one 5,000-statement function full of
            branches, loops and sinks, on the mock headers
  many-fns  a generated file with 2,000 small functions, on the mock headers
  chains    a generated file with 2,000 functions calling each other in
            chains of depth 20 (cross-function summaries)
  objects   a generated file with 500 groups of a class that collects
            tensors in a member (written in one method, read in another), a
            function returning a tuple unpacked element-wise by its caller,
            and lambdas whose results are summarised (per-member, element
            and lambda summaries)

Each command runs --repeat times, interleaved; the table reports the median
CPU time (user + system, from wait4's rusage: steadier than wall time on a
shared 2-core machine), peak resident memory, and the ratios.

With --baseline OTHER_BUILD, a second devplace (another commit's build, for
a change that must not cost more) runs interleaved in the same loop, and its
ratio is reported beside this build's.

With several --build directories (builds against LLVM 16, 19, 22), every
build and its own LLVM's clang++ run interleaved in one loop.

Usage: bench/run.py [--build build ...] [--baseline DIR] [--repeat 5] [--only NAME ...] [--markdown]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MOCK = ["-std=c++17", "-I" + os.path.join(ROOT, "test", "Inputs")]
TORCH = ["-std=c++17", "-I/usr/include/torch/csrc/api/include", "-I/usr/include/opencv4",
         "-I" + os.path.join(ROOT, "runtime", "include")]


def big_function(statements):
    """One function whose body mixes device moves, joins, loops and sinks."""
    out = ["#include <torch/torch.h>", "#include <vector>", "#include <cstring>",
           "float big(bool flag, int n, float *dst) {",
           "  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;",
           "  torch::Tensor a = torch::zeros({4});",
           "  torch::Tensor b = torch::ones({4}).to(device);",
           "  float total = 0;"]
    count = 0
    i = 0
    while count < statements:
        k = i % 6
        if k == 0:
            out.append(f"  if (flag) a = a + b; else a = a.cpu();")
            count += 2
        elif k == 1:
            out.append(f"  for (int i{i} = 0; i{i} < n; ++i{i}) {{ b = b * 2; total += i{i}; }}")
            count += 3
        elif k == 2:
            out.append(f"  torch::Tensor t{i} = (a + b).relu();")
            count += 1
        elif k == 3:
            out.append(f"  if (t{i - 1}.is_cpu()) total += t{i - 1}.data_ptr<float>()[0];")
            count += 2
        elif k == 4:
            out.append(f"  {{ float *p{i} = a.data_ptr<float>(); total += p{i}[1]; }}")
            count += 2
        else:
            out.append(f"  std::memcpy(dst, b.cpu().data_ptr<float>(), 16);")
            count += 1
        i += 1
    out += ["  return total;", "}"]
    return "\n".join(out) + "\n"


def many_functions(n):
    out = ["#include <torch/torch.h>", "#include <vector>"]
    for i in range(n):
        if i % 2:
            out.append(f"float f{i}(torch::Tensor x) {{ auto t = x.cuda(); return t.data_ptr<float>()[0]; }}")
        else:
            out.append(f"float f{i}(torch::Tensor x) {{ auto t = x.cpu(); "
                       f"if (t.numel() > 2) t = t * 2; return t.data_ptr<float>()[0]; }}")
    return "\n".join(out) + "\n"


def call_chains(n, depth):
    out = ["#include <torch/torch.h>"]
    for c in range(n // depth):
        out.append(f"torch::Tensor c{c}_0(torch::Tensor x) {{ return x.relu(); }}")
        for d in range(1, depth):
            move = ".cuda()" if d == depth - 1 and c % 2 else ""
            out.append(f"torch::Tensor c{c}_{d}(torch::Tensor x) {{ return c{c}_{d - 1}(x{move} + 1); }}")
        out.append(f"float use{c}() {{ auto t = c{c}_{depth - 1}(torch::ones({{2}})); "
                   f"return t.data_ptr<float>()[0]; }}")
    return "\n".join(out) + "\n"


def objects_and_tuples(n):
    out = ["#include <torch/torch.h>", "#include <tuple>", "#include <vector>"]
    for i in range(n):
        out.append(f"struct Meter{i} {{ std::vector<torch::Tensor> seen;\n"
                   f"  void add(const torch::Tensor &t) {{ seen.push_back(t.detach()); }}\n"
                   f"  float last() const {{ return seen.back().data_ptr<float>()[0]; }} }};")
        out.append(f"std::tuple<torch::Tensor, torch::Tensor> split{i}(const torch::Tensor &x) {{\n"
                   f"  return {{x.to(torch::kCUDA) * 2, x.cpu()}}; }}")
        out.append(f"float use{i}(const torch::Tensor &x, Meter{i} &m) {{\n"
                   f"  auto [d, h] = split{i}(x);\n"
                   f"  auto to_host = [](const torch::Tensor &t) {{ return t.cpu(); }};\n"
                   f"  m.add({'d' if i % 2 else 'h'});\n"
                   f"  return to_host(d).data_ptr<float>()[0] + h.data_ptr<float>()[0] + m.last(); }}")
    return "\n".join(out) + "\n"


def leading_includes(path):
    """The #include lines that open a file (what devplace's --preamble shares)."""
    out = []
    for line in open(path):
        text = line.strip()
        if text.startswith("#include"):
            name = text.split(None, 1)[1].split("//")[0].strip()
            beside = os.path.join(os.path.dirname(os.path.abspath(path)), name[1:-1])
            if name.startswith('"') and os.path.exists(beside):
                text = '#include "%s"' % beside  # as devplace writes it
            out.append(text)
        elif text and not text.startswith("//"):
            break
    return "\n".join(out) + "\n"


def measure(cmd):
    """Runs cmd; returns (CPU seconds, peak RSS in MiB, exit status)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    return cpu, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def llvm_of(build):
    """(major version, clang++) of the LLVM a build directory was configured with."""
    cache = os.path.join(build, "CMakeCache.txt")
    if not os.path.exists(cache):
        sys.exit(f"bench: {build} is not configured; run scripts/setup.sh first")
    for line in open(cache):
        if line.startswith("LLVM_DIR:"):
            prefix = os.path.dirname(os.path.dirname(os.path.dirname(line.split("=", 1)[1].strip())))
            out = subprocess.run([os.path.join(prefix, "bin", "llvm-config"), "--version"],
                                 capture_output=True, text=True, check=True).stdout
            return out.split(".")[0], os.path.join(prefix, "bin", "clang++")
    sys.exit(f"bench: {cache} names no LLVM_DIR")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", action="append",
                    help="a build directory (default build/); repeat it for builds against other "
                         "LLVM versions, each measured against its own clang++ in the same loop")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--baseline", help="another build directory whose devplace runs interleaved "
                                       "(against the first build's clang++)")
    args = ap.parse_args()

    builds = []
    for build in args.build or [os.path.join(ROOT, "build")]:
        devplace = os.path.join(build, "tool", "devplace")
        if not os.path.exists(devplace):
            sys.exit(f"bench: {devplace} is not built; run scripts/setup.sh first")
        version, clangxx = llvm_of(build)
        builds.append((version, clangxx, devplace))
    baseline = os.path.join(args.baseline, "tool", "devplace") if args.baseline else None
    if baseline and not os.path.exists(baseline):
        sys.exit(f"bench: {baseline} is not built")
    tmp = tempfile.mkdtemp(prefix="devplace-bench-")
    files = {}
    for name, text in (("big-fn", big_function(5000)), ("many-fns", many_functions(2000)),
                       ("chains", call_chains(2000, 20)), ("objects", objects_and_tuples(500))):
        path = os.path.join(tmp, name + ".cpp")
        with open(path, "w") as f:
            f.write(text)
        files[name] = (path, MOCK)
    files["real"] = (os.path.join(ROOT, "examples", "celeba_smile", "train_buggy.cpp"), TORCH)
    files["real-pch"] = files["real"]

    rows = []
    parse_alone = {}  # clang++'s median per workload, for real-pch's second ratio
    for name in ("real", "real-pch", "big-fn", "many-fns", "chains", "objects"):
        if args.only and name not in args.only:
            continue
        path, flags = files[name]
        commands = []
        for version, clangxx, devplace in builds:
            extra = []
            if name == "real-pch":
                header = os.path.join(tmp, "leading-%s.h" % version)
                with open(header, "w") as f:
                    f.write(leading_includes(path))
                pch = header + ".pch"
                # Built as devplace builds its preambles: the headers' templates
                # instantiated in the precompiled file, not in each parse.
                subprocess.run([clangxx, *flags, "-fpch-instantiate-templates", "-x", "c++-header",
                                header, "-o", pch], check=True)
                extra = ["-include-pch", pch]
            commands.append((("clang", version), [clangxx, "-fsyntax-only", *flags, *extra, path]))
            commands.append((("devplace", version),
                             [devplace, "--quiet", "--preamble=never", path, "--", *flags, *extra]))
        if baseline:
            # The first build's command, run by the other devplace: the same
            # flags (real-pch's precompiled header included).
            ours = dict(commands)[("devplace", builds[0][0])]
            commands.append((("baseline", builds[0][0]), [baseline, *ours[1:]]))
        times = {key: [] for key, _ in commands}
        mem = {key: 0.0 for key, _ in commands}
        for _ in range(args.repeat):
            for key, cmd in commands:
                t, m, rc = measure(cmd)
                if rc not in (0, 1):
                    sys.exit(f"bench: {' '.join(cmd)} exited with {rc}")
                times[key].append(t)
                mem[key] = max(mem[key], m)
        for version, _, _ in builds:
            clang, tool = ("clang", version), ("devplace", version)
            tc, td = statistics.median(times[clang]), statistics.median(times[tool])
            if name == "real-pch" and ("real", version) in parse_alone:
                print(f"real-pch (LLVM {version}): devplace over the header against clang++ without one: "
                      f"{td / parse_alone[('real', version)]:.2f}", file=sys.stderr)
            parse_alone[(name, version)] = tc
            rows.append((name, version, tc, td, td / tc, mem[clang], mem[tool], mem[tool] / mem[clang]))
            print(f"{name} (LLVM {version}): CPU clang {tc:.2f}s, devplace {td:.2f}s, ratio {td / tc:.2f}; "
                  f"peak memory {mem[clang]:.0f} MiB vs {mem[tool]:.0f} MiB ({mem[tool] / mem[clang]:.2f})",
                  file=sys.stderr)
        if baseline:
            first = ("devplace", builds[0][0])
            tc = statistics.median(times[("clang", builds[0][0])])
            tb, td = statistics.median(times[("baseline", builds[0][0])]), statistics.median(times[first])
            print(f"{name}: baseline devplace {tb:.2f}s, ratio {tb / tc:.2f}; this build / baseline "
                  f"{td / tb:.3f}; peak memory {mem[('baseline', builds[0][0])]:.0f} MiB", file=sys.stderr)

    if args.markdown:
        print("| workload | LLVM | clang++ -fsyntax-only (CPU) | devplace (CPU) | time ratio | peak memory (clang / devplace) | memory ratio |")
        print("|---|---|---|---|---|---|---|")
        for name, version, tc, td, r, mc, md, rm in rows:
            print(f"| {name} | {version} | {tc:.2f} s | {td:.2f} s | {r:.2f}x | {mc:.0f} / {md:.0f} MiB | {rm:.2f}x |")


if __name__ == "__main__":
    main()
