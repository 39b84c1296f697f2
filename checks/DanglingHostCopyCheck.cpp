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

void DanglingHostCopyCheck::registerMatchers(MatchFinder *Finder) {
  // One match per translation unit; the main file's functions are walked
  // directly (see utils/MainFileDecls.h).
  Finder->addMatcher(translationUnitDecl(), this);
}

namespace {

/// Types that keep a pointer without owning the memory.
bool isNonOwningView(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  return ApiTable::builtin().classNamed(qualifiedName(RD),
                                        ApiRole::NonOwningView) ||
         isTensorType(T); // torch::from_blob(ptr, …) wraps without owning
}

/// `tmp.data_ptr<T>()` where tmp is a temporary tensor; returns the call.
const CXXMemberCallExpr *dataPtrOfTemporary(const Expr *E) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  if (!MC || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier())
    return nullptr;
  if (!isDataPtrMethod(MC->getMethodDecl()->getName()))
    return nullptr;
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (!Obj || !isTensorType(Obj->getType()))
    return nullptr;
  Obj = Obj->IgnoreImpCasts();
  if (isa<MaterializeTemporaryExpr>(Obj) || Obj->isPRValue())
    return MC;
  return nullptr;
}

/// The pointer into a temporary that \p Init stores, if any: the init
/// itself (a pointer, through casts and arithmetic), or an argument of a
/// view's constructor or of torch::from_blob.
const CXXMemberCallExpr *storedTemporaryPointer(const Expr *Init) {
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
  if (const CXXMemberCallExpr *MC = dataPtrOfTemporary(Init))
    return MC;
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init)) {
    if (!isNonOwningView(CE->getType()) || isTensorType(CE->getType()))
      return nullptr;
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *Call = dyn_cast<CallExpr>(Init)) {
    std::string N = calleeName(Call);
    if (!ApiTable::builtin().endsWith(N, ApiRole::WrapsPointer))
      return nullptr;
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
  }
  for (const Expr *Arg : Args)
    if (Arg->getType()->isPointerType())
      if (const CXXMemberCallExpr *MC = storedTemporaryPointer(Arg))
        return MC;
  return nullptr;
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

void DanglingHostCopyCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  for (const FunctionDecl *FD : mainFileFunctions(Ctx))
    if (!FD->isInvalidDecl() && FD->getBody())
      checkFunction(FD, Ctx);
}

void DanglingHostCopyCheck::checkFunction(const FunctionDecl *FD, ASTContext &Ctx) {
  llvm::StringSet<> Names; // for fix-its: names already used in the function
  struct Visitor : RecursiveASTVisitor<Visitor> {
    DanglingHostCopyCheck *Check;
    ASTContext *Ctx;
    llvm::DenseSet<const Stmt *> InBlock; // declarations directly in a block
    llvm::StringSet<> *Names;
    const FunctionDecl *FD;

    void report(const Expr *Temporary, const CXXMemberCallExpr *DataPtr,
                StringRef Holder, const Stmt *Decl) {
      std::string Made = exprText(Temporary, *Ctx);
      auto D = Check->diag(DataPtr->getExprLoc(),
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
      std::string Base = From ? From->getDecl()->getName().str() + "_host" : "host_copy";
      std::string Name = Base;
      for (unsigned N = 2; Names->contains(Name); ++N)
        Name = Base + std::to_string(N);
      Names->insert(Name);
      std::string Text = sourceText(Temporary->getSourceRange(), *Ctx);
      if (Text.empty())
        return;
      D << insertStatementBefore(Decl, "auto " + Name + " = " + Text + ";", *Ctx)
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
            !isNonOwningView(VD->getType()))
          continue;
        if (const CXXMemberCallExpr *MC = storedTemporaryPointer(VD->getInit()))
          report(MC->getImplicitObjectArgument(), MC, VD->getName(),
                 DS->isSingleDecl() ? DS : nullptr);
      }
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign || !BO->getType()->isPointerType())
        return true;
      if (const CXXMemberCallExpr *MC = storedTemporaryPointer(BO->getRHS()))
        report(MC->getImplicitObjectArgument(), MC,
               exprText(BO->getLHS(), *Ctx), nullptr);
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2 ||
          !isNonOwningView(OC->getArg(0)->getType()) ||
          isTensorType(OC->getArg(0)->getType()))
        return true;
      if (const CXXMemberCallExpr *MC = storedTemporaryPointer(OC->getArg(1)))
        report(MC->getImplicitObjectArgument(), MC,
               exprText(OC->getArg(0), *Ctx), nullptr);
      return true;
    }
  } V;
  V.Check = this;
  V.Ctx = &Ctx;
  V.Names = &Names;
  V.FD = FD;
  V.TraverseStmt(FD->getBody());
}

} // namespace clang::tidy::devplace
