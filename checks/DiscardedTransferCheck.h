//===--- DiscardedTransferCheck.h - devplace-discarded-transfer -------*- C++ -*-===//
//
// A tensor-returning call whose result is thrown away: `t.to(kCUDA);`,
// `t.cuda();`, `t.contiguous();` leave t as it was.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_DISCARDEDTRANSFERCHECK_H
#define DEVPLACE_DISCARDEDTRANSFERCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::devplace {

class DiscardedTransferCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

private:
  void checkFunction(const FunctionDecl *FD, ASTContext &Ctx);
  void discarded(const CallExpr *CE, ASTContext &Ctx);
};

} // namespace clang::tidy::devplace

#endif
