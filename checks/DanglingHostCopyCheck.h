//===--- DanglingHostCopyCheck.h - devplace-dangling-host-copy --------*- C++ -*-===//
//
// A raw pointer or non-owning view made from the data_ptr of a temporary
// tensor (`x.cpu().data_ptr<T>()`) that outlives the full expression.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_DANGLINGHOSTCOPYCHECK_H
#define DEVPLACE_DANGLINGHOSTCOPYCHECK_H

#include "utils/MainFileDecls.h"

namespace clang::tidy::devplace {

class DanglingHostCopyCheck : public MainFileCheck {
public:
  using MainFileCheck::MainFileCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkFunction(const FunctionDecl *FD, ASTContext &Ctx);
};

} // namespace clang::tidy::devplace

#endif
