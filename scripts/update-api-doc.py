#!/usr/bin/env python3
"""Rewrites the table in docs/api.md from the build's API table
(`devplace --list-api`), after a row was added to TorchApi.def.

  scripts/update-api-doc.py [BUILD_DIR]    (default: build)"""
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
table = subprocess.run([os.path.join(build, "tool", "devplace"), "--list-api"],
                       check=True, stdout=subprocess.PIPE, text=True).stdout
page = os.path.join(root, "docs", "api.md")
text = open(page, encoding="utf-8").read()
begin, end = "<!-- api-table: begin -->\n", "<!-- api-table: end -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(page, "w", encoding="utf-8").write(head + begin + table + end + tail)
