//===--- DiscardedTransferCheck.cpp - devplace-discarded-transfer ---------===//

#include "DiscardedTransferCheck.h"
#include "utils/TensorTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::devplace {

void DiscardedTransferCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isExpansionInMainFile(), isDefinition()).bind("fn"), this);
}

namespace {
/// True when the value of \p E is discarded: it is a statement of its own.
bool isDiscarded(const Expr *E, const ParentMap &PM) {
  const Stmt *Cur = E;
  const Stmt *P = PM.getParent(Cur);
  while (P && isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr>(P)) {
    Cur = P;
    P = PM.getParent(P);
  }
  if (!P)
    return false;
  if (isa<CompoundStmt>(P))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getThen() == Cur || If->getElse() == Cur;
  if (const auto *F = dyn_cast<ForStmt>(P))
    return F->getBody() == Cur || F->getInc() == Cur;
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return W->getBody() == Cur;
  if (const auto *D = dyn_cast<DoStmt>(P))
    return D->getBody() == Cur;
  if (const auto *C = dyn_cast<CaseStmt>(P))
    return C->getSubStmt() == Cur;
  return false;
}
} // namespace

void DiscardedTransferCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || FD->isInvalidDecl() || FD->isDependentContext() || !FD->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  ParentMap PM(FD->getBody());
  struct Visitor : RecursiveASTVisitor<Visitor> {
    DiscardedTransferCheck *Check;
    ASTContext *Ctx;
    const ParentMap *PM;
    bool VisitCallExpr(CallExpr *CE) {
      QualType T = CE->getType();
      if (T->isReferenceType() || classifyType(T) != DeviceCarrier::Tensor ||
          !isDiscarded(CE, *PM))
        return true;
      const auto *Callee = CE->getDirectCallee();
      if (!Callee || !Callee->getIdentifier())
        return true;
      StringRef Name = Callee->getName();
      // In-place methods end in '_' (copy_, fill_, add_) and return a
      // reference anyway.
      if (Name.ends_with("_"))
        return true;
      const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
      if (MC && (!Obj || classifyType(Obj->getType()) != DeviceCarrier::Tensor))
        return true;
      if (!MC && !StringRef(qualifiedName(Callee)).starts_with("torch::") &&
          !StringRef(qualifiedName(Callee)).starts_with("at::"))
        return true;
      std::string Subject = Obj ? exprText(Obj, *Ctx) : "";
      auto D = Check->diag(CE->getExprLoc(),
                           "the result of '%0' is discarded%select{|, so '%2' "
                           "is left as it was}1: tensor operations return a new "
                           "tensor")
               << (MC ? "." + Name.str() + "()" : qualifiedName(Callee))
               << (Obj != nullptr) << Subject;
      // Fix-it: assign the result back to the variable it came from.
      const auto *DRE = Obj ? dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts()) : nullptr;
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (VD && !VD->getType().isConstQualified() &&
          !VD->getType()->isReferenceType() && !CE->getBeginLoc().isMacroID())
        D << FixItHint::CreateInsertion(CE->getBeginLoc(),
                                        VD->getName().str() + " = ");
      return true;
    }
  } V;
  V.Check = this;
  V.Ctx = &Ctx;
  V.PM = &PM;
  V.TraverseStmt(FD->getBody());
}

} // namespace clang::tidy::devplace
