//===--- SyncInLoopCheck.h - devplace-sync-in-loop --------------*- C++ -*-===//
//
// A host synchronisation on a device tensor on every iteration of a loop,
// whose value only feeds an accumulator or a log line (performance).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_SYNCINLOOPCHECK_H
#define DEVPLACE_SYNCINLOOPCHECK_H

#include "utils/DeviceCheck.h"

namespace clang::tidy::devplace {

class SyncInLoopCheck : public DeviceCheck {
public:
  using DeviceCheck::DeviceCheck;

private:
  void report(const FunctionDecl *FD, const FunctionFacts &R,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::devplace

#endif
