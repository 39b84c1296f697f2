"""The fix-it tests' sequence, in one place (lit's %check_fixes):

  1. copy the test file to a scratch file and run the plugin with --fix on it;
  2. the diagnostics (less clang-tidy's "FIX-IT applied" lines) must match the
     file's CHECK lines, with no other warning or note;
  3. the fixed file must match the FIXES lines;
  4. the fixed file must compile;
  5. with --cli, the same --fix run through the devplace CLI (exit status 1)
     must give the same FIXES.
"""
import argparse
import shlex
import shutil
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, shell=True, **kw)


def check(what, proc):
    if proc.returncode != 0:
        sys.stderr.write("check_fixes: %s failed (exit %d)\n" % (what, proc.returncode))
        sys.exit(1)


def fix_and_compare(tool, args, scratch, want_status, implicit):
    shutil.copyfile(args.source, scratch)
    fixed = run("%s --checks='-*,%s' --fix %s -- %s" % (tool, args.checks, shlex.quote(scratch), args.flags),
                stdout=subprocess.PIPE, text=True)
    if fixed.returncode != want_status:
        sys.stderr.write(fixed.stdout)
        sys.stderr.write("check_fixes: %s exited %d, expected %d\n" % (tool, fixed.returncode, want_status))
        sys.exit(1)
    shown = "".join(l for l in fixed.stdout.splitlines(True) if "FIX-IT applied" not in l)
    check("FileCheck of the diagnostics",
          run("%s %s %s" % (args.filecheck, shlex.quote(args.source), implicit), input=shown, text=True))
    with open(scratch) as f:
        check("FileCheck of the fixed file",
              run("%s --check-prefix=FIXES %s" % (args.filecheck, shlex.quote(args.source)), stdin=f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tidy", required=True)
    ap.add_argument("--cli", default="")
    ap.add_argument("--filecheck", required=True)
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--flags", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("checks")
    ap.add_argument("--also-cli", action="store_true")
    args = ap.parse_args()
    implicit = "-implicit-check-not='{{warning|note}}:'"
    fix_and_compare(args.tidy, args, args.scratch + ".cpp", 0, implicit)
    check("compiling the fixed file",
          run("%s -fsyntax-only %s %s" % (args.clangxx, args.flags, shlex.quote(args.scratch + ".cpp"))))
    if args.also_cli:
        fix_and_compare(args.cli, args, args.scratch + ".cli.cpp", 1, implicit)


if __name__ == "__main__":
    main()
