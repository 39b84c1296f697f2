//===--- UnregisteredSubmoduleCheck.h - devplace-unregistered-submodule ---*- C++ -*-===//
//
// A member module, parameter or buffer of a torch::nn::Module subclass that
// is never registered: it does not move with ->to(), is not trained or saved.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_UNREGISTEREDSUBMODULECHECK_H
#define DEVPLACE_UNREGISTEREDSUBMODULECHECK_H

#include "utils/MainFileDecls.h"

namespace clang::tidy::devplace {

class UnregisteredSubmoduleCheck : public MainFileCheck {
public:
  using MainFileCheck::MainFileCheck;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// \p InMainFile: the class is defined in the main file; else in a
  /// project header, and its constructor here.
  void checkClass(const CXXRecordDecl *RD, bool InMainFile, ASTContext &Ctx);
};

} // namespace clang::tidy::devplace

#endif
