//===--- DevplaceTidyModule.cpp - the devplace- checks --------------------===//

#include "AsyncHostCopyCheck.h"
#include "DanglingHostCopyCheck.h"
#include "DeviceMismatchCheck.h"
#include "DiscardedTransferCheck.h"
#include "HostSinkCheck.h"
#include "SyncInLoopCheck.h"
#include "UnregisteredSubmoduleCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "devplace/Compat.h"

namespace clang::tidy::devplace {

class DevplaceModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<AsyncHostCopyCheck>("devplace-async-host-copy");
    Factories.registerCheck<DanglingHostCopyCheck>("devplace-dangling-host-copy");
    Factories.registerCheck<DeviceMismatchCheck>("devplace-device-mismatch");
    Factories.registerCheck<DiscardedTransferCheck>("devplace-discarded-transfer");
    Factories.registerCheck<HostSinkCheck>("devplace-host-sink");
    Factories.registerCheck<SyncInLoopCheck>("devplace-sync-in-loop");
    Factories.registerCheck<UnregisteredSubmoduleCheck>(
        "devplace-unregistered-submodule");
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
