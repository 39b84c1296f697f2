"""Prints the lines of a Markdown page between two marker comments."""
import sys

page, name = sys.argv[1], sys.argv[2]
inside = False
for line in open(page, encoding="utf-8"):
    if line.strip() == "<!-- %s: end -->" % name:
        break
    if inside:
        sys.stdout.write(line)
    if line.strip() == "<!-- %s: begin -->" % name:
        inside = True
