#!/usr/bin/env python3
"""Whole-project benchmark of the result cache and of shards, as ratios in one
run (never timed tests).

By default it generates a CMake project of --files translation units that
include <torch/torch.h> and one project header (classes that collect tensors,
element-wise loops, a host-sink bug in every fourth file), configures it with
CMake to get compile_commands.json, and measures with the same -j:

  clang-tidy     clang-tidy-19 with one trivial check on every file (xargs -P)
  clang-tidy-22  the same with clang-tidy-22 (when installed) on a copy of the
                 database with LibTorch's include folder as -isystem: its
                 skipping of system headers' declarations applies
  whole AST      devplace with --preamble=never --traverse-headers: every file
                 parsed alone, the checks' traversal over every header (how
                 devplace ran before the shared preamble)
  cold           devplace -p build with an empty --cache-dir (a shared
                 preamble of the files' leading #includes, main-file
                 traversal, project summaries: every fourth generated file
                 calls a helper the next one defines, and is analysed
                 again once that file's summary is known); its findings
                 are compared with whole AST's
  alone          the same without project summaries (each file alone,
                 no cache): what the summaries' second round costs
  warm           the same again, nothing changed
  one source     after appending a comment to one source file
  header         after changing the header every file includes
  shard 1, 2     --shard=1/2 and --shard=2/2 one after the other, no cache,
                 then `devplace merge` of their JSON, compared with cold's

and prints the ratios: cold / clang-tidy, the warm runs / cold, each shard /
cold, with each run's peak resident memory (the largest process) and the
preambles' size on disk. With --database DIR it measures an existing compile_commands.json (a
fetched project) instead: clang-tidy, cold and warm only.

Usage: bench/project.py [--build build] [--files 40] [-j 2] [--work DIR]
                        [--database DIR] [--markdown]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRIVIAL_CHECK = "-*,readability-braces-around-statements"

HEADER = """#pragma once
#include <torch/torch.h>
#include <vector>

// A class that collects tensors from its callers (per-object summaries).
class History {
 public:
  void add(const torch::Tensor &t) { values_.push_back(t.detach()); }
  double mean() const {
    double sum = 0;
    for (const auto &v : values_) sum += v.item<double>();
    return values_.empty() ? 0 : sum / values_.size();
  }
 private:
  std::vector<torch::Tensor> values_;
};
"""

UNIT = """#include "project.h"
#include <cstring>
#include <tuple>

namespace unit{i} {{
std::tuple<torch::Tensor, torch::Tensor> split(const torch::Tensor &x, torch::Device d) {{
  return {{x.to(d), x.cpu()}};
}}

float elementwise(const torch::Tensor &x, int n) {{
  auto t = x.cpu().contiguous();
  float *p = t.data_ptr<float>();
  float total = 0;
  for (int k = 0; k < n; ++k) total += p[k] * {i};
  return total;
}}

double train(std::vector<torch::Tensor> &batches, History &h) {{
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  for (auto &b : batches) {{
    auto [on_device, on_host] = split(b, device);
    h.add((on_device * 2).sum());
    elementwise(on_host, 4);{call}
  }}
  return h.mean();
}}
{bug}
}}  // namespace unit{i}

torch::Tensor to_device_{i}(const torch::Tensor &x, torch::Device d) {{ return x.to(d); }}
"""

# Every fourth unit (offset 2) also calls a helper that the next unit
# defines: the calls project summaries follow across files.
CALL = """
    h.add(to_device_{next}(b, device).sum());"""

BUG = """
float first(const torch::Tensor &x) {
  auto t = x.to(torch::kCUDA);
  return t.data_ptr<float>()[0];
}
"""


def generate(work, files):
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, "src"))
    os.makedirs(os.path.join(work, "include"))
    with open(os.path.join(work, "include", "project.h"), "w") as f:
        f.write(HEADER)
        for i in range(files):
            f.write("torch::Tensor to_device_%d(const torch::Tensor &x, torch::Device d);\n" % i)
    for i in range(files):
        with open(os.path.join(work, "src", "unit_%03d.cpp" % i), "w") as f:
            f.write(UNIT.format(i=i, bug=BUG if i % 4 == 0 else "",
                                call=CALL.format(next=(i + 1) % files) if i % 4 == 2 else ""))
    with open(os.path.join(work, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.16)\n"
                "project(generated CXX)\n"
                "set(CMAKE_CXX_STANDARD 17)\n"
                "file(GLOB UNITS src/*.cpp)\n"
                "add_library(units OBJECT ${UNITS})\n"
                "target_include_directories(units PRIVATE include\n"
                "  /usr/include/torch/csrc/api/include)\n")
    subprocess.run(["cmake", "-S", work, "-B", os.path.join(work, "build"), "-G", "Ninja",
                    "-DCMAKE_CXX_COMPILER=clang++-19", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                   check=True, stdout=subprocess.DEVNULL)


def timed(cmd, cwd, stdin=None):
    """Runs cmd; returns (seconds, stderr, peak RSS in MiB of its largest
    process: wait4's figure covers the children it waited for)."""
    with tempfile.TemporaryFile("w+") as err, tempfile.TemporaryFile("w+") as inp:
        if stdin:
            inp.write(stdin)
            inp.seek(0)
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, stdin=inp if stdin else None,
                                stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.monotonic() - start
        rc = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read()
    if rc not in (0, 1, 123):  # 123: xargs, when a file had warnings
        sys.exit("%s: exit %d\n%s" % (" ".join(cmd), rc, text[-2000:]))
    return elapsed, text, usage.ru_maxrss / 1024.0


def isystem_database(build, out):
    """A copy of the database with LibTorch's include folders as -isystem."""
    os.makedirs(out, exist_ok=True)
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    for e in db:
        if "command" in e:
            e["command"] = re.sub(r"-I\s*(\S*torch\S*)", r"-isystem \1", e["command"])
        else:
            args, fixed = e["arguments"], []
            for a in args:
                if a.startswith("-I") and "torch" in a:
                    fixed += ["-isystem", a[2:]]
                else:
                    fixed.append(a)
            e["arguments"] = fixed
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--files", type=int, default=40)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--work", default="/tmp/devplace-bench-project")
    ap.add_argument("--database", help="measure this compile_commands.json's directory")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    devplace = os.path.join(os.path.abspath(args.build), "tool", "devplace")

    if args.database:
        project = os.path.abspath(args.database)
        build = project
    else:
        generate(args.work, args.files)
        project = args.work
        build = os.path.join(project, "build")
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    sources = sorted({os.path.join(e["directory"], e["file"]) for e in db})
    cache = os.path.join(project, ".bench-cache")
    shutil.rmtree(cache, ignore_errors=True)
    run = [devplace, "-p", build, "-j", str(args.j)]

    rows = []
    strip = lambda text: [l for l in text.splitlines() if '"seconds"' not in l]
    # The headers into the page cache first, so the first run measured pays
    # nothing the others do not.
    subprocess.run(["clang-tidy-19", "-p", build, "--quiet", "--checks=" + TRIVIAL_CHECK,
                    sources[0]], cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t_tidy, _, m_tidy = timed(["xargs", "-P", str(args.j), "-n", "1", "clang-tidy-19", "-p", build,
                               "--quiet", "--checks=" + TRIVIAL_CHECK], project, "\n".join(sources))
    rows.append(("clang-tidy-19, one trivial check", t_tidy, "", m_tidy))
    if shutil.which("clang-tidy-22"):
        sysdb = isystem_database(build, os.path.join(project, ".bench-isystem"))
        t_tidy22, _, m = timed(["xargs", "-P", str(args.j), "-n", "1", "clang-tidy-22", "-p", sysdb,
                                "--quiet", "--checks=" + TRIVIAL_CHECK], project, "\n".join(sources))
        rows.append(("clang-tidy-22, one trivial check, LibTorch as -isystem", t_tidy22,
                     "%.2fx clang-tidy-19" % (t_tidy22 / t_tidy), m))
    else:
        t_tidy22 = None

    whole_json = os.path.join(project, "whole.json")
    t_whole, _, m = timed(run + ["--preamble=never", "--traverse-headers", "--format=json",
                                 "--output=" + whole_json], project)
    rows.append(("devplace, each file alone, whole-AST traversal", t_whole,
                 "%.2fx clang-tidy-19" % (t_whole / t_tidy), m))
    t_cold, log, m = timed(run + ["--cache-dir=" + cache, "--format=json", "--output=" + os.path.join(project, "cold.json")], project)
    preamble_mib = sum(os.path.getsize(os.path.join(cache, "preambles", f))
                       for f in os.listdir(os.path.join(cache, "preambles"))
                       if f.endswith(".pch")) / 2**20 if os.path.isdir(os.path.join(cache, "preambles")) else 0
    same = strip(open(whole_json).read()) == strip(open(os.path.join(project, "cold.json")).read())
    ratio = "%.2fx clang-tidy-19" % (t_cold / t_tidy)
    if t_tidy22:
        ratio += ", %.2fx clang-tidy-22" % (t_cold / t_tidy22)
    ratio += ", %.2fx whole-AST; %s; preambles %.0f MiB on disk" % (
        t_cold / t_whole, "same findings" if same else "DIFFERENT findings", preamble_mib)
    rows.append(("devplace, cold (empty cache, shared preamble)", t_cold, ratio, m))
    if not same:
        print("the cold run's findings differ from the whole-AST run's", file=sys.stderr)
    t_alone, _, m = timed(run + ["--project-summaries=false"], project)
    rows.append(("devplace, cold, each file alone (--project-summaries=false)", t_alone,
                 "cold with summaries / this: %.2fx" % (t_cold / t_alone), m))
    t_warm, log, m = timed(run + ["--cache-dir=" + cache], project)
    rows.append(("devplace, warm, nothing changed", t_warm,
                 "%.3fx cold; %s" % (t_warm / t_cold, log.strip().splitlines()[-1]), m))

    if not args.database:
        with open(sources[len(sources) // 2], "a") as f:
            f.write("// one source file changed\n")
        t_one, log, m = timed(run + ["--cache-dir=" + cache], project)
        rows.append(("devplace, warm, one source file changed (kept preamble)", t_one,
                     "%.3fx cold; %s" % (t_one / t_cold, log.strip().splitlines()[-1]), m))
        with open(os.path.join(project, "include", "project.h"), "a") as f:
            f.write("// the header every file includes changed\n")
        t_header, log, m = timed(run + ["--cache-dir=" + cache], project)
        rows.append(("devplace, warm, the common header changed", t_header,
                     "%.2fx cold; %s" % (t_header / t_cold, log.strip().splitlines()[-1]), m))
        shard_reports = []
        for k in (1, 2):
            out = os.path.join(project, "shard-%d.json" % k)
            t_shard, _, m = timed(run + ["--shard=%d/2" % k, "--format=json", "--output=" + out], project)
            rows.append(("devplace --shard=%d/2, no cache" % k, t_shard, "%.2fx cold" % (t_shard / t_cold), m))
            shard_reports.append(out)
        merged = subprocess.run([devplace, "merge"] + shard_reports, stdout=subprocess.PIPE, text=True).stdout
        single = open(os.path.join(project, "cold.json")).read()
        same = strip(merged) == strip(single)
        rows.append(("merge of the two shards", 0.0,
                     "same findings as one run" if same else "DIFFERENT from one run", None))
        if not same:
            print("merged shards differ from the single run", file=sys.stderr)

    machine = "%d cores, %s" % (os.cpu_count(), subprocess.run(
        ["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
        stdout=subprocess.PIPE, text=True).stdout.strip())
    title = "%d files (%s), -j %d, %s" % (len(sources), "generated" if not args.database else project,
                                          args.j, machine)
    if args.markdown:
        print("%s\n\n| run | seconds | peak memory | ratio |\n| --- | ---: | ---: | --- |" % title)
        for name, seconds, ratio, mib in rows:
            print("| %s | %.1f | %s | %s |" % (name, seconds, "%.0f MiB" % mib if mib else "", ratio))
    else:
        print(title)
        for name, seconds, ratio, mib in rows:
            print("%-55s %8.1f s %8s  %s" % (name, seconds, "%.0f MiB" % mib if mib else "", ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
