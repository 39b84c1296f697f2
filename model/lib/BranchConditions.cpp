//===--- BranchConditions.cpp - what a branch condition tells -------------===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

AtomOrigin BranchConditions::availabilityAtom(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(stripValue(E));
  if (!CE)
    return {};
  llvm::StringRef Name = Scope.calleeName(CE);
  if (!Api.callee(Name, ApiRole::AcceleratorAvailable))
    return {};
  // One atom per device type: torch::cuda::is_available() and
  // at::hasCUDA() are one condition, torch::mps::is_available() another.
  AtomOrigin O;
  O.DeviceType = Api.deviceType(ApiMatch::Function, Name);
  if (O.DeviceType.empty())
    O.DeviceType = Api.deviceType(ApiMatch::Method, Name);
  O.Shared = Model.unit().save("available:" + O.DeviceType.str()).data();
  return O;
}

Branch BranchConditions::runTimeDeviceName(const Expr *Name) {
  Branch B;
  const ValueDecl *K = Scope.keyOf(Name);
  // A configuration's field (`cfg.device`, `options->device_name`): one
  // name wherever the object comes from.
  if (const auto *ME = dyn_cast<MemberExpr>(stripValue(Name)); !K && ME)
    K = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!K)
    return B;
  std::string Text = text(Name);
  int I = FunctionAtoms.atomFor(
      K, [&] { return Text; }, "'" + Text + "' names an accelerator",
      "'" + Text + "' names the CPU");
  if (I >= 0) {
    B.TrueReach = atomTrueMask(I);
    B.FalseReach = ~atomTrueMask(I);
  }
  return B;
}

Branch BranchConditions::evalCondition(const Expr *C) {
  Branch B;
  if (!C)
    return B;
  C = C->IgnoreParenImpCasts();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(C))
    C = EWC->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(C);
      UO && UO->getOpcode() == UO_LNot) {
    Branch Inner = evalCondition(UO->getSubExpr());
    std::swap(Inner.TrueReach, Inner.FalseReach);
    Inner.VarOnDeviceWhenTrue = !Inner.VarOnDeviceWhenTrue;
    return Inner;
  }
  auto FromAtom = [&](const void *Key, const Expr *E, AtomOrigin O = {}) {
    int I = FunctionAtoms.atomFor(Key, [&] { return text(E); }, O);
    if (I >= 0) {
      B.TrueReach = atomTrueMask(I);
      B.FalseReach = ~atomTrueMask(I);
    }
    return B;
  };
  if (AtomOrigin O = availabilityAtom(C); O.Shared)
    return FromAtom(O.Shared, C, O);
  // torch::cuda::device_count() > 0 and friends mean the same.
  if (const auto *BO = dyn_cast<BinaryOperator>(C);
      BO && BO->isComparisonOp()) {
    if (const auto *Call = dyn_cast<CallExpr>(stripValue(BO->getLHS())))
      if (Api.callee(Scope.calleeName(Call), ApiRole::DeviceCount)) {
        // Not shared with callers: `== 0` and `> 0` are one atom here.
        static const char DeviceCountKey = 0;
        return FromAtom(&DeviceCountKey, C);
      }
  }
  // A boolean flag that the function never reassigns.
  if (const ValueDecl *K = Scope.keyOf(C); K && C->getType()->isBooleanType()) {
    if (Scope.Mutations.Mutated.contains(K))
      return B;
    if (const auto *VD = dyn_cast<VarDecl>(K); VD && VD->getInit())
      if (AtomOrigin O = availabilityAtom(VD->getInit()); O.Shared)
        return FromAtom(O.Shared, VD->getInit(), O);
    // A flag parameter: callers know what they pass.
    AtomOrigin O;
    if (const auto *P = dyn_cast<ParmVarDecl>(K);
        P && P->getDeclContext() == Scope.FD &&
        P->getFunctionScopeIndex() < Scope.FD->getNumParams() &&
        Scope.FD->getParamDecl(P->getFunctionScopeIndex()) == P)
      O.Param = P->getFunctionScopeIndex();
    // A flag of this object that only constructors set: a method of the
    // same object that tests it again sees the same value.
    if (const auto *Field = dyn_cast<FieldDecl>(K);
        Field && Scope.onThis(C) && Model.unit().setOnlyByConstructors(Field))
      O.Member = Field;
    return FromAtom(K, C, O);
  }
  // Guards on a tensor's or device's own placement.
  auto Guard = [&](const Expr *Subject, bool TrueMeansDevice) {
    Subject = stripValue(Subject);
    // t.device().is_cuda() and t.device().type() are about t.
    while (const auto *MC = dyn_cast<CXXMemberCallExpr>(Subject)) {
      if (!Api.methodName(methodName(MC), ApiRole::DeviceOf))
        break;
      Subject = stripValue(MC->getImplicitObjectArgument());
    }
    // Where the subject may be on a device the test may be true, where it
    // may be on the host false; under a valuation whose device is unknown
    // (or the caller's), either.
    Fact F = eval(Subject);
    if (F.hasInfo()) {
      Mask Either = unknownUnder(F, AllValuations);
      B.TrueReach = (TrueMeansDevice ? F.Dev : F.Host) | Either;
      B.FalseReach = (TrueMeansDevice ? F.Host : F.Dev) | Either;
    }
    B.Var = Scope.keyOf(Subject);
    B.VarOnDeviceWhenTrue = TrueMeansDevice;
    return B;
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
    llvm::StringRef N = methodName(MC);
    DeviceCarrier ObjC =
        classifyType(MC->getImplicitObjectArgument()->getType());
    bool DeviceTest = Api.methodName(N, ApiRole::IsDeviceTest);
    if ((DeviceTest || Api.methodName(N, ApiRole::IsHostTest)) &&
        (ObjC == DeviceCarrier::Tensor || ObjC == DeviceCarrier::Device))
      return Guard(MC->getImplicitObjectArgument(), DeviceTest);
  }
  // t.device() == torch::kCPU, d.type() != torch::kCUDA, …
  const Expr *L = nullptr, *R = nullptr;
  bool Equal = true;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
      OC && (OC->getOperator() == OO_EqualEqual ||
             OC->getOperator() == OO_ExclaimEqual)) {
    L = OC->getArg(0);
    R = OC->getArg(1);
    Equal = OC->getOperator() == OO_EqualEqual;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(C);
             BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
    L = BO->getLHS();
    R = BO->getRHS();
    Equal = BO->getOpcode() == BO_EQ;
  }
  if (L && R) {
    auto IsConstant = [&](const Expr *E, bool &OnDevice) {
      Fact F = eval(E);
      const Expr *S = stripValue(E);
      bool Literal =
          isa<DeclRefExpr>(S) &&
          (isa<EnumConstantDecl>(cast<DeclRefExpr>(S)->getDecl()) ||
           cast<DeclRefExpr>(S)->getDecl()->getType().isConstQualified());
      if (!Literal && !isa<CXXConstructExpr>(S))
        return false;
      // A constant: the same device under every valuation.
      if (onHostOnEveryPath(F, AllValuations))
        OnDevice = false;
      else if (onDeviceOnEveryPath(F, AllValuations))
        OnDevice = true;
      else
        return false;
      return true;
    };
    bool OnDevice = false;
    if (IsConstant(R, OnDevice))
      return Guard(L, OnDevice == Equal);
    if (IsConstant(L, OnDevice))
      return Guard(R, OnDevice == Equal);
  }
  return B;
}

} // namespace clang::devplace
