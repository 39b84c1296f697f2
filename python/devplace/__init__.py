"""devplace: finds device-placement bugs in LibTorch C++ code before they
crash on a GPU machine.

The wheel holds two programs, linked statically against LLVM/Clang 19, with
Clang's own headers beside them: ``devplace`` (the command-line checker:
compile databases, SARIF, baselines, a result cache) and ``devplace-clangd``
(clangd with the devplace checks, for editors). Their console scripts, and
``python -m devplace``, run them in place of the Python process.
"""

import os
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def program(name):
    """The path of one of the wheel's programs."""
    return os.path.join(DATA, "bin", name)


def _run(name):
    path = program(name)
    if not os.access(path, os.X_OK):
        sys.exit(f"devplace: {path} is missing or not executable: this "
                 "installation of the devplace package is incomplete "
                 "(reinstall it: pip install --force-reinstall devplace)")
    os.execv(path, [path] + sys.argv[1:])


def main():
    """The ``devplace`` console script."""
    _run("devplace")


def clangd():
    """The ``devplace-clangd`` console script."""
    _run("devplace-clangd")
