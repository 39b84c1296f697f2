//===--- KernelRegistrations.cpp - kernels registered for a device --------===//

#include "KernelRegistrations.h"
#include "devplace/model/Types.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <optional>

namespace clang::devplace {

namespace {

/// A dispatch key (or device type) named in an expression: the first
/// enumerator of c10::DispatchKey, or of the device type, it mentions.
struct KeyFinder : RecursiveASTVisitor<KeyFinder> {
  const ApiTable &Api;
  std::optional<KernelRegistration> Found;
  bool Named = false; ///< some key was named, accelerator or not
  explicit KeyFinder(const ApiTable &Api) : Api(Api) {}

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (Named)
      return false;
    const ValueDecl *D = DRE->getDecl();
    // `torch::kCUDA`: a constant whose value is the enumerator.
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
      if (const auto *Init =
              dyn_cast<DeclRefExpr>(VD->getInit()->IgnoreParenImpCasts()))
        D = Init->getDecl();
    const auto *EC = dyn_cast<EnumConstantDecl>(D);
    const auto *ED = EC ? dyn_cast<EnumDecl>(EC->getDeclContext()) : nullptr;
    if (!ED)
      return true;
    std::string Enum = qualifiedName(ED);
    if (Api.classNamed(Enum, ApiRole::DispatchKeyEnum)) {
      Named = true;
      if (Api.is(ApiMatch::DispatchKey, EC->getName(),
                 ApiRole::AcceleratorDispatchKey))
        Found = KernelRegistration{
            {},
            Api.deviceType(ApiMatch::DispatchKey, EC->getName()),
            EC->getName().str()};
    } else if (Api.classNamed(Enum, ApiRole::DeviceTypeEnum)) {
      Named = true;
      if (!Api.is(ApiMatch::Enumerator, EC->getName(), ApiRole::HostDeviceType))
        Found = KernelRegistration{{}, EC->getName(), EC->getName().str()};
    }
    return !Named;
  }
};

/// The first function of the code's own an expression names: `&op`, `op`,
/// TORCH_FN(op) (a template argument), or a lambda's call operator.
struct FunctionFinder : RecursiveASTVisitor<FunctionFinder> {
  const ApiTable &Api;
  const SourceManager &SM;
  const FunctionDecl *Found = nullptr;
  FunctionFinder(const ApiTable &Api, const SourceManager &SM)
      : Api(Api), SM(SM) {}

  bool own(const FunctionDecl *FD) const {
    return FD && !SM.isInSystemHeader(FD->getLocation()) &&
           !Api.inNamespace(qualifiedName(FD), ApiRole::LibraryNamespace);
  }
  bool take(const FunctionDecl *FD) {
    if (own(FD))
      Found = FD;
    return !Found;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    return take(dyn_cast<FunctionDecl>(DRE->getDecl()));
  }
  bool VisitLambdaExpr(LambdaExpr *L) { return take(L->getCallOperator()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        CE->getType()->getAsCXXRecordDecl());
    if (Spec)
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
        if (A.getKind() == TemplateArgument::Declaration &&
            !take(dyn_cast<FunctionDecl>(A.getAsDecl())))
          return false;
    return !Found;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) { return WalkUpFromLambdaExpr(L); }
};

/// A call that makes a kernel one for the key it names (torch::dispatch).
struct DispatchFinder : RecursiveASTVisitor<DispatchFinder> {
  const ApiTable &Api;
  const CallExpr *Found = nullptr;
  explicit DispatchFinder(const ApiTable &Api) : Api(Api) {}
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *F = CE->getDirectCallee();
        F && CE->getNumArgs() > 0 &&
        Api.callee(qualifiedName(F), ApiRole::KernelDispatch))
      Found = CE;
    return !Found;
  }
};

/// The registrations in one init function: `m.impl(name, kernel)` calls,
/// each for the key its kernel argument names (torch::dispatch) or else
/// the registrar's.
struct ImplFinder : RecursiveASTVisitor<ImplFinder> {
  const ApiTable &Api;
  const SourceManager &SM;
  const std::optional<KernelRegistration> &RegistrarKey;
  llvm::DenseMap<const FunctionDecl *, KernelRegistration> &Out;

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || MC->getNumArgs() == 0 ||
        !Api.callee(qualifiedName(M), ApiRole::KernelImplementation))
      return true;
    Expr *Kernel = MC->getArg(MC->getNumArgs() - 1);
    // torch::dispatch(key, kernel) names its own key.
    DispatchFinder Dispatch(Api);
    Dispatch.TraverseStmt(Kernel);
    KeyFinder Keys(Api);
    if (Dispatch.Found)
      Keys.TraverseStmt(const_cast<Expr *>(Dispatch.Found->getArg(0)));
    const std::optional<KernelRegistration> &Key =
        Dispatch.Found ? Keys.Found : RegistrarKey;
    FunctionFinder Fn(Api, SM);
    Fn.TraverseStmt(Kernel);
    if (Key && Fn.Found) {
      KernelRegistration R = *Key;
      R.At = MC->getExprLoc();
      Out.try_emplace(Fn.Found->getCanonicalDecl(), std::move(R));
    }
    return true;
  }
};

} // namespace

llvm::DenseMap<const FunctionDecl *, KernelRegistration>
findKernelRegistrations(ASTContext &Ctx, const ApiTable &Api,
                        llvm::ArrayRef<const VarDecl *> Variables) {
  llvm::DenseMap<const FunctionDecl *, KernelRegistration> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const VarDecl *VD : Variables) {
    const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
    if (!RD || !VD->getInit() ||
        !Api.classNamed(qualifiedName(RD), ApiRole::KernelRegistrar))
      continue;
    Expr *Init = const_cast<Expr *>(VD->getInit());
    KeyFinder Keys(Api);
    Keys.TraverseStmt(Init);
    FunctionFinder InitFn(Api, SM);
    InitFn.TraverseStmt(Init);
    const FunctionDecl *Def = nullptr;
    if (!InitFn.Found || !InitFn.Found->hasBody(Def))
      continue;
    // A lambda that returns the init function (the real macro's
    // selective-build guard): the function it names.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
        MD && MD->getParent()->isLambda()) {
      FunctionFinder Inner(Api, SM);
      Inner.TraverseStmt(MD->getBody());
      if (!Inner.Found || !Inner.Found->hasBody(Def))
        continue;
    }
    ImplFinder Impls{{}, Api, SM, Keys.Found, Out};
    Impls.TraverseStmt(Def->getBody());
  }
  return Out;
}

} // namespace clang::devplace
