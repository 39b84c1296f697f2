//===--- BundledHeaders.cpp - Clang's own headers beside the binary -------===//

#include "BundledHeaders.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace devplace_tool {

std::string installPrefix(const char *Argv0, void *MainAddr) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  return std::string(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
}

std::string bundledResourceDir(const char *Argv0, void *MainAddr) {
  std::string Prefix = installPrefix(Argv0, MainAddr);
  if (Prefix.empty())
    return "";
  llvm::SmallString<256> Dir(Prefix);
  llvm::sys::path::append(Dir, "lib", "clang",
                          std::to_string(LLVM_VERSION_MAJOR));
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "include", "stddef.h");
  return llvm::sys::fs::exists(Probe) ? std::string(Dir) : "";
}

} // namespace devplace_tool
