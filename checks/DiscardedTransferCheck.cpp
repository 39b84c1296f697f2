//===--- DiscardedTransferCheck.cpp - devplace-discarded-transfer ---------===//

#include "DiscardedTransferCheck.h"
#include "utils/MainFileDecls.h"
#include "utils/ModelNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang::ast_matchers;

namespace clang::tidy::devplace {

namespace {
/// Statements whose value is discarded: the children of blocks and the
/// bodies of control statements.
void discardedPositions(const Stmt *S,
                        llvm::SmallVectorImpl<const Stmt *> &Out) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    for (const Stmt *Child : CS->body())
      Out.push_back(Child);
  else if (const auto *If = dyn_cast<IfStmt>(S)) {
    Out.push_back(If->getThen());
    if (If->getElse())
      Out.push_back(If->getElse());
  } else if (const auto *F = dyn_cast<ForStmt>(S)) {
    Out.push_back(F->getBody());
    if (F->getInc())
      Out.push_back(F->getInc());
  } else if (const auto *W = dyn_cast<WhileStmt>(S))
    Out.push_back(W->getBody());
  else if (const auto *D = dyn_cast<DoStmt>(S))
    Out.push_back(D->getBody());
  else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
    Out.push_back(RF->getBody());
  else if (const auto *C = dyn_cast<SwitchCase>(S))
    Out.push_back(C->getSubStmt());
}
} // namespace

void DiscardedTransferCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  for (const FunctionDecl *FD : mainFileFunctions(Ctx))
    if (!FD->isInvalidDecl() && FD->getBody())
      checkFunction(FD, Ctx);
}

void DiscardedTransferCheck::checkFunction(const FunctionDecl *FD,
                                           ASTContext &Ctx) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    DiscardedTransferCheck *Check;
    ASTContext *Ctx;
    bool VisitStmt(Stmt *S) {
      llvm::SmallVector<const Stmt *, 8> Positions;
      discardedPositions(S, Positions);
      for (const Stmt *P : Positions)
        if (const auto *E = dyn_cast_or_null<Expr>(P))
          discardedValue(E);
      return true;
    }
    void discardedValue(const Expr *E) {
      // ExprWithCleanups, temporaries, and parentheses around them
      // (`(a * b);`).
      E = E->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit();
      // `x.to(device), y.to(device);`: both sides are discarded.
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && BO->getOpcode() == BO_Comma) {
        discardedValue(BO->getLHS());
        discardedValue(BO->getRHS());
      } else if (const auto *CE = dyn_cast<CallExpr>(E)) {
        Check->discarded(CE, *Ctx);
      }
    }
  } V;
  V.Check = this;
  V.Ctx = &Ctx;
  V.TraverseStmt(FD->getBody());
}

void DiscardedTransferCheck::discarded(const CallExpr *CE, ASTContext &Ctx) {
  QualType T = CE->getType();
  if (T->isReferenceType() || classifyType(T) != DeviceCarrier::Tensor)
    return;
  const auto *Callee = CE->getDirectCallee();
  // Named functions and methods, and operators on tensors (`a * b;`).
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!Callee || (!Callee->getIdentifier() && !OC))
    return;
  StringRef Name = OC ? StringRef() : Callee->getName();
  // In-place methods end in '_' (copy_, fill_, add_) and return a
  // reference anyway.
  // In-place methods end in '_' (copy_, fill_, add_); out variants
  // (at::add_out(out, a, b)) and every other operation that returns a
  // reference give back a tensor they changed, not a new one.
  const ApiTable &Api = api();
  if (Api.endsWith(Name, ApiRole::InPlace) ||
      Callee->getReturnType()->isReferenceType())
    return;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
  if (MC && (!Obj || classifyType(Obj->getType()) != DeviceCarrier::Tensor))
    return;
  std::string QName = qualifiedName(Callee);
  if (!MC && !Api.inNamespace(QName, ApiRole::LibraryNamespace))
    return;
  std::string Subject = Obj ? exprText(Obj, Ctx) : "";
  auto D =
      diag(CE->getExprLoc(),
           "the result of '%0' is discarded%select{|, so '%2' is left as it "
           "was}1: tensor operations return a new tensor")
      << (OC ? std::string("operator") + getOperatorSpelling(OC->getOperator())
          : MC ? "." + Name.str() + "()"
               : QName)
      << (Obj != nullptr) << Subject;
  // Fix-it: assign the result back to the variable it came from.
  const auto *DRE =
      Obj ? dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (VD && !VD->getType().isConstQualified() &&
      !VD->getType()->isReferenceType() && !CE->getBeginLoc().isMacroID())
    D << FixItHint::CreateInsertion(CE->getBeginLoc(),
                                    VD->getName().str() + " = ");
}

} // namespace clang::tidy::devplace
