"""Compares the checks of checks/Checks.def with what else names them: the
ids `--list-checks` printed (a file), the pages in docs/checks/, the lit
tests in test/checks/ and the rows of the README's check table. Prints one
line per disagreement, then a count; exits 1 on any disagreement.

  checks_list.py SOURCE_ROOT LIST_CHECKS_OUTPUT"""
import os
import re
import sys

root, listed_file = sys.argv[1], sys.argv[2]
defs = re.findall(r'^DEVPLACE_CHECK\("([a-z0-9-]+)", (\w+)\)$',
                  open(os.path.join(root, "checks", "Checks.def")).read(), re.M)
names = {n for n, _ in defs}
listed = set(re.findall(r"^\s+devplace-([a-z0-9-]+)\s*$", open(listed_file).read(), re.M))
pages = {f[:-3] for f in os.listdir(os.path.join(root, "docs", "checks")) if f.endswith(".md")}
tests = {f for f in os.listdir(os.path.join(root, "test", "checks")) if f.endswith(".cpp")}
readme = set(re.findall(r"^\| `devplace-([a-z0-9-]+)` \|", open(os.path.join(root, "README.md")).read(), re.M))
problems = []
for n in sorted(names - listed):
    problems.append("devplace-%s: in Checks.def, not in --list-checks" % n)
for n in sorted(listed - names):
    problems.append("devplace-%s: in --list-checks, not in Checks.def" % n)
for n in sorted(names - pages):
    problems.append("devplace-%s: no page docs/checks/%s.md" % (n, n))
for n in sorted(pages - names):
    problems.append("docs/checks/%s.md: a page for no check of Checks.def" % n)
for n in sorted(names):
    if not any(t == n + ".cpp" or t.startswith(n + "-") for t in tests):
        problems.append("devplace-%s: no lit test test/checks/%s*.cpp" % (n, n))
for n in sorted(names - readme):
    problems.append("devplace-%s: not in the README's check table" % n)
for n in sorted(readme - names):
    problems.append("devplace-%s: in the README's check table, not in Checks.def" % n)
for _, cls in defs:
    for ext in (".h", ".cpp"):
        if not os.path.exists(os.path.join(root, "checks", cls + ext)):
            problems.append("checks/%s%s: named by Checks.def, missing" % (cls, ext))
for p in problems:
    print(p)
print("%d checks, %d disagreements" % (len(names), len(problems)))
sys.exit(1 if problems else 0)
