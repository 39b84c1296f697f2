//===--- DanglingHostCopyCheck.h - devplace-dangling-host-copy -*- C++ -*-===//
//
// A raw pointer or non-owning view made from the data_ptr of a temporary
// tensor (`x.cpu().data_ptr<T>()`) that outlives the full expression;
// `x.cpu()` of a tensor the model proves is on the host is `x` itself.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_DANGLINGHOSTCOPYCHECK_H
#define DEVPLACE_DANGLINGHOSTCOPYCHECK_H

#include "utils/DeviceCheck.h"

namespace clang::tidy::devplace {

class DanglingHostCopyCheck : public DeviceCheck {
public:
  using DeviceCheck::DeviceCheck;

private:
  void report(const FunctionDecl *FD, const FunctionFacts &R,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::devplace

#endif
