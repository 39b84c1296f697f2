"""Writes a LibTorch project of N translation units and its compile_commands.json.

Usage: make_project.py DIR N INPUTS [--broken] [--header] [--sinks-only]

Every fourth file has a host-sink bug, every fourth (offset 1) a per-batch sync,
the rest are clean; --broken adds one file that does not compile. Each file's
kind is written in its name so tests can count what they expect. --header makes
every file include the project's own DIR/include/common.h, searched after
DIR/override (which is empty); --sinks-only gives every file a host-sink bug.
"""
import json
import os
import sys

HOST_SINK = """#include <torch/torch.h>
#include <vector>

// Unrelated code above the bug: baseline keys must not depend on it.
float first_{i}(const torch::Tensor &x) {{
  auto t = x.to(torch::kCUDA);
  return t.data_ptr<float>()[0];
}}
"""

SYNC = """#include <torch/torch.h>
#include <vector>

double epoch_{i}(std::vector<torch::Tensor> &batches) {{
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  double total = 0;
  for (auto &b : batches) {{
    auto loss = (b.to(device) * 2).sum();
    total += loss.item<double>();
  }}
  return total;
}}
"""

CLEAN = """#include <torch/torch.h>
#include <vector>

float clean_{i}(const torch::Tensor &x) {{
  auto t = x.to(torch::kCUDA).cpu();
  return t.data_ptr<float>()[0];
}}
"""

BROKEN = """#include <torch/torch.h>
float broken() { return not_declared_anywhere; }
"""


def main():
    root, count, inputs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    src = os.path.join(root, "src")
    os.makedirs(src, exist_ok=True)
    files = []
    kinds = [("sink", HOST_SINK), ("sync", SYNC), ("clean", CLEAN), ("clean", CLEAN)]
    if "--sinks-only" in sys.argv:
        kinds = [("sink", HOST_SINK)]
    header = "--header" in sys.argv
    flags = "-std=c++17 -I%s" % inputs
    if header:
        for d in ("override", "include"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        with open(os.path.join(root, "include", "common.h"), "w") as f:
            f.write("#pragma once\nconstexpr int kCommon = 1;\n")
        flags = "-std=c++17 -I%s -I%s -I%s" % (
            os.path.join(root, "override"), os.path.join(root, "include"), inputs)
    for i in range(count):
        kind, text = kinds[i % len(kinds)]
        name = os.path.join(src, "%s_%03d.cpp" % (kind, i))
        with open(name, "w") as f:
            f.write(('#include "common.h"\n' if header else "") + text.format(i=i))
        files.append(name)
    if "--broken" in sys.argv:
        name = os.path.join(src, "broken.cpp")
        with open(name, "w") as f:
            f.write(BROKEN)
        files.append(name)
    build = os.path.join(root, "build")
    os.makedirs(build, exist_ok=True)
    db = [{"directory": build, "file": f,
           "command": "clang++ %s -c %s -o %s.o" % (flags, f, os.path.basename(f))}
          for f in files]
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)


if __name__ == "__main__":
    main()
