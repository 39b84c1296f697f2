#!/usr/bin/env python3
"""Runs the lit suite and prints one closing line "N passed, N failed".

Usage: run-suite.py LIT_PY LIT_BUILD_DIR. Exits non-zero when a test fails
or when no test ran.
"""
import subprocess
import sys
import tempfile
import json
import os

lit, suite = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    report = os.path.join(tmp, "report.json")
    rc = subprocess.call([sys.executable, lit, "-sv", "--output", report, suite])
    results = json.load(open(report))["tests"] if os.path.exists(report) else []
codes = [t["code"] for t in results]
passed = sum(c in ("PASS", "XFAIL") for c in codes)
failed = sum(c in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT") for c in codes)
skipped = sum(c in ("UNSUPPORTED", "SKIPPED", "EXCLUDED") for c in codes)
print(f"devplace: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if rc != 0 or failed or not passed else 0)
