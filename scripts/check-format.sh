#!/usr/bin/env bash
# The C++ lines changed since BASE must be formatted as .clang-format says
# (LLVM style). BASE defaults to the last commit before .clang-format came
# in, so that every line written since is checked and older code is
# formatted as it is touched. Run by .ci/run; to fix: git clang-format-19 BASE
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-82c2de5}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  echo "format: commit $base is not in this clone's history; nothing to compare"
  exit 0
fi
out=$(git-clang-format-19 --binary clang-format-19 --diff --extensions cpp,h \
      "$base" -- model checks tool runtime examples) || true
case "$out" in
  "" | "no modified files to format"* | "clang-format did not modify any files"*)
    echo "format: lines changed since $base are formatted"
    exit 0 ;;
esac
printf '%s\n' "$out"
echo "format: the lines above are not formatted; run: git clang-format-19 $base"
exit 1
