//===--- Places.cpp - where values live, and their other names ------------===//

#include "Places.h"
#include "TranslationUnitState.h"
#include "devplace/model/Types.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

bool Places::hasMemberPlace(const FieldDecl *Field) const {
  // A module member moves with its own calls; a pointer is tracked only
  // where it is taken.
  DeviceCarrier C = Model.unit().classify(Field->getType());
  return C != DeviceCarrier::None && C != DeviceCarrier::Pointer &&
         C != DeviceCarrier::Module;
}

bool Places::splitsIntoMembers(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  RD = RD ? RD->getDefinition() : nullptr;
  // Bases would come first in a braced initialiser (and unnamed bit-fields
  // have no initialiser), breaking the correspondence of initialisers and
  // fields; library classes have invariants of their own.
  if (!RD || RD->isLambda() || RD->isUnion() || RD->getNumBases() ||
      Model.context().getSourceManager().isInSystemHeader(RD->getLocation()) ||
      Model.unit().classify(T) != DeviceCarrier::None ||
      llvm::any_of(RD->fields(), [](const FieldDecl *F) {
        return F->isBitField() && !F->getDeclName();
      }))
    return false;
  return llvm::any_of(RD->fields(),
                      [&](const FieldDecl *F) { return hasMemberPlace(F); });
}

llvm::ArrayRef<const VarDecl *>
Places::referencesInto(const VarDecl *Obj) const {
  auto It = ReferencesInto.find(Obj);
  return It == ReferencesInto.end() ? llvm::ArrayRef<const VarDecl *>()
                                    : llvm::ArrayRef(It->second);
}

llvm::ArrayRef<const VarDecl *> Places::objectsChangedBy(const Expr *E) const {
  auto It = Changes.find(E);
  return It == Changes.end() ? llvm::ArrayRef<const VarDecl *>()
                             : llvm::ArrayRef(It->second);
}

/// Whether \p S holds a jump that leaves an iteration of the loop around it
/// early (`break`, `goto`, and `continue` unless \p ContinueToo is false).
static bool jumpsOut(const Stmt *S, bool ContinueToo) {
  if (!S)
    return false;
  if (isa<BreakStmt, GotoStmt, IndirectGotoStmt>(S) ||
      (ContinueToo && isa<ContinueStmt>(S)))
    return true;
  for (const Stmt *Child : S->children())
    if (jumpsOut(Child, ContinueToo))
      return true;
  return false;
}

/// Whether \p S assigns the variable \p VD (`t = …`).
static bool assigns(const Stmt *S, const VarDecl *VD) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return false;
  E = E->IgnoreImplicit();
  const Expr *LHS = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Assign)
    LHS = BO->getLHS();
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
           OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    LHS = OC->getArg(0);
  const auto *DRE =
      LHS ? dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()) : nullptr;
  return DRE && DRE->getDecl() == VD;
}

/// Whether every iteration of \p RF assigns its loop variable, a reference
/// to the element (`for (auto &t : outs) t = t.cpu();`), and no iteration
/// leaves the loop before every element had its turn: then, once the loop
/// is done, no element holds what it held before.
static bool assignsEveryElement(const CXXForRangeStmt *RF) {
  const VarDecl *Var = RF->getLoopVariable();
  if (!Var->getType()->isLValueReferenceType() ||
      Var->getType().getNonReferenceType().isConstQualified())
    return false;
  const Stmt *Body = RF->getBody();
  llvm::ArrayRef<Stmt *> Stmts;
  Stmt *One[] = {const_cast<Stmt *>(Body)};
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Stmts = llvm::ArrayRef(CS->body_begin(), CS->body_end());
  else
    Stmts = One;
  bool Written = false;
  for (const Stmt *S : Stmts) {
    // Before the write, a `continue` skips it; after, only leaving the loop
    // matters.
    if (jumpsOut(S, /*ContinueToo=*/!Written))
      return false;
    Written |= assigns(S, Var);
  }
  return Written;
}

void Places::scan(const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    Places *P;
    bool VisitAbstractConditionalOperator(AbstractConditionalOperator *CO) {
      P->Arms.insert(CO->getTrueExpr());
      P->Arms.insert(CO->getFalseExpr());
      return true;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
      P->RangeInits[RF->getLoopVariable()] = RF->getRangeInit();
      if (const auto *RD = RF->getRangeInit()->getType()->getAsCXXRecordDecl();
          RD &&
          P->Model.api().is(ApiMatch::Class, P->Model.unit().qualifiedName(RD),
                            ApiRole::MapClass))
        P->MapEntries.insert(RF->getLoopVariable());
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(RF->getRangeStmt());
          DS && DS->isSingleDecl())
        if (const auto *Range = dyn_cast<VarDecl>(DS->getSingleDecl())) {
          P->RangeLoopVars[Range] = RF->getLoopVariable();
          if (assignsEveryElement(RF))
            P->ReplacingLoops.insert(RF->getLoopVariable());
        }
      return true;
    }
    // Local objects that keep per-member facts, and those that cannot: an
    // object that another name may change (a reference, a pointer, a
    // capture by reference) is followed as before, through the members'
    // summaries; one passed to a call that may change it (by non-const
    // reference or pointer, a non-const method) has unknown members after
    // that call.
    llvm::DenseSet<const VarDecl *> Objects, Escaped;
    /// The local object whose storage \p E is (`s`, `s.loss`, `s.a.b`).
    static const VarDecl *objectOf(const Expr *E) {
      E = E->IgnoreParenImpCasts();
      while (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (ME->isArrow())
          return nullptr;
        E = ME->getBase()->IgnoreParenImpCasts();
      }
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    }
    void escape(const Expr *E) {
      if (const VarDecl *VD = objectOf(E))
        Escaped.insert(VD);
    }
    void clobber(const Expr *Call, const Expr *Arg) {
      if (const VarDecl *VD = objectOf(Arg))
        P->Changes[Call].push_back(VD);
    }
    static bool mutableReference(QualType T) {
      return (T->isReferenceType() || T->isPointerType()) &&
             !T->getPointeeType().isConstQualified();
    }
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
          !VD->getType()->isReferenceType() &&
          P->splitsIntoMembers(VD->getType()))
        Objects.insert(VD);
      // `Stats &r = s;` (not the hidden variables of a range-for, which
      // only read). `auto &t = s.loss;` is a reference into a member: the
      // object keeps its facts, and the two forget each other's writes.
      if (VD->getType()->isReferenceType() && !VD->isImplicit() &&
          VD->getInit() && mutableReference(VD->getType())) {
        const Expr *Init = VD->getInit()->IgnoreParenImpCasts();
        if (const VarDecl *Obj =
                isa<MemberExpr>(Init) ? objectOf(Init) : nullptr)
          P->ReferencesInto[Obj].push_back(VD);
        else
          escape(VD->getInit());
      }
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->getOpcode() == UO_AddrOf) {
        escape(UO->getSubExpr());
        // A value a pointer may reach: a write through any pointer may
        // change it.
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
          if (isa<VarDecl, BindingDecl>(DRE->getDecl()) &&
              P->Model.unit().classify(DRE->getType()) != DeviceCarrier::None)
            P->AddressTaken.insert(DRE->getDecl());
      }
      return true;
    }
    void arguments(const Expr *Call, const FunctionDecl *Callee,
                   llvm::ArrayRef<const Expr *> Args, unsigned Shift) {
      for (unsigned I = 0; I < Args.size(); ++I) {
        if (!Callee || I < Shift) {
          if (!Callee)
            clobber(Call, Args[I]);
          continue;
        }
        unsigned P = I - Shift;
        if (P >= Callee->getNumParams() ||
            mutableReference(Callee->getParamDecl(P)->getType()))
          clobber(Call, Args[I]);
      }
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      // std::move changes nothing; what takes its result decides.
      if (P->Model.api().is(
              ApiMatch::Function,
              P->Model.unit().qualifiedName(CE->getDirectCallee()),
              ApiRole::PassesThrough))
        return true;
      unsigned Shift = 0;
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
          OC && isa_and_nonnull<CXXMethodDecl>(Callee)) {
        // The object of a member operator: assigning a whole object or a
        // member is followed; any other non-const operator is not.
        Shift = 1;
        const auto *MD = cast<CXXMethodDecl>(Callee);
        if (OC->getOperator() != OO_Equal && !MD->isConst() &&
            OC->getNumArgs() &&
            !isa<MemberExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
          clobber(CE, OC->getArg(0));
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        if (const CXXMethodDecl *MD = MC->getMethodDecl();
            MD && !MD->isConst() && MC->getImplicitObjectArgument() &&
            isa<DeclRefExpr>(
                MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
          clobber(CE, MC->getImplicitObjectArgument());
      arguments(CE, Callee, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                Shift);
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
      // A copy or a move reads the object (a moved-from tensor is
      // undefined: reading it is a bug of its own).
      if (CE->getConstructor()->isCopyOrMoveConstructor())
        return true;
      arguments(CE, CE->getConstructor(),
                llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()), 0);
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *LE) {
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
          if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
            Escaped.insert(VD);
      return true;
    }
  } F;
  F.P = this;
  // A parameter `Pair &p`: its members start as the caller's, and what the
  // function leaves in them is part of its summary.
  for (const ParmVarDecl *PD : FD->parameters())
    if (PD->getType()->isLValueReferenceType() &&
        !PD->getType().getNonReferenceType().isConstQualified() &&
        splitsIntoMembers(PD->getType()))
      F.Objects.insert(PD);
  F.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  for (const VarDecl *VD : F.Objects)
    if (!F.Escaped.contains(VD))
      MemberObjects.insert(VD);
  // References into an object followed as a whole need no forgetting: its
  // members are read through their summaries.
  llvm::SmallVector<const VarDecl *, 4> Followed;
  for (const auto &Entry : ReferencesInto)
    if (!MemberObjects.contains(Entry.first))
      Followed.push_back(Entry.first);
  for (const VarDecl *VD : Followed)
    ReferencesInto.erase(VD);
}

} // namespace clang::devplace
