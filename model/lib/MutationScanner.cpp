//===--- MutationScanner.cpp - the variables a body writes ----------------===//

#include "MutationScanner.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

void MutationScanner::note(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    Mutated.insert(DRE->getDecl());
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    Mutated.insert(ME->getMemberDecl());
}

bool MutationScanner::VisitBinaryOperator(BinaryOperator *BO) {
  if (BO->isAssignmentOp())
    note(BO->getLHS());
  return true;
}

bool MutationScanner::VisitUnaryOperator(UnaryOperator *UO) {
  if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
    note(UO->getSubExpr());
  return true;
}

bool MutationScanner::VisitCallExpr(CallExpr *CE) {
  // A class's assignment operator (a std::function given another lambda).
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      OC && OC->isAssignmentOp())
    note(OC->getArg(0));
  // A flag passed by non-const reference may be changed by the callee.
  const FunctionDecl *FD = CE->getDirectCallee();
  for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
    const Expr *Arg = CE->getArg(I);
    if (!Arg->getType()->isBooleanType())
      continue;
    if (!FD || I >= FD->getNumParams()) {
      note(Arg);
      continue;
    }
    QualType PT = FD->getParamDecl(I)->getType();
    if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
      note(Arg);
  }
  return true;
}

} // namespace clang::devplace
