//===--- ClangdMain.cpp - devplace-clangd: clangd with the devplace checks ===//
//
// clangd 19 exactly as Debian builds it (clangdMain from libclang-19-dev),
// with the devplace clang-tidy module linked in. Projects enable the checks
// in `.clang-tidy` or `.clangd` like any other clang-tidy check; see
// docs/recipes/editors.md for the `.clangd` that lets clangd run them.
//
//===----------------------------------------------------------------------===//

namespace clang::tidy {
// Pulls the devplace module's registration into the link.
extern volatile int DevplaceModuleAnchorSource;
static int __attribute__((unused)) DevplaceModuleAnchorDestination =
    DevplaceModuleAnchorSource;
} // namespace clang::tidy

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

int main(int argc, char *argv[]) { return clang::clangd::clangdMain(argc, argv); }
