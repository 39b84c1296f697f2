//===--- AsyncHostCopyCheck.h - devplace-async-host-copy --------*- C++ -*-===//
//
// A tensor that may be on a CUDA device, copied to the host with
// non_blocking=true and read on the host before anything waits for the
// copy: the read may see memory the copy has not filled yet.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_ASYNCHOSTCOPYCHECK_H
#define DEVPLACE_ASYNCHOSTCOPYCHECK_H

#include "utils/DeviceCheck.h"

namespace clang::tidy::devplace {

class AsyncHostCopyCheck : public DeviceCheck {
public:
  using DeviceCheck::DeviceCheck;

private:
  void report(const FunctionDecl *FD, const FunctionFacts &R,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::devplace

#endif
