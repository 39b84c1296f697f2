"""Writes a small LibTorch project (mock headers) whose files share leading
#include lines in several ways, with its compile_commands.json.

Usage: preamble_project.py DIR INPUTS
       preamble_project.py --targets DIR INPUTS

  src/model.h        the project's header, found beside the sources: an
                     inline function that moves its argument to CUDA when
                     the .clang-tidy's ExtraArgs define DEVPLACE_TEST_GPU
  src/guarded.h      a header with include guards; src/unguarded.h one without
  src/sink_a.cpp,    <torch/torch.h> then "model.h": a host read of what the
  src/sink_b.cpp     header's function returns (a summary of header code)
  src/clean.cpp      the same leading lines, nothing to report
  src/twice_a.cpp,   leading lines that begin with the unguarded header: a
  src/twice_b.cpp    preamble of it makes its struct defined twice
  src/alone.cpp      leading lines of its own (<vector>, then "guarded.h")
  src/std_a.cpp,     standard headers in different orders, then "guarded.h"
  src/std_b.cpp      and <torch/torch.h>: with the standard headers set last
                     they share those two

The sink files, clean.cpp and missing.cpp share two lines; the preamble they
take is the longest the most files share.
  src/macro.cpp      a #define before its includes: nothing to share
  src/missing.cpp    the sink files' lines, then a header that does not
                     exist: it fails over the preamble as it fails alone

With --targets, three files of three CMake-like targets whose commands
differ only in an include directory of their own (searched first, given
relative to the target's build folder) and in that folder (three's is
build/three, the others' build), with the same leading lines:
  apps/one.cpp,      a host read of what model.h's function returns
  apps/three.cpp
  apps/two.cpp       a host read of a tensor moved to CUDA only when
                     DEVPLACE_SHADOW is defined: a header of its own
                     include directory that shadows one torch.h includes
                     would define it
  apps/inc_NAME/     the targets' own include directories, empty
and two targets whose commands are the same but for their folders,
build/four and build/five, each with `-include defaults.h`: a header of
that folder, under one include guard, that defines DEVPLACE_SHADOW in
five's alone.
  apps/four.cpp,     two.cpp's code: a finding in five.cpp only
  apps/five.cpp
"""
import json
import os
import sys

MODEL = """#pragma once
#include <torch/torch.h>
#ifdef DEVPLACE_TEST_GPU
inline torch::Tensor to_gpu(const torch::Tensor &x) { return x.to(torch::kCUDA); }
#else
inline torch::Tensor to_gpu(const torch::Tensor &x) { return x; }
#endif
"""

# The macro model.h tests comes from the configuration, found from the
# sources' folder: a preamble must be built with it too.
CLANG_TIDY = """ExtraArgs: ['-DDEVPLACE_TEST_GPU']
"""

GUARDED = """#ifndef GUARDED_H
#define GUARDED_H
struct Guarded { int n = 0; };
#endif
"""

UNGUARDED = """struct Unguarded { int n = 0; };
"""

SINK = """// A file of the project.
#include <torch/torch.h>
#include "model.h" // the project's own

float read_{name}(const torch::Tensor &x) {{
  torch::Tensor t = to_gpu(x);
  return t.data_ptr<float>()[0];
}}
"""

CLEAN = """#include <torch/torch.h>
#include "model.h"

float clean(const torch::Tensor &x) { return x.cpu().data_ptr<float>()[0]; }
"""

TWICE = """#include "unguarded.h"
#include <torch/torch.h>
#include "guarded.h"

float twice_{name}(const torch::Tensor &x) {{
  Unguarded u;
  auto t = x.to(torch::kCUDA);
  return t.data_ptr<float>()[u.n];
}}
"""

ALONE = """#include <vector>
#include "guarded.h"
#include <torch/torch.h>

float alone(const torch::Tensor &x) {
  auto t = x.cuda();
  return t.data_ptr<float>()[0];
}
"""

STD = """{includes}#include "guarded.h"
#include <torch/torch.h>

float std_{name}(const torch::Tensor &x) {{
  Guarded g;
  auto t = x.cuda();
  return t.data_ptr<float>()[g.n];
}}
"""

MISSING = """#include <torch/torch.h>
#include "model.h"
#include <no_such_header.h>

float missing(const torch::Tensor &x) { return x.cpu().data_ptr<float>()[0]; }
"""

MACRO = """#define DEVPLACE_TEST_MACRO 1
#include <torch/torch.h>

float macro(const torch::Tensor &x) {
  auto t = x.cuda();
  return t.data_ptr<float>()[DEVPLACE_TEST_MACRO];
}
"""


TARGET_SHADOWED = """#include <torch/torch.h>
#include "model.h"

float read_two(const torch::Tensor &x) {
#ifdef DEVPLACE_SHADOW
  auto t = x.cuda();
#else
  auto t = x.cpu();
#endif
  return t.data_ptr<float>()[0];
}
"""


def targets(root, inputs):
    apps = os.path.join(root, "apps")
    names = ["one", "two", "three"]
    for name in names:
        os.makedirs(os.path.join(apps, "inc_" + name), exist_ok=True)
    os.makedirs(os.path.join(root, "build"), exist_ok=True)
    files = {"model.h": MODEL, "one.cpp": SINK.format(name="one"),
             "two.cpp": TARGET_SHADOWED, "three.cpp": SINK.format(name="three")}
    for name, text in files.items():
        with open(os.path.join(apps, name), "w") as f:
            f.write(text)
    with open(os.path.join(root, ".clang-tidy"), "w") as f:
        f.write(CLANG_TIDY)
    folders = {"one": "build", "two": "build", "three": "build/three"}
    db = []
    for n in names:
        up = "../" * folders[n].count("/")
        os.makedirs(os.path.join(root, folders[n]), exist_ok=True)
        db.append({"directory": os.path.join(root, folders[n]),
                   "command": "clang++ -std=c++17 -I %s../apps/inc_%s -I%s -c %s../apps/%s.cpp -o %s.o"
                              % (up, n, inputs, up, n, n),
                   "file": "%s../apps/%s.cpp" % (up, n)})
    for n, defines in (("four", ""), ("five", "#define DEVPLACE_SHADOW 1\n")):
        folder = os.path.join(root, "build", n)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "defaults.h"), "w") as f:
            f.write("#ifndef DEFAULTS_H\n#define DEFAULTS_H\n%s#endif\n" % defines)
        with open(os.path.join(apps, n + ".cpp"), "w") as f:
            f.write(TARGET_SHADOWED.replace("read_two", "read_" + n))
        db.append({"directory": folder,
                   "command": "clang++ -std=c++17 -include defaults.h -I%s -c ../../apps/%s.cpp -o %s.o"
                              % (inputs, n, n),
                   "file": "../../apps/%s.cpp" % n})
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)


def main():
    if sys.argv[1] == "--targets":
        targets(os.path.abspath(sys.argv[2]), sys.argv[3])
        return
    root, inputs = os.path.abspath(sys.argv[1]), sys.argv[2]
    src = os.path.join(root, "src")
    os.makedirs(src, exist_ok=True)
    os.makedirs(os.path.join(root, "build"), exist_ok=True)
    files = {"model.h": MODEL, "guarded.h": GUARDED, "unguarded.h": UNGUARDED,
             "sink_a.cpp": SINK.format(name="a"), "sink_b.cpp": SINK.format(name="b"),
             "clean.cpp": CLEAN, "twice_a.cpp": TWICE.format(name="a"),
             "twice_b.cpp": TWICE.format(name="b"), "alone.cpp": ALONE, "macro.cpp": MACRO,
             "std_a.cpp": STD.format(name="a", includes="#include <vector>\n#include <string>\n"),
             "std_b.cpp": STD.format(name="b", includes="#include <string>\n#include <map>\n"),
             "missing.cpp": MISSING}
    for name, text in files.items():
        with open(os.path.join(src, name), "w") as f:
            f.write(text)
    with open(os.path.join(root, ".clang-tidy"), "w") as f:
        f.write(CLANG_TIDY)
    db = [{"directory": os.path.join(root, "build"),
           "command": "clang++ -std=c++17 -I%s -c %s -o %s.o" % (inputs, os.path.join(src, n), n),
           "file": os.path.join(src, n)}
          for n in sorted(files) if n.endswith(".cpp")]
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)


if __name__ == "__main__":
    main()
