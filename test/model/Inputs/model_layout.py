"""Checks the layout of model/lib that its seam header promises: every
source file is named in FunctionAnalysis.h's map, and no file is over the
line limit. Prints one line per problem and exits 1 when there is any."""
import os
import re
import sys

lib = sys.argv[1]
limit = int(sys.argv[2])
seam = open(os.path.join(lib, "FunctionAnalysis.h")).read()
# The map: the opening comment, up to the include guard.
header = seam[:seam.index("#ifndef")]
named = set(re.findall(r"\b([A-Za-z]+\.(?:cpp|h))\b", header))
problems = []
for name in sorted(os.listdir(lib)):
    if not name.endswith((".cpp", ".h")):
        continue
    stem = os.path.splitext(name)[0]
    # A class's header and source go together: either names the pair.
    if name not in named and stem + ".cpp" not in named and stem + ".h" not in named:
        problems.append("%s: not named in FunctionAnalysis.h's map" % name)
    lines = sum(1 for _ in open(os.path.join(lib, name)))
    if lines > limit:
        problems.append("%s: %d lines, over %d" % (name, lines, limit))
for name in sorted(named):
    if not os.path.exists(os.path.join(lib, name)):
        problems.append("%s: named in FunctionAnalysis.h's map, but no such file" % name)
for p in problems:
    print(p)
print("model/lib: %d files checked" % len([n for n in os.listdir(lib) if n.endswith((".cpp", ".h"))]))
sys.exit(1 if problems else 0)
