//===--- DeviceMismatchCheck.cpp - devplace-device-mismatch ---------------===//

#include "DeviceMismatchCheck.h"
#include "clang/AST/ASTContext.h"

namespace clang::tidy::devplace {

void DeviceMismatchCheck::report(const FunctionDecl *FD,
                                 const FunctionResult &R, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const DeviceMismatch &M : R.Mismatches) {
    SourceLocation Loc = M.Where->getExprLoc();
    const std::string &Dev = M.AOnDevice ? M.NameA : M.NameB;
    const std::string &Host = M.AOnDevice ? M.NameB : M.NameA;
    if (M.K == DeviceMismatch::ModuleInput && M.AOnDevice)
      diag(Loc, "module '%0' %select{may be|is}1 on a CUDA device but its "
                "input '%2' is on the host")
          << M.NameA << M.Definite << M.NameB;
    else if (M.K == DeviceMismatch::ModuleInput)
      diag(Loc, "input '%0' %select{may be|is}1 on a CUDA device but module "
                "'%2' is on the host; move the module with ->to()")
          << M.NameB << M.Definite << M.NameA;
    else
      diag(Loc, "'%0' %select{may be|is}1 on a CUDA device and '%2' is on the "
                "host: they must be on the same device for this operation")
          << Dev << M.Definite << Host;
    addProvenanceNotes(M.AOnDevice ? M.FA.Why : M.FB.Why, Loc, SM);
  }
}

} // namespace clang::tidy::devplace
