//===--- DiscardedTransferCheck.h - devplace-discarded-transfer -------*- C++ -*-===//
//
// A tensor-returning call whose result is thrown away: `t.to(kCUDA);`,
// `t.cuda();`, `t.contiguous();` leave t as it was.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_DISCARDEDTRANSFERCHECK_H
#define DEVPLACE_DISCARDEDTRANSFERCHECK_H

#include "utils/MainFileDecls.h"

namespace clang::tidy::devplace {

class DiscardedTransferCheck : public MainFileCheck {
public:
  using MainFileCheck::MainFileCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkFunction(const FunctionDecl *FD, ASTContext &Ctx);
  void discarded(const CallExpr *CE, ASTContext &Ctx);
};

} // namespace clang::tidy::devplace

#endif
