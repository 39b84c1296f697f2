//===--- BundledHeaders.h - Clang's own headers beside the binary ---------===//
//
// Clang parses every file with its own headers (stddef.h, the intrinsics),
// found in its resource directory. A source build uses the installed LLVM's;
// the wheel carries them, under <prefix>/lib/clang/NN beside <prefix>/bin,
// where no LLVM is installed at all.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_BUNDLEDHEADERS_H
#define DEVPLACE_TOOL_BUNDLEDHEADERS_H

#include <string>

namespace devplace_tool {

/// The installation prefix of this binary: the folder above its bin/.
/// \p MainAddr is the address of a function in the binary.
std::string installPrefix(const char *Argv0, void *MainAddr);

/// The resource directory installed beside this binary, or "" where there
/// is none (a source build: LLVM's own is used, as clang-tidy uses it).
/// \p MainAddr is the address of a function in the binary.
std::string bundledResourceDir(const char *Argv0, void *MainAddr);

} // namespace devplace_tool

#endif
