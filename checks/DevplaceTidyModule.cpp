//===--- DevplaceTidyModule.cpp - the devplace- checks --------------------===//

// The checks' headers, one per line of Checks.def (written by CMake).
#include "CheckHeaders.inc"
#include "clang-tidy/ClangTidyModule.h"
#include "devplace/Compat.h"

namespace clang::tidy::devplace {

class DevplaceModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
#define DEVPLACE_CHECK(Name, Class)                                            \
  Factories.registerCheck<Class>("devplace-" Name);
#include "Checks.def"
  }
};

} // namespace clang::tidy::devplace

namespace clang::tidy {

static ClangTidyModuleRegistry::Add<devplace::DevplaceModule>
    X("devplace", "Device-placement checks for LibTorch code.");

// Referenced by front ends that link the checks statically, so that the
// linker keeps this translation unit and its registration.
volatile int DevplaceModuleAnchorSource = 0;

} // namespace clang::tidy
