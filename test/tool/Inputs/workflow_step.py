"""Prints the `run:` script of the step with the given id in a GitHub Actions
workflow, so a test can run exactly what the recipe runs.

Usage: workflow_step.py WORKFLOW.yml STEP_ID [NAME=VALUE ...]

Each NAME=VALUE replaces the expression ${{ NAME }} as GitHub Actions would
(e.g. matrix.shard=2).
"""
import re
import sys

lines = open(sys.argv[1]).read().splitlines()
step_id = sys.argv[2]
for i, line in enumerate(lines):
    if re.match(r"\s+id:\s*%s\s*$" % re.escape(step_id), line):
        for j in range(i + 1, len(lines)):
            m = re.match(r"(\s+)run:\s*\|\s*$", lines[j])
            if m:
                indent = len(m.group(1))
                body = []
                for k in range(j + 1, len(lines)):
                    if lines[k].strip() and len(lines[k]) - len(lines[k].lstrip()) <= indent:
                        break
                    body.append(lines[k].strip())
                script = "\n".join(body)
                for setting in sys.argv[3:]:
                    name, value = setting.split("=", 1)
                    script = script.replace("${{ %s }}" % name, value)
                print(script)
                sys.exit(0)
sys.exit("no step with id %s and a run: block" % step_id)
