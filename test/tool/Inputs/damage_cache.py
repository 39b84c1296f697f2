"""Damages or measures a devplace result cache, for result-cache.test.

Usage: damage_cache.py CACHE_DIR              damage its first three entries:
                                              truncate one, replace one with
                                              text that is not JSON, and put
                                              the first one's entry in the
                                              third's place (a foreign entry)
       damage_cache.py CACHE_DIR --size       print the entries' total size
       damage_cache.py CACHE_DIR --at-most N  fail unless that is at most N
"""
import glob
import os
import sys


def entries(root):
    return sorted(glob.glob(os.path.join(root, "*", "*.json")))


def main():
    root = sys.argv[1]
    found = entries(root)
    total = sum(os.path.getsize(p) for p in found)
    if "--size" in sys.argv:
        print(total)
        return 0
    if "--at-most" in sys.argv:
        bound = int(sys.argv[sys.argv.index("--at-most") + 1])
        if total > bound:
            print("cache holds %d bytes, more than %d" % (total, bound))
            return 1
        return 0
    if len(found) < 3:
        print("expected at least three entries, found %d" % len(found))
        return 1
    first = open(found[0], "rb").read()
    with open(found[0], "wb") as f:
        f.write(first[: len(first) // 2])
    with open(found[1], "w") as f:
        f.write("this is not an entry\n")
    with open(found[2], "wb") as f:
        f.write(first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
