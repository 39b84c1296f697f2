//===--- DeviceMismatchCheck.h - devplace-device-mismatch -------*- C++ -*-===//
//
// Tensors that are or may be on different devices meeting in one operation,
// and modules called with inputs on another device.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_DEVICEMISMATCHCHECK_H
#define DEVPLACE_DEVICEMISMATCHCHECK_H

#include "utils/DeviceCheck.h"

namespace clang::tidy::devplace {

class DeviceMismatchCheck : public DeviceCheck {
public:
  using DeviceCheck::DeviceCheck;

private:
  void report(const FunctionDecl *FD, const FunctionFacts &R,
              ASTContext &Ctx) override;
  /// An argument that meets, inside the callee, a value on another device.
  void reportThroughCall(const Meeting &M, bool Definite, bool Indices,
                         const SourceManager &SM);
};

} // namespace clang::tidy::devplace

#endif
