#!/bin/bash
# without_llvm.sh COMMAND...: runs COMMAND where no LLVM is installed, as on
# a machine that has only the wheel: in a mount namespace of its own (root),
# every /usr/lib/llvm-NN, Clang's headers and the libLLVM/libclang shared
# libraries are hidden behind empty mounts. The rest of the system (glibc,
# GCC's C++ headers, LibTorch) stays.
set -euo pipefail
if [[ "${DEVPLACE_WITHOUT_LLVM:-}" != 1 ]]; then
  exec env DEVPLACE_WITHOUT_LLVM=1 unshare --mount --propagation private "$0" "$@"
fi
for d in /usr/lib/llvm-* /usr/include/clang /usr/lib/clang; do
  [[ -d "$d" ]] && mount -t tmpfs none "$d"
done
for f in /usr/lib/x86_64-linux-gnu/libLLVM* /usr/lib/x86_64-linux-gnu/libclang*; do
  [[ -f "$f" ]] && mount --bind /dev/null "$f"
done
exec "$@"
