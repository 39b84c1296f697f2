#!/usr/bin/env python3
"""Adds a devplace check: its line in checks/Checks.def, its header and
source (a check that walks the main file's functions and reports nothing
yet), its page docs/checks/NAME.md, its lit test test/checks/NAME.cpp and
its row in the README's check table.

  scripts/new-check.py NAME ["one line: what it reports"] [--root DIR]

NAME is the check's id without "devplace-" (lowercase words joined by '-').
What is left to write is the rule: ask the model (model/include/devplace/
model/Questions.h) in the source's checkFunction, and the page's text."""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEADER = """//===--- {cls}.h - devplace-{name} {dash}*- C++ -*-===//
//
// {summary}
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_{guard}_H
#define DEVPLACE_{guard}_H

#include "utils/MainFileDecls.h"

namespace clang::tidy::devplace {{

class {cls} : public MainFileCheck {{
public:
  using MainFileCheck::MainFileCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkFunction(const FunctionDecl *FD, ASTContext &Ctx);
}};

}} // namespace clang::tidy::devplace

#endif
"""

SOURCE = """//===--- {cls}.cpp - devplace-{name} {dash}===//

#include "{cls}.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::devplace {{

void {cls}::check(const MatchFinder::MatchResult &Result) {{
  ASTContext &Ctx = *Result.Context;
  for (const FunctionDecl *FD : mainFileFunctions(Ctx))
    if (!FD->isInvalidDecl() && FD->getBody())
      checkFunction(FD, Ctx);
}}

void {cls}::checkFunction(const FunctionDecl *FD, ASTContext &Ctx) {{
  // The rule: ask the model's questions (devplace/model/Questions.h) about
  // FD and report with diag().
}}

}} // namespace clang::tidy::devplace
"""

PAGE = """# devplace-{name}

{summary}

## Why

## Options

None.
"""

TEST = """// devplace-{name}: {summary}
// RUN: %devplace --checks='-*,devplace-{name}' %s -- %mock_flags 2>&1 | FileCheck %s -implicit-check-not='{{{{warning|note}}}}:'
// CHECK: devplace: 1 file, 0 findings
#include <torch/torch.h>

void nothing_to_report(torch::Tensor t) {{ (void)t; }}
"""


def banner(prefix, suffix):
    """Pads an LLVM-style first line to 80 columns."""
    return "-" * max(1, 80 - len(prefix) - len(suffix))


def write(path, text):
    if os.path.exists(path):
        sys.exit("new-check: %s exists already" % path)
    with open(path, "w") as f:
        f.write(text)
    print("wrote", os.path.relpath(path, ROOT_DIR))


def main():
    global ROOT_DIR
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name")
    ap.add_argument("summary", nargs="?", default=None)
    ap.add_argument("--root", default=ROOT, help="the source tree (default: this one)")
    args = ap.parse_args()
    ROOT_DIR = root = args.root
    name = args.name
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
        sys.exit("new-check: NAME is lowercase words joined by '-' (e.g. host-sink), not '%s'" % name)
    if name.startswith("devplace-"):
        sys.exit("new-check: give NAME without 'devplace-'")
    cls = "".join(w.capitalize() for w in name.split("-")) + "Check"
    summary = args.summary or "Reports … (one paragraph: what this check finds)."
    defs = os.path.join(root, "checks", "Checks.def")
    text = open(defs).read()
    lines = re.findall(r'^DEVPLACE_CHECK\("([a-z0-9-]+)", (\w+)\)$', text, re.M)
    if any(n == name for n, _ in lines):
        sys.exit("new-check: devplace-%s is in checks/Checks.def already" % name)

    first = "//===--- %s.h - devplace-%s " % (cls, name)
    write(os.path.join(root, "checks", cls + ".h"),
          HEADER.format(cls=cls, name=name, summary=summary, guard=cls.upper(),
                        dash=banner(first, "*- C++ -*-===//")))
    first = "//===--- %s.cpp - devplace-%s " % (cls, name)
    write(os.path.join(root, "checks", cls + ".cpp"),
          SOURCE.format(cls=cls, name=name, dash=banner(first, "===//")))
    write(os.path.join(root, "docs", "checks", name + ".md"), PAGE.format(name=name, summary=summary))
    write(os.path.join(root, "test", "checks", name + ".cpp"), TEST.format(name=name, summary=summary))

    # Checks.def: in order of names.
    entry = 'DEVPLACE_CHECK("%s", %s)\n' % (name, cls)
    out, placed = [], False
    for line in text.splitlines(keepends=True):
        m = re.match(r'^DEVPLACE_CHECK\("([a-z0-9-]+)"', line)
        if not placed and (m and m.group(1) > name or line.startswith("#undef")):
            if line.startswith("#undef") and out and out[-1] == "\n":
                out.insert(len(out) - 1, entry)
            else:
                out.append(entry)
            placed = True
        out.append(line)
    with open(defs, "w") as f:
        f.write("".join(out))
    print("added devplace-%s to checks/Checks.def" % name)

    # The README's check table: after its last row.
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        rows = open(readme).read().splitlines(keepends=True)
        last = max((i for i, l in enumerate(rows) if l.startswith("| `devplace-")), default=None)
        if last is None:
            sys.exit("new-check: README.md has no check table (rows '| `devplace-…` |')")
        rows.insert(last + 1, "| `devplace-%s` | %s | [%s.md](docs/checks/%s.md) |\n"
                    % (name, summary.rstrip("."), name, name))
        with open(readme, "w") as f:
            f.write("".join(rows))
        print("added devplace-%s to README.md's check table" % name)


if __name__ == "__main__":
    main()
