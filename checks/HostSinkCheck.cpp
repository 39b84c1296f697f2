//===--- HostSinkCheck.cpp - devplace-host-sink ---------------------------===//

#include "HostSinkCheck.h"
#include "utils/FixIts.h"
#include "utils/ModelNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::devplace {

HostSinkCheck::HostSinkCheck(StringRef Name, ClangTidyContext *Context)
    : DeviceCheck(Name, Context),
      StrictMode(Options.getLocalOrGlobal("StrictMode", false)) {}

void HostSinkCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  DeviceCheck::storeOptions(Opts);
  Options.store(Opts, "StrictMode", StrictMode);
}

void HostSinkCheck::startTranslationUnit() {
  FixedPointers.clear();
  IntroducedNames.clear();
  Indexes.clear();
}

void HostSinkCheck::report(const FunctionDecl *FD, const FunctionFacts &R,
                           ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // One warning per tensor and line: `{d[0], d[1], d[2]}` is one bug.
  const HostAccess *Previous = nullptr;
  for (const HostAccess &A : R.Accesses) {
    if (A.UnknownOnly && !StrictMode)
      continue;
    if (Previous && Previous->Tensor == A.Tensor &&
        SM.getExpansionLineNumber(Previous->Sink->getBeginLoc()) ==
            SM.getExpansionLineNumber(A.Sink->getBeginLoc()))
      continue;
    diagnose(A, FD, R, Ctx);
    Previous = &A;
  }
  // The other direction: host memory handed to code that reads it on the
  // device.
  for (const HostMemoryToDevice &H : R.HostToDevice) {
    if (!H.Claimed) {
      diag(H.Operand->getExprLoc(),
           "'%0' is on the host when its memory is passed to '%1', which "
           "expects device memory")
          << H.Tensor << H.Callee;
      continue;
    }
    SourceLocation Loc = H.Operand->getExprLoc();
    diag(Loc, "'%0' is host memory, but '%1' is told it %select{may be|is}2 "
              "on %3: make the tensor on the host and copy it with .to()")
        << H.Tensor << H.Callee << H.Definite << deviceNoun(H.Claimed);
    addProvenanceNotes(H.Claimed, Loc, Ctx.getSourceManager());
  }
}

namespace {

const Expr *stripAll(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

/// `t.data_ptr<T>()` (or data/mutable_data_ptr/const_data_ptr) on a tensor
/// named by a plain variable.
const CXXMemberCallExpr *asDataPtrCall(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(stripAll(E));
  if (!MC || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier())
    return nullptr;
  return isDataPtrMethod(MC->getMethodDecl()->getName()) ? MC : nullptr;
}

/// Library calls and types that only read through a pointer argument (the
/// ReadsOnly, WritesFirstPointer and WritesLastPointer rows of the API
/// table); a fix that points them at a host copy cannot change what the
/// program writes.
bool readsOnly(const ApiTable &Api, StringRef Callee, unsigned ArgIndex,
               unsigned NumArgs) {
  if (Api.callee(Callee, ApiRole::ReadsOnly) ||
      Api.classNamed(Callee, ApiRole::ReadsOnly))
    return true;
  // The source operands of copies.
  if (Api.callee(Callee, ApiRole::WritesFirstPointer))
    return ArgIndex != 0;
  if (Api.callee(Callee, ApiRole::WritesLastPointer))
    return ArgIndex + 1 < NumArgs;
  return false;
}

/// True when every use of \p E (a pointer into tensor memory, or an accessor)
/// only reads through it: fix-its that redirect it to a host copy are safe.
bool usedForReadingOnly(const Expr *E, const ParentMap &PM,
                        const ApiTable &Api) {
  const Expr *Cur = E;
  while (true) {
    const Stmt *P = PM.getParent(Cur);
    if (!P)
      return false;
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr>(P)) {
      Cur = cast<Expr>(P);
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAdditiveOp() && BO->getType()->isPointerType()) {
        Cur = BO;
        continue;
      }
      return BO->isComparisonOp();
    }
    if (isa<ArraySubscriptExpr>(P) ||
        (isa<UnaryOperator>(P) &&
         cast<UnaryOperator>(P)->getOpcode() == UO_Deref) ||
        (isa<CXXOperatorCallExpr>(P) &&
         cast<CXXOperatorCallExpr>(P)->getOperator() == OO_Subscript &&
         cast<CXXOperatorCallExpr>(P)->getArg(0)->IgnoreParenImpCasts() ==
             Cur->IgnoreParenImpCasts())) {
      // An element (or, for accessors, a sub-accessor): read unless the
      // element itself is written.
      const Expr *Elem = cast<Expr>(P);
      if (isa<CXXOperatorCallExpr>(P) && Elem->getType()->isRecordType()) {
        Cur = Elem; // a[i] of a 2-d accessor is another accessor
        continue;
      }
      const Stmt *EP = PM.getParent(Elem);
      while (EP && isa<ParenExpr>(EP)) {
        Elem = cast<Expr>(EP);
        EP = PM.getParent(EP);
      }
      if (const auto *A = dyn_cast_or_null<BinaryOperator>(EP))
        return !(A->isAssignmentOp() && A->getLHS()->IgnoreParens() == Elem);
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(EP))
        return !U->isIncrementDecrementOp() && U->getOpcode() != UO_AddrOf;
      if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(EP))
        return !(OC->isAssignmentOp() && OC->getArg(0)->IgnoreParens() == Elem);
      if (const auto *Call = dyn_cast_or_null<CallExpr>(EP)) {
        // An element passed on: read unless bound to a non-const reference.
        const FunctionDecl *Callee = Call->getDirectCallee();
        unsigned Shift = isa<CXXOperatorCallExpr>(Call) &&
                                 isa_and_nonnull<CXXMethodDecl>(Callee)
                             ? 1
                             : 0;
        for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
          if (Call->getArg(I)->IgnoreParenImpCasts() !=
              Elem->IgnoreParenImpCasts())
            continue;
          if (!Callee || I - Shift >= Callee->getNumParams())
            return false;
          QualType PT = Callee->getParamDecl(I - Shift)->getType();
          return !PT->isReferenceType() ||
                 PT.getNonReferenceType().isConstQualified();
        }
        return false;
      }
      return EP != nullptr;
    }
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (CE->getArg(I)->IgnoreParenImpCasts() == Cur->IgnoreParenImpCasts())
          return readsOnly(Api, calleeName(CE), I, CE->getNumArgs());
      return false;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P))
      return readsOnly(Api, calleeName(CE), 0, CE->getNumArgs());
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      // accessor.size(0), accessor.stride(1)
      StringRef N = ME->getMemberDecl()->getName();
      return Api.methodName(N, ApiRole::AccessorShape);
    }
    return false;
  }
}

} // namespace

/// What the fix-its need to know about one function, gathered in one walk:
/// every name declared or used in it, and each variable's uses.
struct HostSinkCheck::FunctionIndex {
  llvm::StringSet<> Names;
  llvm::DenseMap<const ValueDecl *, std::vector<const DeclRefExpr *>> Uses;
  /// Parents within the body only (the model's, shared by the rules): the
  /// ASTContext's map would index every header of the translation unit.
  std::shared_ptr<ParentMap> ParentsOwner;
  const ParentMap &Parents;
  const ApiTable &Api;

  FunctionIndex(const FunctionDecl *FD, const FunctionFacts &R,
                const ApiTable &Api)
      : ParentsOwner(R.Parents), Parents(*ParentsOwner), Api(Api) {
    struct Walker : RecursiveASTVisitor<Walker> {
      FunctionIndex *Out;
      bool VisitNamedDecl(NamedDecl *D) {
        if (D->getIdentifier())
          Out->Names.insert(D->getName());
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        if (DRE->getDecl()->getIdentifier())
          Out->Names.insert(DRE->getDecl()->getName());
        Out->Uses[DRE->getDecl()].push_back(DRE);
        return true;
      }
    } W;
    W.Out = this;
    W.TraverseDecl(const_cast<FunctionDecl *>(FD));
  }

  /// All uses of \p VD only read through it.
  bool readOnly(const VarDecl *VD) const {
    auto It = Uses.find(VD);
    if (It == Uses.end())
      return true;
    for (const DeclRefExpr *Use : It->second)
      if (!usedForReadingOnly(Use, Parents, Api))
        return false;
    return true;
  }
};

HostSinkCheck::~HostSinkCheck() = default;

const HostSinkCheck::FunctionIndex &
HostSinkCheck::indexOf(const FunctionDecl *FD, const FunctionFacts &R) {
  auto &Slot = Indexes[FD];
  if (!Slot)
    Slot = std::make_unique<FunctionIndex>(FD, R, model().api());
  return *Slot;
}

namespace {

/// The data_ptr calls inside \p Root on the variable \p Var, but \p Skip.
std::vector<const CXXMemberCallExpr *>
dataPtrCallsOn(const Expr *Root, const ValueDecl *Var,
               const CXXMemberCallExpr *Skip) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *Var;
    const CXXMemberCallExpr *Skip;
    std::vector<const CXXMemberCallExpr *> Out;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      if (MC == Skip || !asDataPtrCall(MC))
        return true;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(
              MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
          DRE && DRE->getDecl() == Var)
        Out.push_back(MC);
      return true;
    }
  } F;
  F.Var = Var;
  F.Skip = Skip;
  if (Skip)
    F.TraverseStmt(const_cast<Expr *>(Root));
  return F.Out;
}

/// The statement holding \p E that sits directly in a compound statement.
const Stmt *enclosingBlockStatement(const Expr *E, const ParentMap &PM) {
  const Stmt *Cur = E;
  while (const Stmt *P = PM.getParent(Cur)) {
    if (isa<CompoundStmt>(P))
      return Cur;
    Cur = P;
  }
  return nullptr;
}

} // namespace

void HostSinkCheck::diagnose(const HostAccess &A, const FunctionDecl *FD,
                             const FunctionFacts &R, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = A.Sink->getExprLoc();
  {
    std::string What;
    switch (A.K) {
    case HostAccess::Read:
      What = "its memory is read on the host here";
      break;
    case HostAccess::Write:
      What = "its memory is written on the host here";
      break;
    case HostAccess::Accessor:
      What = "a host accessor to it is made here";
      break;
    case HostAccess::Call:
      What = "its memory is passed to host code '" + A.Callee + "' here";
      break;
    case HostAccess::Construct:
      What = "its memory is wrapped by host type '" + A.Callee + "' here";
      break;
    case HostAccess::Helper:
      // A member of the object a method is called on is not passed.
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(A.Sink);
          MC && MC->getImplicitObjectArgument() == A.Operand)
        What = "'" + A.Callee + "' reads its memory on the host";
      else
        What = "it is passed to '" + A.Callee +
               "', which reads its memory on the host";
      break;
    }
    auto D = diag(Loc, "'%0' %select{may be|is}1 on %3 when %2")
             << A.Tensor << A.Definite << What << deviceNoun(A.Why);

    // Fix-its, only where they cannot change meaning elsewhere.
    bool InMacro =
        A.Sink->getBeginLoc().isMacroID() || A.Sink->getEndLoc().isMacroID();
    const ParentMap &PM = indexOf(FD, R).Parents;
    const CXXMemberCallExpr *DirectDataPtr = asDataPtrCall(A.Operand);
    if (!InMacro && A.K == HostAccess::Read && DirectDataPtr) {
      // *t.data_ptr<T>() and t.data_ptr<T>()[0] read one scalar: item<T>().
      bool FirstElement = isa<UnaryOperator>(A.Sink);
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(A.Sink)) {
        Expr::EvalResult R;
        FirstElement =
            AS->getIdx()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
      }
      const auto *Callee = dyn_cast<MemberExpr>(DirectDataPtr->getCallee());
      if (FirstElement && Callee && !Callee->isArrow() &&
          Callee->hasExplicitTemplateArgs()) {
        std::string Obj = sourceText(Callee->getBase()->getSourceRange(), Ctx);
        std::string TArgs = sourceText(
            SourceRange(Callee->getLAngleLoc(), Callee->getRAngleLoc()), Ctx);
        if (!Obj.empty() && !TArgs.empty())
          D << FixItHint::CreateReplacement(
              A.Sink->getSourceRange(),
              Obj + "." + ApiTable::spelling(ApiRole::ScalarReadFix).str() +
                  TArgs + "()");
        DirectDataPtr = nullptr; // the item<T>() fix is the whole fix
      }
    }
    // Otherwise: read from a named host copy that outlives the pointer.
    const Expr *Receiver = nullptr; // the tensor expression to redirect
    const Stmt *InsertBefore = nullptr;
    bool Safe = false;
    if (A.K == HostAccess::Accessor) {
      const auto *MC = cast<CXXMemberCallExpr>(A.Sink);
      Receiver = MC->getImplicitObjectArgument();
      InsertBefore = enclosingBlockStatement(MC, PM);
      // `auto a = t.accessor<…>()`: every use of `a` must only read.
      const Stmt *Top = MC;
      const Stmt *P = PM.getParent(Top);
      while (P &&
             isa<ImplicitCastExpr, CXXConstructExpr, MaterializeTemporaryExpr,
                 ExprWithCleanups, CXXBindTemporaryExpr>(P)) {
        Top = P;
        P = PM.getParent(P);
      }
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(P))
        if (DS->isSingleDecl())
          if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
              VD && VD->getInit() == Top)
            Safe = indexOf(FD, R).readOnly(VD);
    } else if (DirectDataPtr) {
      Receiver = DirectDataPtr->getImplicitObjectArgument();
      InsertBefore = enclosingBlockStatement(A.Sink, PM);
      const ApiTable &Api = model().api();
      Safe = A.K != HostAccess::Write &&
             usedForReadingOnly(DirectDataPtr, PM, Api) &&
             (A.K != HostAccess::Construct || readsOnly(Api, A.Callee, 0, 1));
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(stripAll(A.Operand))) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      const CXXMemberCallExpr *Init =
          VD && VD->getInit() ? asDataPtrCall(VD->getInit()) : nullptr;
      if (Init && VD->isLocalVarDecl() && FixedPointers.insert(VD).second) {
        Receiver = Init->getImplicitObjectArgument();
        InsertBefore = enclosingBlockStatement(Init, PM);
        Safe = indexOf(FD, R).readOnly(VD);
      }
    }
    const auto *Named = dyn_cast_or_null<DeclRefExpr>(stripAll(Receiver));
    if (Safe && Named && InsertBefore &&
        !InsertBefore->getBeginLoc().isMacroID() &&
        !Receiver->getBeginLoc().isMacroID() && !InMacro) {
      // Each host copy gets its own name: two fixes in one function must
      // not declare the same variable twice.
      std::string Base = Named->getDecl()->getName().str() + "_host";
      std::string HostName = Base;
      auto &Taken = IntroducedNames[FD];
      const FunctionIndex &Index = indexOf(FD, R);
      for (unsigned N = 2;
           Taken.contains(HostName) || Index.Names.contains(HostName); ++N)
        HostName = Base + std::to_string(N);
      Taken.insert(HostName);
      {
        D << insertStatementBefore(
                 InsertBefore,
                 "auto " + HostName + " = " +
                     Named->getDecl()->getName().str() + "." +
                     ApiTable::spelling(ApiRole::HostCopyFix).str() + "();",
                 Ctx)
          << FixItHint::CreateReplacement(Receiver->getSourceRange(), HostName);
        // Every other data_ptr of the same tensor in the sink moves too:
        // std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + n).
        for (const CXXMemberCallExpr *Other :
             dataPtrCallsOn(A.Sink, Named->getDecl(),
                            DirectDataPtr ? DirectDataPtr : nullptr))
          D << FixItHint::CreateReplacement(
              Other->getImplicitObjectArgument()->getSourceRange(), HostName);
      }
    }
  }

  // Notes walk from the source to the sink.
  addProvenanceNotes(A.Why, Loc, SM);
  // Into the helper, down to the sink it reaches.
  for (const HostAccess *In = A.Inner; In && In->At.isValid(); In = In->Inner)
    diag(In->At,
         In->K == HostAccess::Helper
             ? "'%0' is passed on to '%1' here"
             : "'%0' reaches host code here, inside the helper",
         DiagnosticIDs::Note)
        << In->Tensor << In->Callee;
}

} // namespace clang::tidy::devplace
