#!/usr/bin/env python3
"""Records every report devplace gives on a corpus, in a stable text form, so
that a change of the engine can be shown to keep them byte for byte.

  scripts/record-reports.py BUILD_DIR OUT_FILE [-p DB_DIR ...] [--arg=ARG ...]

The corpus: every lit input under test/checks (mock headers), the integration
tests and the example (real LibTorch headers), each with all devplace checks
and once more with StrictMode on; then every file of each compilation
database named with -p (real projects fetched for a measurement). --arg
passes an option to every devplace run (`--arg=--preamble=always`,
`--arg=--traverse-headers`: the same reports in every mode). Each
finding is one line: file:line:col check message, then its notes and fix-its
indented, in the order devplace gives them."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MOCK = ["-std=c++17", "-I" + os.path.join(ROOT, "test", "Inputs")]
TORCH = ["-std=c++17", "-I/usr/include/torch/csrc/api/include", "-I/usr/include/opencv4",
         "-I" + os.path.join(ROOT, "runtime", "include")]


def render(report, base):
    out = []
    rel = lambda f: os.path.relpath(f, base) if os.path.isabs(f) else f
    for f in report.get("findings", []):
        out.append("%s:%d:%d: %s [%s] %s (in %s)" % (rel(f["file"]), f["line"], f["column"],
                                                    f.get("level", ""), f["check"], f["message"],
                                                    f.get("function", "")))
        for n in f.get("notes", []):
            out.append("  note %s:%d:%d: %s" % (rel(n["file"]), n["line"], n["column"], n["message"]))
        for e in f.get("fixes", []):
            out.append("  fix %s" % json.dumps(e, sort_keys=True).replace(base + "/", ""))
    for r in report.get("remarks", []):
        out.append("remark %s" % json.dumps(r, sort_keys=True).replace(base + "/", ""))
    for ff in report.get("failedFiles", []):
        out.append("failed %s" % rel(ff["file"]))
    return out


def run(devplace, args, base):
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        subprocess.run([devplace, "--format=json", "--output=" + tmp.name] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=base)
        try:
            with open(tmp.name) as f:
                return render(json.load(f), base)
        except (ValueError, OSError):
            return ["no report"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("-p", action="append", default=[], help="a compilation database directory")
    ap.add_argument("-j", default="2")
    ap.add_argument("--projects-only", action="store_true", help="skip the lit inputs and the example")
    ap.add_argument("--arg", action="append", default=[], help="an option for every devplace run")
    a = ap.parse_args()
    devplace = os.path.join(os.path.abspath(a.build), "tool", "devplace")
    lines = []
    corpus = []
    for sub, flags in [] if a.projects_only else [("test/checks", MOCK), ("test/integration", TORCH),
                       ("examples/celeba_smile", TORCH)]:
        d = os.path.join(ROOT, sub)
        corpus += [(os.path.join(d, f), flags) for f in sorted(os.listdir(d)) if f.endswith(".cpp")]
    for path, flags in corpus:
        for strict in (False, True):
            cfg = "{CheckOptions: {StrictMode: %s}}" % ("true" if strict else "false")
            lines.append("== %s%s" % (os.path.relpath(path, ROOT), " (strict)" if strict else ""))
            lines += run(devplace, ["--checks=-*,devplace-*", "--config=" + cfg] + a.arg + [path, "--"] + flags, ROOT)
    for db in a.p:
        db = os.path.abspath(db)
        lines.append("== project %s" % db)
        lines += run(devplace, ["--checks=-*,devplace-*", "-j", a.j] + a.arg + ["-p", db], db)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
