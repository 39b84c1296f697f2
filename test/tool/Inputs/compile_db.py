"""Writes DIR/build/compile_commands.json for the FILES of DIR, compiled
against the mock LibTorch headers in INPUTS.

Usage: compile_db.py DIR INPUTS FILE...
"""
import json
import os
import sys


def main():
    root, inputs, files = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    build = os.path.join(root, "build")
    os.makedirs(build, exist_ok=True)
    db = [{"directory": build, "file": os.path.join(root, f),
           "command": "clang++ -std=c++17 -I%s -c %s -o %s.o" % (
               inputs, os.path.join(root, f), os.path.basename(f))}
          for f in files]
    with open(os.path.join(build, "compile_commands.json"), "w") as out:
        json.dump(db, out, indent=1)


if __name__ == "__main__":
    main()
