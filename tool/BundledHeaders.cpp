//===--- BundledHeaders.cpp - Clang's own headers beside the binary -------===//

#include "BundledHeaders.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace devplace_tool {

std::string bundledResourceDir(const char *Argv0, void *MainAddr) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  if (Exe.empty())
    return "";
  llvm::SmallString<256> Dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "lib", "clang",
                          std::to_string(LLVM_VERSION_MAJOR));
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "include", "stddef.h");
  return llvm::sys::fs::exists(Probe) ? std::string(Dir) : "";
}

} // namespace devplace_tool
