#!/usr/bin/env python3
"""Whole-project benchmark of the result cache and of shards, as ratios in one
run (never timed tests).

By default it generates a CMake project of --files translation units that
include <torch/torch.h> and one project header (classes that collect tensors,
element-wise loops, a host-sink bug in every fourth file), configures it with
CMake to get compile_commands.json, and measures with the same -j:

  clang-tidy     clang-tidy-19 with one trivial check on every file (xargs -P)
  cold           devplace -p build with an empty --cache-dir
  warm           the same again, nothing changed
  one source     after appending a comment to one source file
  header         after changing the header every file includes
  shard 1, 2     --shard=1/2 and --shard=2/2 one after the other, no cache,
                 then `devplace merge` of their JSON, compared with cold's

and prints the ratios: cold / clang-tidy, the warm runs / cold, each shard /
cold. With --database DIR it measures an existing compile_commands.json (a
fetched project) instead: clang-tidy, cold and warm only.

Usage: bench/project.py [--build build] [--files 40] [-j 2] [--work DIR]
                        [--database DIR] [--markdown]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
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
    elementwise(on_host, 4);
  }}
  return h.mean();
}}
{bug}
}}  // namespace unit{i}
"""

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
        with open(os.path.join(work, "src", "unit_%03d.cpp" % i), "w") as f:
            f.write(UNIT.format(i=i, bug=BUG if i % 4 == 0 else ""))
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


def timed(cmd, cwd):
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - start
    if proc.returncode not in (0, 1):
        sys.exit("%s: exit %d\n%s" % (" ".join(cmd), proc.returncode, proc.stderr[-2000:]))
    return elapsed, proc.stderr


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
    # The headers into the page cache first, so the first run measured pays
    # nothing the others do not.
    subprocess.run(["clang-tidy-19", "-p", build, "--quiet", "--checks=" + TRIVIAL_CHECK,
                    sources[0]], cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    subprocess.run(["xargs", "-P", str(args.j), "-n", "1", "clang-tidy-19", "-p", build, "--quiet",
                    "--checks=" + TRIVIAL_CHECK], input="\n".join(sources), text=True,
                   cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t_tidy = time.monotonic() - start
    rows.append(("clang-tidy-19, one trivial check", t_tidy, ""))

    t_cold, log = timed(run + ["--cache-dir=" + cache, "--format=json", "--output=" + os.path.join(project, "cold.json")], project)
    rows.append(("devplace, cold (empty cache)", t_cold, "%.2fx clang-tidy" % (t_cold / t_tidy)))
    t_warm, log = timed(run + ["--cache-dir=" + cache], project)
    rows.append(("devplace, warm, nothing changed", t_warm,
                 "%.3fx cold; %s" % (t_warm / t_cold, log.strip().splitlines()[-1])))

    if not args.database:
        with open(sources[len(sources) // 2], "a") as f:
            f.write("// one source file changed\n")
        t_one, log = timed(run + ["--cache-dir=" + cache], project)
        rows.append(("devplace, warm, one source file changed", t_one,
                     "%.3fx cold; %s" % (t_one / t_cold, log.strip().splitlines()[-1])))
        with open(os.path.join(project, "include", "project.h"), "a") as f:
            f.write("// the header every file includes changed\n")
        t_header, log = timed(run + ["--cache-dir=" + cache], project)
        rows.append(("devplace, warm, the common header changed", t_header,
                     "%.2fx cold; %s" % (t_header / t_cold, log.strip().splitlines()[-1])))
        shard_reports = []
        for k in (1, 2):
            out = os.path.join(project, "shard-%d.json" % k)
            t_shard, _ = timed(run + ["--shard=%d/2" % k, "--format=json", "--output=" + out], project)
            rows.append(("devplace --shard=%d/2, no cache" % k, t_shard, "%.2fx cold" % (t_shard / t_cold)))
            shard_reports.append(out)
        merged = subprocess.run([devplace, "merge"] + shard_reports, stdout=subprocess.PIPE, text=True).stdout
        single = open(os.path.join(project, "cold.json")).read()
        strip = lambda text: [l for l in text.splitlines() if '"seconds"' not in l]
        same = strip(merged) == strip(single)
        rows.append(("merge of the two shards", 0.0,
                     "same findings as one run" if same else "DIFFERENT from one run"))
        if not same:
            print("merged shards differ from the single run", file=sys.stderr)

    machine = "%d cores, %s" % (os.cpu_count(), subprocess.run(
        ["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
        stdout=subprocess.PIPE, text=True).stdout.strip())
    title = "%d files (%s), -j %d, %s" % (len(sources), "generated" if not args.database else project,
                                          args.j, machine)
    if args.markdown:
        print("%s\n\n| run | seconds | ratio |\n| --- | ---: | --- |" % title)
        for name, seconds, ratio in rows:
            print("| %s | %.1f | %s |" % (name, seconds, ratio))
    else:
        print(title)
        for name, seconds, ratio in rows:
            print("%-45s %8.1f s  %s" % (name, seconds, ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
