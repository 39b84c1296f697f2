//===--- DanglingHostCopyCheck.cpp - devplace-dangling-host-copy ----------===//

#include "DanglingHostCopyCheck.h"
#include "utils/FixIts.h"
#include "utils/MainFileDecls.h"
#include "utils/ModelNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::devplace {

namespace {

/// Types that keep a pointer without owning the memory.
bool isNonOwningView(const ApiTable &Api, QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  return Api.classNamed(qualifiedName(RD), ApiRole::NonOwningView) ||
         isTensorType(T); // torch::from_blob(ptr, …) wraps without owning
}

/// Which tensors' memory a stored pointer must not point into: temporaries,
/// or (for values that leave the function) its local host copies.
using Owner = llvm::function_ref<bool(const Expr *Tensor)>;

/// Calls that return the tensor they are called on: a copy to the host of a
/// tensor the model proves is on the host (`t.cpu()` of a host `t`).
using ReturnsItsTensor = llvm::DenseSet<const Expr *>;

/// Arguments written at the call, not filled in from defaults.
unsigned explicitArguments(const CallExpr *CE) {
  return llvm::count_if(CE->arguments(), [](const Expr *A) {
    return !isa<CXXDefaultArgExpr>(A);
  });
}

/// A temporary tensor that may own memory of its own: not a view
/// (`t.view({-1})`, `t.slice(…)`) of a tensor that outlives it, whose
/// memory the view only shares, nor `t.cpu()` of a tensor on the host.
bool isTemporary(const ApiTable &Api, const Expr *Obj,
                 const ReturnsItsTensor &Itself) {
  Obj = Obj->IgnoreImpCasts();
  if (!isa<MaterializeTemporaryExpr>(Obj) && !Obj->isPRValue())
    return false;
  const Expr *Base = stripValue(Obj);
  while (isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Base)) {
    const Expr *Of = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Base)) {
      Of = MC->getImplicitObjectArgument();
      if (!Api.tensorMethod(methodName(MC), ApiRole::SharesStorage) &&
          !Itself.contains(MC))
        return true;
    } else {
      // `t[i]` with an integer index selects a view; a tensor index copies.
      const auto *OC = cast<CXXOperatorCallExpr>(Base);
      if (OC->getNumArgs() != 2 ||
          !Api.is(ApiMatch::Operator, getOperatorSpelling(OC->getOperator()),
                  ApiRole::SharesStorage) ||
          !OC->getArg(1)->getType()->isIntegralOrEnumerationType())
        return true;
      Of = OC->getArg(0);
    }
    if (!Of || !isTensorType(Of->getType()))
      return true;
    Base = Of->IgnoreImpCasts();
    if (!isa<MaterializeTemporaryExpr>(Base) && !Base->isPRValue())
      return false; // a view of a tensor with a name
    Base = stripValue(Base);
  }
  return true;
}

/// `obj.data_ptr<T>()` where \p Dies accepts obj; returns the call.
const CXXMemberCallExpr *dataPtrOf(const Expr *E, Owner Dies) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  if (!MC || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier())
    return nullptr;
  if (!isDataPtrMethod(MC->getMethodDecl()->getName()))
    return nullptr;
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (!Obj || !isTensorType(Obj->getType()))
    return nullptr;
  return Dies(Obj) ? MC : nullptr;
}

/// Where a pointer comes from, when it is one a rule cares about: the
/// expression that makes it (`t.data_ptr<T>()`, `buf.data()`), or null.
using PointerSource = llvm::function_ref<const Expr *(const Expr *)>;

/// The pointer \p Source accepts that \p Init stores, if any: the init
/// itself (a pointer, through casts and arithmetic), or an argument of a
/// view's constructor or of torch::from_blob.
const Expr *storedPointerFrom(const ApiTable &Api, const Expr *Init,
                              PointerSource Source) {
  Init = Init->IgnoreParenImpCasts();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
    Init = EWC->getSubExpr()->IgnoreParenImpCasts();
  while (true) {
    if (const auto *C = dyn_cast<ExplicitCastExpr>(Init)) {
      Init = C->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Init);
        BO && BO->isAdditiveOp() && BO->getType()->isPointerType()) {
      Init = BO->getLHS()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(Init)) {
      Init = BTE->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Init)) {
      Init = MTE->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  if (const Expr *P = Source(Init))
    return P;
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init)) {
    if (!isNonOwningView(Api, CE->getType()) || isTensorType(CE->getType()))
      return nullptr;
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *Call = dyn_cast<CallExpr>(Init)) {
    std::string N = calleeName(Call);
    if (!Api.endsWith(N, ApiRole::WrapsPointer))
      return nullptr;
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
  }
  for (const Expr *Arg : Args)
    if (Arg->getType()->isPointerType())
      if (const Expr *P = storedPointerFrom(Api, Arg, Source))
        return P;
  return nullptr;
}

/// The `data_ptr` of a tensor \p Dies accepts that \p Init stores, if any.
const CXXMemberCallExpr *storedPointer(const ApiTable &Api, const Expr *Init,
                                       Owner Dies) {
  return cast_or_null<CXXMemberCallExpr>(
      storedPointerFrom(Api, Init, [&](const Expr *E) -> const Expr * {
        return dataPtrOf(E, Dies);
      }));
}

/// A pointer into a buffer that \p FD owns and destroys at its return:
/// `buf.data()` or `&buf[0]` of a local container that owns its elements
/// (std::vector, std::array, std::string), or a local array. Returns the
/// buffer's variable.
const VarDecl *localBuffer(const ApiTable &Api, const Expr *E,
                           const FunctionDecl *FD) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *OC =
            dyn_cast<CXXOperatorCallExpr>(UO->getSubExpr()->IgnoreParens());
        OC && OC->getOperator() == OO_Subscript)
      E = OC->getArg(0)->IgnoreParenImpCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && methodName(MC) == "data" && MC->getImplicitObjectArgument())
    E = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->isStaticLocal() ||
      VD->getType()->isReferenceType() || VD->getDeclContext() != FD)
    return nullptr;
  QualType T = VD->getType();
  if (T->isArrayType())
    return VD;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && Api.classNamed(qualifiedName(RD), ApiRole::OwnsElements)
             ? VD
             : nullptr;
}

const CXXMemberCallExpr *
storedTemporaryPointer(const ApiTable &Api, const Expr *Init,
                       const ReturnsItsTensor &Itself) {
  return storedPointer(Api, Init, [&](const Expr *Obj) {
    return isTemporary(Api, Obj, Itself);
  });
}

/// The function's local tensors (by-value parameters included) that hold a
/// copy made here, assigned or initialised from `.cpu()` or `.to(…)`, and
/// that nothing else shares (they are not passed, stored or returned as
/// tensors). A view into one must not leave the function: on a GPU machine
/// the copy is the only owner of that memory, and it is destroyed at the
/// return.
llvm::DenseSet<const VarDecl *> localHostCopies(const ApiTable &Api,
                                                const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ApiTable &Api;
    explicit Finder(const ApiTable &Api) : Api(Api) {}
    llvm::DenseSet<const VarDecl *> Out, Shared;
    void share(const Expr *E) {
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripValue(E)))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Shared.insert(VD);
    }
    bool VisitCallExpr(CallExpr *CE) {
      if (isa<CXXOperatorCallExpr>(CE)) // operands: `h * 2`, `h = …`
        return true;
      for (const Expr *Arg : CE->arguments())
        if (isTensorType(Arg->getType()))
          share(Arg);
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
      for (const Expr *Arg : CE->arguments())
        share(Arg);
      return true;
    }
    bool VisitReturnStmt(ReturnStmt *RS) {
      share(RS->getRetValue());
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool isCopy(const Expr *E) const {
      const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(stripValue(E));
      if (!MC || !MC->getImplicitObjectArgument() ||
          !isTensorType(MC->getImplicitObjectArgument()->getType()))
        return false;
      return Api.tensorMethod(methodName(MC), ApiRole::MovesToHost) ||
             Api.tensorMethod(methodName(MC), ApiRole::MovesToArgument);
    }
    /// \p VD takes \p Value: a copy, when VD is a local tensor.
    void takes(const VarDecl *VD, const Expr *Value) {
      if (VD && Value && VD->hasLocalStorage() &&
          !VD->getType()->isReferenceType() && isTensorType(VD->getType()) &&
          isCopy(Value))
        Out.insert(VD);
    }
    bool VisitVarDecl(VarDecl *VD) {
      takes(VD, VD->getInit());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        const auto *DRE =
            dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts());
        takes(DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr, OC->getArg(1));
        share(OC->getArg(1));
      }
      return true;
    }
  } F(Api);
  F.TraverseStmt(FD->getBody());
  for (const VarDecl *VD : F.Shared)
    F.Out.erase(VD);
  return std::move(F.Out);
}

/// The parameter through which an assignment's target reaches the caller:
/// `out` for a non-const reference parameter, `*out` for a pointer one.
const ParmVarDecl *outParameter(const Expr *Target) {
  Target = Target->IgnoreParenImpCasts();
  bool Deref = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Target);
      UO && UO->getOpcode() == UO_Deref) {
    Target = UO->getSubExpr()->IgnoreParenImpCasts();
    Deref = true;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Target);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P)
    return nullptr;
  QualType T = P->getType();
  if (!Deref && T->isLValueReferenceType() &&
      !T.getNonReferenceType().isConstQualified())
    return P;
  return Deref && T->isPointerType() ? P : nullptr;
}

/// The tensor the temporary was made from (`x` in `x.cpu()`), if named.
const DeclRefExpr *copiedVariable(const Expr *Temporary) {
  const Expr *E = Temporary->IgnoreImpCasts();
  while (true) {
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MTE->getSubExpr()->IgnoreImpCasts();
    else if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BTE->getSubExpr()->IgnoreImpCasts();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
             MC && MC->getImplicitObjectArgument())
      E = MC->getImplicitObjectArgument()->IgnoreImpCasts();
    else
      break;
  }
  return dyn_cast<DeclRefExpr>(E);
}

} // namespace

void DanglingHostCopyCheck::report(const FunctionDecl *FD,
                                   const FunctionFacts &R, ASTContext &Ctx) {
  if (FD->isInvalidDecl() || !FD->getBody())
    return;
  llvm::StringSet<> Names; // for fix-its: names already used in the function
  struct Visitor : RecursiveASTVisitor<Visitor> {
    DanglingHostCopyCheck *Check;
    ASTContext *Ctx;
    llvm::DenseSet<const Stmt *> InBlock; // declarations directly in a block
    llvm::StringSet<> *Names;
    const FunctionDecl *FD;
    const ApiTable *Table;
    ReturnsItsTensor Itself;

    void report(const Expr *Temporary, const CXXMemberCallExpr *DataPtr,
                StringRef Holder, const Stmt *Decl) {
      std::string Made = exprText(Temporary, *Ctx);
      auto D =
          Check->diag(DataPtr->getExprLoc(),
                      "'%0' keeps a pointer into the temporary tensor '%1', "
                      "which is destroyed at the end of this statement")
          << Holder << Made;
      if (!Decl || Decl->getBeginLoc().isMacroID() ||
          Temporary->getBeginLoc().isMacroID() || !InBlock.contains(Decl))
        return;
      // Fix-it: name the temporary so that it lives as long as the holder.
      if (Names->empty()) {
        struct Collect : RecursiveASTVisitor<Collect> {
          llvm::StringSet<> *Out;
          bool VisitNamedDecl(NamedDecl *N) {
            if (N->getIdentifier())
              Out->insert(N->getName());
            return true;
          }
          bool VisitDeclRefExpr(DeclRefExpr *R) {
            if (R->getDecl()->getIdentifier())
              Out->insert(R->getDecl()->getName());
            return true;
          }
        } C;
        C.Out = Names;
        C.TraverseDecl(const_cast<FunctionDecl *>(FD));
      }
      const DeclRefExpr *From = copiedVariable(Temporary);
      std::string Base =
          From ? From->getDecl()->getName().str() + "_host" : "host_copy";
      std::string Name = Base;
      for (unsigned N = 2; Names->contains(Name); ++N)
        Name = Base + std::to_string(N);
      Names->insert(Name);
      std::string Text = sourceText(Temporary->getSourceRange(), *Ctx);
      if (Text.empty())
        return;
      D << insertStatementBefore(Decl, "auto " + Name + " = " + Text + ";",
                                 *Ctx)
        << FixItHint::CreateReplacement(Temporary->getSourceRange(), Name);
    }

    bool VisitCompoundStmt(CompoundStmt *CS) {
      for (const Stmt *Child : CS->body())
        InBlock.insert(Child);
      return true;
    }
    bool VisitDeclStmt(DeclStmt *DS) {
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !VD->getInit() || VD->getType()->isReferenceType() ||
            !isNonOwningView(*Table, VD->getType()))
          continue;
        if (const CXXMemberCallExpr *MC =
                storedTemporaryPointer(*Table, VD->getInit(), Itself))
          report(MC->getImplicitObjectArgument(), MC, VD->getName(),
                 DS->isSingleDecl() ? DS : nullptr);
      }
      return true;
    }
    // Views into a local host copy that leave the function.
    llvm::DenseSet<const VarDecl *> Copies;
    bool LocalCopy(const Expr *Obj) const {
      const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreImpCasts());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      return VD && Copies.contains(VD);
    }
    void escapes(const Expr *Value, StringRef Holder) {
      if (Copies.empty() || !isNonOwningView(*Table, Value->getType()))
        return;
      const CXXMemberCallExpr *MC = storedPointer(
          *Table, Value, [&](const Expr *Obj) { return LocalCopy(Obj); });
      if (!MC)
        return;
      Check->diag(MC->getExprLoc(),
                  "%0 keeps a pointer into '%1', a tensor copy local to "
                  "'%2', which is destroyed when the function returns")
          << Holder << exprText(MC->getImplicitObjectArgument(), *Ctx)
          << FD->getNameAsString();
    }
    bool VisitReturnStmt(ReturnStmt *RS) {
      const Expr *Value = RS->getRetValue();
      if (!Value || !isNonOwningView(*Table, Value->getType()))
        return true;
      escapes(Value, "the returned value");
      // A view made in the return statement over a temporary, or over a
      // buffer of the function's own.
      if (const CXXMemberCallExpr *MC =
              storedTemporaryPointer(*Table, Value, Itself))
        Check->diag(MC->getExprLoc(),
                    "the returned value keeps a pointer into the temporary "
                    "tensor '%0', which is destroyed at the end of this "
                    "statement")
            << exprText(MC->getImplicitObjectArgument(), *Ctx);
      const VarDecl *Buffer = nullptr;
      if (const Expr *P = storedPointerFrom(*Table, Value, [&](const Expr *E) {
            Buffer = localBuffer(*Table, E, FD);
            return Buffer ? E : nullptr;
          }))
        Check->diag(P->getExprLoc(),
                    "the returned value keeps a pointer into '%0', a buffer "
                    "local to '%1', which is destroyed when the function "
                    "returns")
            << Buffer->getName() << FD->getNameAsString();
      return true;
    }
    void assigned(const Expr *Target, const Expr *Value) {
      if (const ParmVarDecl *P = outParameter(Target))
        escapes(Value, "out-parameter '" + P->getName().str() + "'");
    }
    // A call that keeps a pointer it is given (an asynchronous copy, an
    // engine's tensor address) outlives a temporary's memory.
    bool VisitCallExpr(CallExpr *CE) {
      std::string N = calleeName(CE);
      if (N.empty() || !Table->callee(N, ApiRole::KeepsPointer))
        return true;
      for (const Expr *Arg : CE->arguments())
        if (Arg->getType()->isPointerType())
          if (const CXXMemberCallExpr *MC =
                  storedTemporaryPointer(*Table, Arg, Itself))
            Check->diag(MC->getExprLoc(),
                        "'%0' keeps a pointer into the temporary tensor '%1' "
                        "beyond the call, and the tensor is destroyed at the "
                        "end of this statement")
                << N << exprText(MC->getImplicitObjectArgument(), *Ctx);
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign || !BO->getType()->isPointerType())
        return true;
      assigned(BO->getLHS(), BO->getRHS());
      if (const CXXMemberCallExpr *MC =
              storedTemporaryPointer(*Table, BO->getRHS(), Itself))
        report(MC->getImplicitObjectArgument(), MC,
               exprText(BO->getLHS(), *Ctx), nullptr);
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2 ||
          !isNonOwningView(*Table, OC->getArg(0)->getType()))
        return true;
      assigned(OC->getArg(0), OC->getArg(1));
      // As for a declaration: `t = torch::from_blob(x.cpu().data_ptr(), …)`
      // keeps the pointer as much as `auto t = …` does.
      if (const CXXMemberCallExpr *MC =
              storedTemporaryPointer(*Table, OC->getArg(1), Itself))
        report(MC->getImplicitObjectArgument(), MC,
               exprText(OC->getArg(0), *Ctx), nullptr);
      return true;
    }
  } V;
  V.Check = this;
  V.Ctx = &Ctx;
  V.Names = &Names;
  V.FD = FD;
  V.Table = &api();
  // `t.cpu()` of a host tensor is `t`: only where the analysis proved it,
  // and only a plain move (`.to(kCPU, kFloat)` may still convert).
  if (R.Complete)
    for (const Expr *E : R.HostCopiesOfHostValues)
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
          MC && explicitArguments(MC) <= 1)
        V.Itself.insert(MC);
  V.Copies = localHostCopies(api(), FD);
  V.TraverseStmt(FD->getBody());
}

} // namespace clang::tidy::devplace
