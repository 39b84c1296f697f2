//===--- HostCopies.cpp - asynchronous host copies and what waits ---------===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

bool HostCopies::nonBlocking(const CXXMemberCallExpr *MC) const {
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
           Arg->EvaluateAsBooleanCondition(Value, Scope.Ctx) && Value;
  }
  return false;
}

const Expr *HostCopies::printedTensor(const CXXOperatorCallExpr *OC) const {
  if (OC->getNumArgs() != 2 ||
      !Api.is(ApiMatch::Operator, getOperatorSpelling(OC->getOperator()),
              ApiRole::HostSync) ||
      classifyType(OC->getArg(1)->getType()) != DeviceCarrier::Tensor)
    return nullptr;
  return OC->getArg(1);
}

const Expr *HostCopies::syncedTensor(const Expr *E, std::string *What) {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    const Expr *Printed = printedTensor(OC);
    if (Printed && What)
      *What = std::string("operator") + getOperatorSpelling(OC->getOperator());
    return Printed;
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
  if (!Obj || classifyType(Obj->getType()) != DeviceCarrier::Tensor)
    return nullptr;
  llvm::StringRef QName = qualifiedName(MC->getMethodDecl());
  if (Api.callee(QName, ApiRole::HostSanitizer) ||
      Api.callee(QName, ApiRole::DeviceSource))
    return nullptr;
  llvm::StringRef Name = methodName(MC);
  if (Api.tensorMethod(Name, ApiRole::HostSync)) {
    if (What)
      *What = ("." + Name + "()").str();
    return Obj;
  }
  if (!Api.tensorMethod(Name, ApiRole::MovesToArgument) &&
      !Api.tensorMethod(Name, ApiRole::MovesToDeviceOf))
    return nullptr;
  // .to(kCPU): a copy to the host.
  const Expr *DevArg = nullptr;
  Fact Target = A.Calls.deviceArg(MC, MC->getMethodDecl(), &DevArg, true);
  if (!Target.hasInfo() || Target.Dev || !Target.Host)
    return nullptr;
  if (What)
    *What = ("." + Name + "(").str() + (DevArg ? text(DevArg) : "") + ")";
  return Obj;
}

const CXXMemberCallExpr *HostCopies::nonBlockingHostCopy(const Expr *E) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(stripValue(E));
  if (!MC || !nonBlocking(MC) || !syncedTensor(MC, nullptr) ||
      Api.tensorMethod(methodName(MC), ApiRole::HostSync))
    return nullptr;
  return MC;
}

const Expr *HostCopies::valueReadOf(const Expr *E) const {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return printedTensor(OC);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
  if (!Obj || classifyType(Obj->getType()) != DeviceCarrier::Tensor)
    return nullptr;
  llvm::StringRef N = methodName(MC);
  bool Reads = Api.tensorMethod(N, ApiRole::PointerToMemory) ||
               Api.tensorMethod(N, ApiRole::HostAccessor) ||
               Api.tensorMethod(N, ApiRole::Reduction) ||
               (Api.tensorMethod(N, ApiRole::HostSync) &&
                !Api.tensorMethod(N, ApiRole::MovesToHost));
  return Reads ? Obj : nullptr;
}

std::optional<PendingCopy> HostCopies::pendingFrom(const Expr *Value) {
  if (!Value)
    return std::nullopt;
  // A copy of the tensor shares its memory: the same pending copy.
  if (const ValueDecl *K = Scope.keyOf(Value))
    if (const PendingCopy *P = now().Pending.lookup(K))
      return *P;
  if (const CXXMemberCallExpr *Copy = nonBlockingHostCopy(Value))
    if (Mask M =
            deviceUnder(eval(Copy->getImplicitObjectArgument()), now().Reach))
      return PendingCopy{M, Copy};
  return std::nullopt;
}

bool HostCopies::keepsPending(const DeclRefExpr *Use) const {
  const Stmt *Cur = Use, *P = Out.Parents->getParent(Use);
  while (P && (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
                   CXXBindTemporaryExpr, ExprWithCleanups>(P) ||
               (isa<CXXConstructExpr>(P) &&
                cast<CXXConstructExpr>(P)->getNumArgs() == 1))) {
    Cur = P;
    P = Out.Parents->getParent(P);
  }
  if (!P)
    return false;
  // `auto h2 = h;`, `auto &r = h;`: the variable takes the copy (or is it).
  if (isa<DeclStmt>(P))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    const auto *MC =
        dyn_cast_or_null<CXXMemberCallExpr>(Out.Parents->getParent(ME));
    return MC && valueReadOf(MC);
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P))
    return OC->getNumArgs() == 2 && OC->getArg(1) == Cur &&
           (OC->getOperator() == OO_Equal || printedTensor(OC));
  return false;
}

Mask HostCopies::waitsUnder(const Expr *E, const HelperCall &Helper) {
  const auto *CE = dyn_cast<CallExpr>(E);
  const auto *Construct = dyn_cast<CXXConstructExpr>(E);
  if (!CE && !Construct)
    return 0;
  if (CE && Api.callee(Scope.calleeName(CE), ApiRole::DeviceSynchronize))
    return AllValuations;
  // A blocking copy to the host of a tensor that may be on a device waits
  // for its queue, and with it for the copies queued before.
  if (const Expr *T = syncedTensor(E, nullptr)) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    if (MC && nonBlocking(MC))
      return 0;
    Fact F = eval(T);
    return deviceUnder(F, AllValuations) | unknownUnder(F, AllValuations);
  }
  const FunctionDecl *Callee =
      CE ? CE->getDirectCallee() : Construct->getConstructor();
  if (!Callee)
    return AllValuations; // a call through a pointer may run anything
  if (Scope.SM.isInSystemHeader(Callee->getLocation()) ||
      Api.inNamespace(qualifiedName(Callee), ApiRole::LibraryNamespace)) {
    // Library code waits for nothing itself, but may run a lambda it is
    // given (std::for_each(…, [&](…) { … })).
    if (CE)
      for (const Expr *Arg : CE->arguments())
        if (const LambdaExpr *L = Scope.lambdaOf(Arg);
            L && !Model.unit().inProgress(L->getCallOperator()) &&
            Model.analyze(L->getCallOperator()).MayWait)
          return AllValuations;
    return 0;
  }
  if (Callee->isImplicit() || Callee->isDefaulted())
    return 0;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee);
      M && M->isVirtual() && !M->hasAttr<FinalAttr>() &&
      !M->getParent()->hasAttr<FinalAttr>())
    return AllValuations; // an override elsewhere may wait
  // The code's own function: its summary says, or, with no body to read
  // (another file, recursion), it may.
  if (Helper.Sum)
    return Helper.Sum->MayWait ? AllValuations : 0;
  const FunctionDecl *Def = nullptr;
  if (Construct && Callee->hasBody(Def) && Def && !Def->isDependentContext() &&
      !Model.unit().inProgress(Def) &&
      !Scope.SM.isInSystemHeader(Def->getLocation()))
    return Model.analyze(Def).MayWait ? AllValuations : 0;
  return AllValuations;
}

void HostCopies::transferPending(const Stmt *S, const HelperCall &Helper) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      // A reference to a variable is that variable (Aliases).
      if (!VD || classifyType(VD->getType()) != DeviceCarrier::Tensor ||
          (VD->getType()->isReferenceType() && VD->getInit() &&
           Scope.keyOf(VD->getInit())))
        continue;
      A.Env.holdPending(VD, pendingFrom(VD->getInit()));
    }
    return;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const ValueDecl *K = Scope.keyOf(DRE);
        K && now().Pending.lookup(K) && !keepsPending(DRE))
      A.Env.releasePending(K);
    return;
  }
  auto [LHS, RHS] = assignmentSides(E);
  if (LHS)
    if (const ValueDecl *K = Scope.keyOf(LHS);
        K && isa<VarDecl>(K) &&
        classifyType(K->getType()) == DeviceCarrier::Tensor)
      A.Env.holdPending(K, pendingFrom(RHS));
  // Whether the call waits matters while a copy is pending, and to the
  // summary until the function is known to wait.
  if (now().Pending.empty() && Out.MayWait)
    return;
  Mask Waits = waitsUnder(E, Helper) & now().Reach;
  if (!Waits)
    return;
  Out.MayWait = true;
  A.Env.waited(Waits);
}

void HostCopies::observe(const Expr *E) {
  const Expr *Read = valueReadOf(E);
  if (!Read)
    return;
  if (const ValueDecl *K = Scope.keyOf(Read)) {
    if (const PendingCopy *P = now().Pending.lookup(K);
        P && P->When & now().Reach)
      Out.AsyncReads.push_back(AsyncRead{P->Copy, Read});
    return;
  }
  // Read on the spot: `d.to(kCPU, true).mean()`.
  if (std::optional<PendingCopy> P = pendingFrom(Read))
    Out.AsyncReads.push_back(AsyncRead{P->Copy, E});
}

} // namespace clang::devplace
