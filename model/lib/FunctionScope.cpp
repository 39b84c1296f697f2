//===--- FunctionScope.cpp - the function under analysis and its code -----===//

#include "FunctionScope.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

llvm::StringRef FunctionScope::calleeName(const Expr *Call) const {
  if (const auto *CE = dyn_cast_or_null<CallExpr>(Call))
    return Model.unit().qualifiedName(CE->getDirectCallee());
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Call))
    return Model.unit().qualifiedName(CE->getConstructor()->getParent());
  return "";
}

bool FunctionScope::isTupleLike(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && Api.is(ApiMatch::Class, Model.unit().qualifiedName(RD),
                      ApiRole::TupleClass);
}

const LambdaExpr *FunctionScope::lambdaOf(const Expr *Fn) const {
  Fn = stripValue(Fn);
  // A variable that holds one lambda all its life (an `auto` variable, or a
  // std::function never assigned another, or declared empty and assigned
  // once).
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Fn))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage()) {
      const auto *Empty = dyn_cast_or_null<CXXConstructExpr>(
          VD->getInit() ? stripValue(VD->getInit()) : nullptr);
      bool Declared = !VD->getInit() || (Empty && Empty->getNumArgs() == 0);
      if (!Declared && !Mutations.Mutated.contains(VD))
        Fn = stripValue(VD->getInit());
      else if (const Expr *Only = Declared ? onlyAssignedValue(VD) : nullptr)
        Fn = stripValue(Only);
    }
  // std::function's converting constructor.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Fn);
      CE && CE->getNumArgs() == 1)
    Fn = stripValue(CE->getArg(0));
  return dyn_cast<LambdaExpr>(Fn);
}

const Expr *FunctionScope::onlyAssignedValue(const VarDecl *VD) const {
  if (!OnlyAssigned) {
    // Every assignment of a local by `=`: one value, or null for several.
    struct Scan : RecursiveASTVisitor<Scan> {
      llvm::DenseMap<const VarDecl *, const Expr *> Out;
      bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
        if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
          if (const auto *DRE =
                  dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
            if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
              auto [It, New] = Out.try_emplace(V, OC->getArg(1));
              if (!New)
                It->second = nullptr;
            }
        return true;
      }
    } S;
    S.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    OnlyAssigned = std::move(S.Out);
  }
  // Its address taken, a pointer may assign it another.
  return Storage.addressTaken(VD) ? nullptr : OnlyAssigned->lookup(VD);
}

bool FunctionScope::sameLine(SourceLocation A, SourceLocation B) const {
  if (A.isInvalid() || B.isInvalid())
    return false;
  A = SM.getExpansionLoc(A);
  B = SM.getExpansionLoc(B);
  return SM.getFileID(A) == SM.getFileID(B) &&
         SM.getSpellingLineNumber(A) == SM.getSpellingLineNumber(B);
}

const ValueDecl *FunctionScope::keyOf(const Expr *E) const {
  E = stripValue(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl, BindingDecl>(DRE->getDecl()))
      return canonical(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<FieldDecl>(ME->getMemberDecl()) &&
        isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return ME->getMemberDecl();
  return nullptr;
}

const ValueDecl *FunctionScope::containerOf(const Expr *E) const {
  E = stripValue(E);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Subscript)
      return keyOf(OC->getArg(0));
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return keyOf(AS->getBase());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (Api.methodName(methodName(MC), ApiRole::ContainerElement))
      return keyOf(MC->getImplicitObjectArgument());
  return nullptr;
}

bool FunctionScope::onThis(const Expr *E) const {
  E = stripValue(E);
  const Expr *Object = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    Object = ME->getBase();
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    Object = MC->getImplicitObjectArgument();
  return Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) &&
         isa<CXXMethodDecl>(FD);
}

bool FunctionScope::isOutParam(const ParmVarDecl *P) const {
  QualType T = P->getType();
  return T->isLValueReferenceType() &&
         !T.getNonReferenceType().isConstQualified() &&
         Model.unit().classify(T) != DeviceCarrier::None;
}

bool FunctionScope::throughPointer(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(LHS))
    return UO->getOpcode() == UO_Deref;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS))
    return AS->getBase()->IgnoreParenImpCasts()->getType()->isPointerType();
  return false;
}

const FunctionDecl *FunctionScope::summarisable(const CallExpr *CE,
                                                const FunctionDecl *Callee,
                                                CalleeScope Where,
                                                unsigned &ArgShift) const {
  const FunctionDecl *Def = nullptr;
  // A function of the project defined in another translation unit: its
  // summary from there, in either scope.
  if (Callee && !Callee->hasBody() && Model.imported(Callee)) {
    ArgShift =
        isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
    return Callee;
  }
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isDependentContext() ||
      Model.unit().inProgress(Def))
    return nullptr;
  // A kernel registered for an accelerator is analysed with its tensors
  // there, as the dispatcher calls it: its summary does not speak for a
  // direct call, whose arguments are the caller's.
  if (Model.unit().kernelRegistration(Def))
    return nullptr;
  if (Where == CalleeScope::NonSystem
          ? SM.isInSystemHeader(Def->getLocation())
          : !SM.isInMainFile(SM.getExpansionLoc(Def->getLocation())))
    return nullptr;
  ArgShift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) ? 1 : 0;
  return Def;
}

} // namespace clang::devplace
