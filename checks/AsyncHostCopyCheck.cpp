//===--- AsyncHostCopyCheck.cpp - devplace-async-host-copy ----------------===//
//
// A rule over the model's host-synchronisation facts: each copy to the host
// of a tensor that may be on a device is looked at; when the copy is made
// with non_blocking=true, the first thing that happens to the copy (in
// source order) decides: a host read before any device synchronisation is
// reported, a synchronisation first is fine, anything else (the copy passed
// on, stored, returned) is not followed.
//
//===----------------------------------------------------------------------===//

#include "AsyncHostCopyCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::devplace {

namespace {

/// The copy is made with a non_blocking argument that is true.
bool nonBlocking(const CXXMemberCallExpr *MC, const ApiTable &Api,
                 ASTContext &Ctx) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD)
    return false;
  for (unsigned I = 0; I < MD->getNumParams() && I < MC->getNumArgs(); ++I) {
    const ParmVarDecl *P = MD->getParamDecl(I);
    if (!P->getIdentifier() ||
        !Api.is(ApiMatch::Parameter, P->getName(), ApiRole::NonBlockingFlag))
      continue;
    const Expr *Arg = MC->getArg(I);
    bool Value = false;
    return !isa<CXXDefaultArgExpr>(Arg) && !Arg->isValueDependent() &&
           Arg->EvaluateAsBooleanCondition(Value, Ctx) && Value;
  }
  return false;
}

/// A use of a host tensor that surely reads its values: a pointer into its
/// memory, an accessor, item()/tolist(), a reduction, or printing it.
bool readsValues(const Expr *Use, const ParentMap &PM, const ApiTable &Api) {
  const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Expr *>(Use));
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(PM.getParent(ME));
    if (!MC)
      return false;
    llvm::StringRef N = methodName(MC);
    return Api.tensorMethod(N, ApiRole::PointerToMemory) ||
           Api.tensorMethod(N, ApiRole::HostAccessor) ||
           Api.tensorMethod(N, ApiRole::Reduction) ||
           (Api.tensorMethod(N, ApiRole::HostSync) &&
            !Api.tensorMethod(N, ApiRole::MovesToHost));
  }
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P))
    return OC->getOperator() == OO_LessLess && OC->getNumArgs() == 2 &&
           OC->getArg(1)->IgnoreParenImpCasts() == Use->IgnoreParenImpCasts();
  return false;
}

/// What becomes of the copy made by \p Copy: the expression that reads it
/// before anything waits for it, if any.
const Expr *unsynchronisedRead(const FunctionDecl *FD, const Expr *Copy,
                               const ParentMap &PM, const ApiTable &Api,
                               const SourceManager &SM) {
  // Up from the call to where its value goes.
  const Stmt *Cur = Copy;
  const Stmt *P = PM.getParent(Cur);
  while (P && (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
                   CXXBindTemporaryExpr, ExprWithCleanups>(P) ||
               (isa<CXXConstructExpr>(P) &&
                cast<CXXConstructExpr>(P)->getNumArgs() == 1))) {
    Cur = P;
    P = PM.getParent(P);
  }
  // Read on the spot: `t.to(kCPU, true).data_ptr<float>()`, `std::cout << …`.
  if (readsValues(cast<Expr>(Cur), PM, Api))
    return cast<Expr>(PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(Cur)));
  const VarDecl *Host = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P); DS && DS->isSingleDecl())
    Host = dyn_cast<VarDecl>(DS->getSingleDecl());
  else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
           OC && OC->getOperator() == OO_Equal && OC->getArg(1) == Cur)
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
      Host = dyn_cast<VarDecl>(DRE->getDecl());
  if (!Host)
    return nullptr;

  // The first thing after the copy, in source order: a synchronisation, a
  // read of the copy, or another use of it (not followed).
  struct Events : RecursiveASTVisitor<Events> {
    const VarDecl *Host;
    const ApiTable *Api;
    const SourceManager *SM;
    const ParentMap *PM;
    SourceLocation After;
    const Expr *First = nullptr;
    bool FirstReads = false;
    void consider(const Expr *E, bool Reads) {
      SourceLocation L = E->getBeginLoc();
      if (!SM->isBeforeInTranslationUnit(After, L))
        return;
      if (!First || SM->isBeforeInTranslationUnit(L, First->getBeginLoc())) {
        First = E;
        FirstReads = Reads;
      }
    }
    bool VisitCallExpr(CallExpr *CE) {
      if (Api->callee(calleeName(CE), ApiRole::DeviceSynchronize))
        consider(CE, false);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() == Host)
        consider(DRE, readsValues(DRE, *PM, *Api));
      return true;
    }
  } E;
  E.Host = Host;
  E.Api = &Api;
  E.SM = &SM;
  E.PM = &PM;
  E.After = Copy->getEndLoc();
  E.TraverseStmt(FD->getBody());
  return E.First && E.FirstReads ? E.First : nullptr;
}

} // namespace

void AsyncHostCopyCheck::report(const FunctionDecl *FD, const FunctionFacts &R,
                                ASTContext &Ctx) {
  const ApiTable &Api = model().api();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const HostSync &S : R.Syncs) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(S.Call);
    if (!MC || !S.CallerDevice.empty() ||
        !Api.tensorMethod(methodName(MC), ApiRole::MovesToArgument) ||
        !nonBlocking(MC, Api, Ctx))
      continue;
    const Expr *Read = unsynchronisedRead(FD, MC, *R.Parents, Api, SM);
    if (!Read)
      continue;
    SourceLocation Loc = MC->getExprLoc();
    diag(Loc, "'%0' %select{may be|is}1 on %3 and '%2' copies it to "
              "the host asynchronously; the copy is read before anything waits "
              "for it")
        << S.Tensor << S.Definite << S.What << deviceNoun(S.Why);
    addProvenanceNotes(S.Why, Loc, SM);
    // The synchronisation to suggest is the one of the device type the code
    // chose; a chain that names none gets the general advice.
    llvm::StringRef Sync =
        Api.nameFor(ApiRole::DeviceSynchronize, S.Why ? S.Why->DeviceType : "");
    diag(Read->getExprLoc(),
         "read here, possibly before the copy has arrived; %select{call "
         "%1() first|wait for the device first}0, or copy without "
         "non_blocking",
         DiagnosticIDs::Note)
        << Sync.empty() << Sync;
  }
}

} // namespace clang::tidy::devplace
