//===--- PluginVersionGuard.cpp - refuse a foreign clang-tidy -------------===//
//
// The plugin is built against clang-tidy 19's C++ ABI. Loaded into another
// clang-tidy, the loader may still succeed (same mangled names, different
// layouts) and the process would crash later in an unrelated place. This
// constructor runs before the check registration and stops the process with
// a message that names both versions.
//
//===----------------------------------------------------------------------===//

#include "llvm/Config/llvm-config.h"
#include <cstdio>
#include <cstring>
#include <link.h>
#include <unistd.h>

namespace {

struct Foreign {
  int Major = 0;
  char Library[256] = {0};
};

int findForeignLLVM(dl_phdr_info *Info, size_t, void *Data) {
  const char *Name = Info->dlpi_name;
  if (!Name || !*Name)
    return 0;
  const char *Base = std::strrchr(Name, '/');
  Base = Base ? Base + 1 : Name;
  int Major = 0;
  if (std::sscanf(Base, "libLLVM-%d", &Major) != 1 &&
      std::sscanf(Base, "libLLVM.so.%d", &Major) != 1 &&
      std::sscanf(Base, "libclang-cpp.so.%d", &Major) != 1)
    return 0;
  if (Major == LLVM_VERSION_MAJOR)
    return 0;
  auto *F = static_cast<Foreign *>(Data);
  F->Major = Major;
  std::snprintf(F->Library, sizeof(F->Library), "%s", Base);
  return 1;
}

__attribute__((constructor(101))) void devplaceCheckHostVersion() {
  Foreign F;
  if (!dl_iterate_phdr(findForeignLLVM, &F))
    return;
  std::fprintf(stderr,
               "error: the devplace plugin was built for clang-tidy %d "
               "(LLVM " LLVM_VERSION_STRING ") but was loaded into a "
               "clang-tidy that runs on LLVM %d (%s); load it with "
               "clang-tidy-%d, or use the devplace command\n",
               LLVM_VERSION_MAJOR, F.Major, F.Library, LLVM_VERSION_MAJOR);
  std::fflush(stderr);
  _exit(2);
}

} // namespace
