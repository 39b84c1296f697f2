"""Runs every shard of a project for several N and checks the parts.

Usage: check_shards.py DEVPLACE PROJECT_DIR OUT_DIR N...

In PROJECT_DIR every file has exactly one finding or fails to parse, so the
files a shard analysed are the files its JSON names. For each N: every file
is in exactly one of the N shards, the shards differ in size by at most one
file, and `devplace merge` of their JSON and of their SARIF equals the single
run's report (OUT_DIR/all.json, OUT_DIR/all.sarif; JSON without "seconds").
Prints one line per N; exits non-zero at the first thing that is wrong.
"""
import json
import os
import subprocess
import sys


def run(args, cwd):
    return subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def without_seconds(text):
    return "\n".join(l for l in text.splitlines() if '"seconds"' not in l)


def main():
    devplace, project, out = sys.argv[1], sys.argv[2], sys.argv[3]
    single_json = open(os.path.join(out, "all.json")).read()
    single_sarif = open(os.path.join(out, "all.sarif")).read()
    everything = json.loads(single_json)
    all_files = sorted([f["file"] for f in everything["findings"]] +
                       [f["file"] for f in everything["failedFiles"]])
    for n in map(int, sys.argv[4:]):
        seen, sizes, jsons, sarifs = [], [], [], []
        for k in range(1, n + 1):
            j = os.path.join(out, "shard-%d-of-%d.json" % (k, n))
            s = os.path.join(out, "shard-%d-of-%d.sarif" % (k, n))
            for fmt, path in (("json", j), ("sarif", s)):
                r = run([devplace, "-p", "build", "--quiet", "--shard=%d/%d" % (k, n),
                         "--format=" + fmt, "--output=" + path], project)
                if r.returncode not in (0, 1, 2):
                    sys.exit("shard %d/%d: exit %d: %s" % (k, n, r.returncode, r.stderr))
            report = json.load(open(j))
            files = [f["file"] for f in report["findings"]] + [f["file"] for f in report["failedFiles"]]
            if report["files"] != len(files):
                sys.exit("shard %d/%d: %d files analysed, %d named" % (k, n, report["files"], len(files)))
            seen += files
            sizes.append(len(files))
            jsons.append(j)
            sarifs.append(s)
        if sorted(seen) != all_files:
            sys.exit("N=%d: the shards cover %s, not every file once" % (n, sorted(seen)))
        if max(sizes) - min(sizes) > 1:
            sys.exit("N=%d: unbalanced shards %s" % (n, sizes))
        merged_json = run([devplace, "merge"] + jsons, project)
        merged_sarif = run([devplace, "merge"] + sarifs, project)
        if without_seconds(merged_json.stdout) != without_seconds(single_json):
            sys.exit("N=%d: merged JSON differs from the single run's" % n)
        if merged_sarif.stdout != single_sarif:
            sys.exit("N=%d: merged SARIF differs from the single run's" % n)
        if merged_json.returncode != 2 or merged_sarif.returncode != 2:
            sys.exit("N=%d: merge exit %d/%d, expected 2 (a file failed)" %
                     (n, merged_json.returncode, merged_sarif.returncode))
        print("N=%d: shards of %s files, every file once, merges equal the single run" %
              (n, "/".join(map(str, sorted(sizes, reverse=True)))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
