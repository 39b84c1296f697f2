#!/bin/sh
# devplace as a git pre-commit hook: `cp pre-commit-hook.sh .git/hooks/pre-commit`.
# Analyses the staged C++ sources with the flags of the build's
# compile_commands.json (DEVPLACE_BUILD_DIR, default build/) and stops the
# commit when devplace reports something. It reads the files as they are in
# the working tree. `git commit --no-verify` skips it.
build_dir=${DEVPLACE_BUILD_DIR:-build}
files=$(git diff --cached --name-only --diff-filter=ACMR -- '*.cpp' '*.cc' '*.cxx')
[ -z "$files" ] && exit 0
# shellcheck disable=SC2086 # one argument per file
devplace -p "$build_dir" --quiet $files
status=$?
[ $status -eq 0 ] || echo "devplace: commit stopped (status $status); fix the findings above, or add a NOLINT(devplace-...) with a reason" >&2
exit $status
