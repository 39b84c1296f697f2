//===--- ClangdMain.cpp - devplace-clangd: clangd with the devplace checks ===//
//
// clangd 19 exactly as Debian builds it (clangdMain from libclang-19-dev),
// with the devplace clang-tidy module linked in. Projects enable the checks
// in `.clang-tidy` or `.clangd` like any other clang-tidy check; see
// docs/recipes/editors.md for the `.clangd` that lets clangd run them. With
// DEVPLACE_CACHE_DIR, calls into other files use the project's summaries.
//
//===----------------------------------------------------------------------===//

#include "BundledHeaders.h"
#include "devplace/model/ProjectSummaries.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy {
// Pulls the devplace module's registration into the link.
extern volatile int DevplaceModuleAnchorSource;
static int __attribute__((unused)) DevplaceModuleAnchorDestination =
    DevplaceModuleAnchorSource;
} // namespace clang::tidy

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

int main(int argc, char *argv[]) {
  // Calls into the project's other files follow the summaries a project run
  // kept in its cache folder (`devplace -p build --cache-dir=DIR`), when
  // DEVPLACE_CACHE_DIR names it; read once, at start.
  static std::optional<clang::devplace::ProjectSummaries> Summaries;
  if (const char *Dir = std::getenv("DEVPLACE_CACHE_DIR"))
    if (auto Text =
            llvm::MemoryBuffer::getFile(std::string(Dir) + "/summaries.json"))
      if ((Summaries = clang::devplace::ProjectSummaries::fromJSON(
               (*Text)->getBuffer())))
        clang::devplace::processSummaries() = &*Summaries;
  // The wheel's clangd parses with the Clang headers installed beside it,
  // unless told otherwise.
  std::string ResourceDir = devplace_tool::bundledResourceDir(
      argv[0], (void *)&devplace_tool::bundledResourceDir);
  for (int I = 1; I < argc; ++I)
    if (llvm::StringRef(argv[I]).ltrim('-').starts_with("resource-dir"))
      ResourceDir.clear();
  if (ResourceDir.empty())
    return clang::clangd::clangdMain(argc, argv);
  std::string Flag = "--resource-dir=" + ResourceDir;
  std::vector<char *> Args(argv, argv + argc);
  Args.push_back(Flag.data());
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(argc + 1, Args.data());
}
