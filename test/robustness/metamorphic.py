#!/usr/bin/env python3
"""The metamorphic harness: properties of devplace's findings that need no
expected output, checked on rewrites of every input the project has.

For each input (the lit inputs with the mock headers; with --real-headers the
integration tests and the example too; with -p every file of a compilation
database) it asks devplace-rewrite-sites where the program's functions and
local variables are (byte offsets from clang's AST, so a rewrite follows the
program's structure, not its text), makes variants, keeps those that compile
(clang++ -fsyntax-only), and checks:

  knowing less never reports more
    strip:F     the body of function or method F removed, its declaration
                left (a definition out of its class is removed whole): the
                findings outside F are a subset of the original's
    strip-all   every body removed at once: the same
    opaque:V    the initializer of a local `T v = e;` of class type (a
                tensor, a struct, a tuple, a container, a module's output)
                replaced by a call to a function declared there with return
                type T and no body (where e changes nothing else): the
                findings are a subset of the original's
  (A subset may weaken a finding's "is on a device" to "may be on", and
  leaves out dangling-host-copy, which reports every copy to the host not
  proven a no-op: knowing less about a tensor's device reports more there.)
  the same program gives the same findings
    rename:V    local variable V renamed everywhere: the same findings,
                with the new name in their messages
    unrelated   an unrelated function appended: the same findings
    split:V     a local `T v = e;` split into `T v; v = e;`: the same
                findings
    byvalue:F:P a `const X &` parameter P of F passed by value instead (a
                function with no other declaration, not virtual): the same
                findings
    unbind:L    `auto [a, b] = e;` on line L spelt as an object and references
                to its parts (`auto r = e; auto &a = std::get<0>(r); …`, or
                `r.member`, `r[I]`): the same findings
    namespace   the file's code (after its leading includes) wrapped in a
                namespace: the same findings, the namespace's name left out
                of their messages
    moved:F     a free function F left as a declaration where it was (its
                body's lines blank) and defined at the end of the file, below
                every use, in the same namespaces: the same findings, those
                in the moved definition compared at the lines they came from
    extract:L:C the tensor argument computed by a call at line L, column C
                (`f(x.cuda())`) computed into a local just before its
                statement, on the same line (`auto e = x.cuda(); f(e);`):
                the same findings, the local's name read as the expression

A rewrite keeps every line where it was (a removed body leaves its line
breaks), so findings are compared by line, check and message (all devplace
checks, default options: StrictMode reports unknowns on purpose and is left
out). A violation prints the rewrite as a diff and the finding that
appeared or vanished.

  metamorphic.py --sample 60     a reproducible sample (the test suite)
  metamorphic.py --all           every variant of every input
  metamorphic.py --all --only '*/torchscript-*'
                                 every variant of the inputs whose path
                                 matches a glob
  metamorphic.py --all --variants 'unbind:*'
                                 every variant of one kind

Usage: metamorphic.py --devplace PATH --sites PATH --clangxx PATH
                      [--sample N [--seed S] | --all] [--real-headers]
                      [-p DB_DIR ...] [--only GLOB ...] [--variants GLOB ...]
                      [--jobs J] [--count]
"""
import argparse
import collections
import concurrent.futures
import difflib
import fnmatch
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

# Checks whose findings rest on what is not proven (a copy not proven to be
# a no-op) rather than on a proof of a device: "knowing less never reports
# more" does not hold of them, and the subset property leaves them out.
REPORTS_WITHOUT_PROOF = {"devplace-dangling-host-copy"}

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # the same corpus as the mutation harness  # noqa: E402

ROOT = mutate.ROOT
UNRELATED = "\nstatic int devplace_metamorphic_unrelated(int v) { return v + 1; }\n"
NAMESPACE = "devplace_mm"


def inputs(args):
    """(path, flags, directory to run in) for every input."""
    out = [(p, flags, ROOT) for p, flags in mutate.inputs(args.real_headers)]
    for db in args.p:
        for e in json.load(open(os.path.join(db, "compile_commands.json"))):
            argv = e.get("arguments") or shlex.split(e["command"])
            path = os.path.normpath(os.path.join(e["directory"], e["file"]))
            flags, skip = [], False
            for a in argv[1:]:
                if skip:
                    skip = False
                elif a in ("-c", "-o"):
                    skip = a == "-o"
                elif os.path.normpath(os.path.join(e["directory"], a)) != path:
                    flags.append(a)
            out.append((path, flags, e["directory"]))
    return out


def findings(devplace, path, flags, cwd):
    """Counter of (line, check, message) for the warnings in \\p path."""
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        r = subprocess.run([devplace, "--checks=-*,devplace-*", "--format=json", "--output=" + tmp.name,
                            path, "--"] + flags, cwd=cwd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        if r.returncode not in (0, 1):
            return None
        report = json.load(open(tmp.name))
    if report.get("failedFiles"):
        return None
    return collections.Counter((f["line"], f["check"], f["message"])
                               for f in report.get("findings", [])
                               if os.path.realpath(f["file"]) == os.path.realpath(path))


def compiles(clangxx, path, flags, cwd):
    return subprocess.run([clangxx, "-fsyntax-only", path] + flags, cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def blank(text):
    """\\p text with everything but its line breaks removed."""
    return "\n" * text.count("\n")


Variant = collections.namedtuple("Variant", "name prop text ranges renaming moved",
                                 defaults=([], None, None))
Variant.__doc__ = """A rewrite: its name, the property it checks ("subset" or
"same"), its text, the line ranges whose findings are not compared (a removed
body), a renaming (pattern, replacement) that maps the variant's messages back
to the original's, and for a moved definition (first line, last line, line it
came from)."""


def variants(text, sites):
    """Every Variant of \\p text that \\p sites allows."""
    data = text.encode()
    line_of = lambda off: data[:off].count(b"\n") + 1
    bodies = sites["bodies"]

    def strip(chosen):
        out, last = [], 0
        for b in sorted(chosen, key=lambda b: b["begin"]):
            if b["begin"] < last:
                continue  # nested in one already removed (a local class)
            out.append(data[last:b["begin"]])
            removed = data[b["begin"]:b["end"]].decode()
            out.append(((";" if not b["whole"] else "") + blank(removed)).encode())
            last = b["end"]
        out.append(data[last:])
        ranges = [(line_of(b["begin"]), line_of(b["end"])) for b in chosen]
        return b"".join(out).decode(), ranges

    for b in bodies:
        new, ranges = strip([b])
        yield Variant("strip:%s@%d" % (b["name"], b["line"]), "subset", new, ranges)
    if len(bodies) > 1:
        new, ranges = strip(bodies)
        yield Variant("strip-all", "subset", new, ranges)
    # In the order of the program text, so that a seed picks the same sample.
    for v in sorted(sites["locals"], key=lambda v: (min(v["sites"]), v["name"])):
        new_name = v["name"] + "_mm"
        if re.search(r"\b%s\b" % re.escape(new_name), text):
            continue
        out, last = [], 0
        for off in sorted(set(v["sites"])):
            if data[off:off + len(v["name"].encode())] != v["name"].encode():
                break  # not spelt here (a macro): leave this one out
            out += [data[last:off], new_name.encode()]
            last = off + len(v["name"].encode())
        else:
            out.append(data[last:])
            yield Variant("rename:%s:%s" % (v["function"], v["name"]), "same",
                          b"".join(out).decode(), [], (r"\b%s\b" % re.escape(new_name), v["name"]))
    yield Variant("unrelated", "same", text + UNRELATED)
    for d in sorted(sites.get("decls", []), key=lambda d: d["begin"]):
        # The line breaks of what is replaced stay, so every line stays put.
        split = "%s %s; %s = %s" % (d["type"], d["name"], d["name"],
                                     blank(data[d["begin"]:d["init"]].decode()))
        yield Variant("split:%s@%d" % (d["name"], d["line"]), "same",
                      (data[:d["begin"]] + split.encode() + data[d["init"]:]).decode())
    for d in sorted(sites.get("decls", []), key=lambda d: d["begin"]):
        # `T v = e;` becomes `T f(); T v = f();`, f declared in the block
        # with no body anywhere: what v holds is not known. (Not where e
        # changes something else: `T old = std::exchange(t, x);`.)
        if not d.get("changesNothing"):
            continue
        fn = "devplace_mm_opaque%d" % d["begin"]
        opaque = "%s %s(); %s %s = %s()" % (d["type"], fn, d["type"], d["name"], fn)
        yield Variant("opaque:%s@%d" % (d["name"], d["line"]), "subset",
                      (data[:d["begin"]] + opaque.encode()
                       + blank(data[d["begin"]:d["end"]].decode()).encode()
                       + data[d["end"]:]).decode())
    for p in sorted(sites.get("params", []), key=lambda p: p["begin"]):
        kept = blank(data[p["begin"]:p["end"]].decode())
        yield Variant("byvalue:%s:%s" % (p["function"], p["name"]), "same",
                      (data[:p["begin"]] + (p["type"] + " " + kept).encode()
                       + data[p["end"]:]).decode())
    for b in sorted(sites.get("bindings", []), key=lambda b: b["begin"]):
        obj = "devplace_mm_r%d" % b["begin"]
        refs = "".join(" auto &%s = %s;" % (x["name"], "%s(%s)" % (x["of"], obj)
                                            if x["of"].startswith("std::get") else obj + x["of"])
                       for x in b["bindings"])
        # The declaration ends at the first ';' after the brackets at depth 0.
        rest, depth, end = data[b["end"]:], 0, None
        for i, c in enumerate(rest):
            ch = chr(c)
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == ";" and depth == 0:
                end = b["end"] + i + 1
                break
        if end is None:
            continue
        kept = blank(data[b["begin"]:b["end"]].decode())
        new = (data[:b["begin"]] + obj.encode() + kept.encode() + data[b["end"]:end]
               + refs.encode() + data[end:]).decode()
        yield Variant("unbind:%d" % b["line"], "same", new, [], (r"\b%s\b" % obj, ""))
    if sites.get("top") is not None:
        top = sites["top"]
        wrapped = (data[:top] + ("namespace %s { " % NAMESPACE).encode() + data[top:]
                   + b"\n}\n").decode()
        yield Variant("namespace", "same", wrapped, [], (r"\b%s::" % NAMESPACE, ""))
    for m in sorted(sites.get("moves", []), key=lambda m: m["begin"]):
        definition, last = [], m["begin"]
        for a, b in m["defaults"]:  # the declaration left in place keeps them
            definition += [data[last:a], blank(data[a:b].decode()).encode()]
            last = b
        definition.append(data[last:m["end"]])
        head = (text if text.endswith("\n") else text + "\n").encode()
        kept = data[:m["body"]] + b";" + blank(data[m["body"]:m["end"]].decode()).encode()
        head = kept + head[m["end"]:]
        opening = "".join("namespace %s { " % n for n in m["namespaces"]).encode()
        first = (head + opening).count(b"\n") + 1
        moved = b"".join(definition)
        new = head + opening + moved + b" }" * len(m["namespaces"]) + b"\n"
        yield Variant("moved:%s@%d" % (m["name"], m["line"]), "same", new.decode(),
                      moved=(first, first + moved.count(b"\n"), line_of(m["begin"])))
    for x in sorted(sites.get("extracts", []), key=lambda x: x["begin"]):
        name = "devplace_mm_e%d" % x["begin"]
        expr = data[x["begin"]:x["end"]]
        new = (data[:x["stmt"]] + b"auto " + name.encode() + b" = " + expr + b"; "
               + data[x["stmt"]:x["begin"]] + name.encode() + data[x["end"]:])
        column = x["begin"] - data.rfind(b"\n", 0, x["begin"])
        yield Variant("extract:%d:%d" % (x["line"], column), "same", new.decode(), [],
                      (r"\b%s\b" % name, expr.decode()))


def outside(counter, ranges):
    return collections.Counter({k: n for k, n in counter.items()
                                if not any(a <= k[0] <= b for a, b in ranges)})


def check(args, item):
    """Runs one variant; returns (status, text to print)."""
    path, flags, cwd, original, (name, prop, new, ranges, renaming, moved) = item
    d = tempfile.mkdtemp(prefix="devplace-metamorphic-")
    try:
        vpath = os.path.join(d, os.path.basename(path))
        with open(vpath, "w") as f:
            f.write(new)
        vflags = flags + ["-iquote", os.path.dirname(path), "-I", os.path.dirname(path)]
        got = findings(args.devplace, vpath, vflags, cwd)
        if got is None:
            # devplace does not analyse code that does not compile; the
            # compiler (run only here, which halves the cost of a run) tells
            # a variant that does not compile from devplace failing.
            if not compiles(args.clangxx, vpath, vflags, cwd):
                return "uncompiled", ""
            return "violation", "%s %s: devplace failed on the variant\n" % (path, name)
        if renaming:
            pattern, replacement = renaming
            got = collections.Counter({(l, c, re.sub(pattern, lambda _: replacement, m)): n
                                       for (l, c, m), n in got.items()})
        if moved:
            first, last, origin = moved
            got = collections.Counter({(origin + l - first if first <= l <= last else l, c, m): n
                                       for (l, c, m), n in got.items()})
        if prop == "subset":
            # Knowing less may weaken "is on a CUDA device" to "may be".
            got = collections.Counter({(l, c, m.replace("' may be on ", "' is on ")): n
                                       for (l, c, m), n in got.items()})
            original = collections.Counter({(l, c, m.replace("' may be on ", "' is on ")): n
                                            for (l, c, m), n in original.items()})
            extra = outside(got, ranges) - outside(original, ranges)
            # dangling-host-copy reports every copy not proven a no-op (the
            # `.cpu()` of a tensor proven on the host returns the tensor): it
            # rests on a proof of the host, so knowing less reports more.
            extra = collections.Counter({k: n for k, n in extra.items()
                                         if k[1] not in REPORTS_WITHOUT_PROOF})
            missing = collections.Counter()
        else:
            extra, missing = got - original, original - got
        if not extra and not missing:
            return "ok", ""
        old_text = open(path).read()
        diff = "".join(list(difflib.unified_diff(old_text.splitlines(True), new.splitlines(True),
                                                 path, name, n=1))[:40])
        lines = ["%s: %s (%s) violated" % (path, name,
                                            "knowing less reported more" if prop == "subset"
                                            else "the same program gave other findings")]
        lines += ["  appeared: %d: %s %s" % k for k in sorted(extra)]
        lines += ["  vanished: %d: %s %s" % k for k in sorted(missing)]
        return "violation", "\n".join(lines) + "\n" + diff
    finally:
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        os.rmdir(d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devplace", required=True)
    ap.add_argument("--sites", required=True, help="devplace-rewrite-sites")
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--sample", type=int, default=60)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--real-headers", action="store_true")
    ap.add_argument("-p", action="append", default=[], help="a compilation database directory")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--count", action="store_true",
                    help="print how many variants of each kind would run, and stop")
    ap.add_argument("--only", action="append", default=[],
                    help="only the inputs whose path matches this glob")
    ap.add_argument("--variants", action="append", default=[],
                    help="only the variants whose name matches this glob")
    args = ap.parse_args()
    for tool in ("devplace", "sites", "clangxx"):
        if os.sep in getattr(args, tool):
            setattr(args, tool, os.path.abspath(getattr(args, tool)))
    start = time.time()

    work, skipped, files = [], 0, 0
    for path, flags, cwd in inputs(args):
        if args.only and not any(fnmatch.fnmatch(path, g) for g in args.only):
            continue
        r = subprocess.run([args.sites, path, "--"] + flags, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        if r.returncode != 0:
            skipped += 1  # does not compile here: not analysed
            continue
        text = open(path).read()
        files += 1
        for v in variants(text, json.loads(r.stdout)):
            if not args.variants or any(fnmatch.fnmatch(v.name, g) for g in args.variants):
                work.append((path, flags, cwd, v))
    if not args.all:
        random.Random(args.seed).shuffle(work)
        work = work[:args.sample]
    if args.count:
        for kind, n in sorted(collections.Counter(v.name.split(":")[0].split("@")[0]
                                                   for _, _, _, v in work).items()):
            print("%6d %s" % (n, kind))
        print("metamorphic: %d variants of %d inputs" % (len(work), files))
        return 0
    originals = {}
    for path, flags, cwd, _ in work:
        if path not in originals:
            originals[path] = findings(args.devplace, path, flags, cwd)
    items = [(p, f, c, originals[p], v) for p, f, c, v in work if originals[p] is not None]
    print("metamorphic: %d variants of %d inputs (%d inputs do not compile here)"
          % (len(items), files, skipped))
    counts = collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for status, text in pool.map(lambda it: check(args, it), items):
            counts[status] += 1
            if text:
                sys.stdout.write("VIOLATION " + text)
    print("metamorphic: %d variants run (%d did not compile and were left out), %d violations, %.0f s"
          % (len(items), counts["uncompiled"], counts["violation"], time.time() - start))
    return 1 if counts["violation"] else 0


if __name__ == "__main__":
    sys.exit(main())
