//===--- Conditions.cpp - the conditions that decide devices --------------===//

#include "FunctionAnalyzer.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

int Atoms::find(const void *Key) const {
  for (unsigned I = 0; I < Keys.size(); ++I)
    if (Keys[I] == Key)
      return I;
  return -1;
}

int Atoms::atomFor(const void *Key, llvm::function_ref<std::string()> Text,
                   AtomOrigin Origin) {
  if (int I = find(Key); I >= 0)
    return I;
  if (Keys.size() == MaxAtoms)
    return -1;
  Keys.push_back(Key);
  Texts.push_back(Text());
  Origins.push_back(Origin);
  return Keys.size() - 1;
}

std::string Atoms::describe(Mask M) const {
  std::string S;
  for (unsigned I = 0; I < Keys.size(); ++I) {
    Mask T = atomTrueMask(I);
    const char *Val = nullptr;
    if ((M & ~T) == 0)
      Val = "true";
    else if ((M & T) == 0)
      Val = "false";
    if (!Val)
      continue;
    if (!S.empty())
      S += " and ";
    S += "'" + Texts[I] + "' is " + Val;
  }
  return S;
}

void MutationScanner::note(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    Mutated.insert(DRE->getDecl());
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    Mutated.insert(ME->getMemberDecl());
}

bool MutationScanner::VisitBinaryOperator(BinaryOperator *BO) {
  if (BO->isAssignmentOp())
    note(BO->getLHS());
  return true;
}

bool MutationScanner::VisitUnaryOperator(UnaryOperator *UO) {
  if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
    note(UO->getSubExpr());
  return true;
}

bool MutationScanner::VisitCallExpr(CallExpr *CE) {
  // A class's assignment operator (a std::function given another lambda).
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      OC && OC->isAssignmentOp())
    note(OC->getArg(0));
  // A flag passed by non-const reference may be changed by the callee.
  const FunctionDecl *FD = CE->getDirectCallee();
  for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
    const Expr *Arg = CE->getArg(I);
    if (!Arg->getType()->isBooleanType())
      continue;
    if (!FD || I >= FD->getNumParams()) {
      note(Arg);
      continue;
    }
    QualType PT = FD->getParamDecl(I)->getType();
    if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
      note(Arg);
  }
  return true;
}

bool DeviceModel::setOnlyByConstructors(const FieldDecl *Flag) {
  auto [It, New] = ConstructorFlags.try_emplace(Flag, false);
  if (!New)
    return It->second;
  const auto *RD = dyn_cast<CXXRecordDecl>(Flag->getParent());
  if (!RD || Flag->getAccess() == AS_public || Flag->isMutable())
    return false;
  // A method defined elsewhere is not taken to write it: a write devplace
  // cannot see proves nothing, and taking one for granted would report
  // more where less is known.
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(M) || M->isStatic() || M->isConst() ||
        !M->hasBody(Def))
      continue;
    MutationScanner Writes;
    Writes.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
    if (Writes.Mutated.contains(Flag))
      return false;
  }
  // Friends could write it too.
  if (RD->hasFriends())
    return false;
  return It->second = true;
}

bool FunctionAnalyzer::onThis(const Expr *E) {
  E = stripValue(E);
  const Expr *Object = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    Object = ME->getBase();
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    Object = MC->getImplicitObjectArgument();
  return Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) &&
         isa<CXXMethodDecl>(FD);
}

AtomOrigin FunctionAnalyzer::availabilityAtom(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(stripValue(E));
  if (!CE)
    return {};
  llvm::StringRef Name = calleeName(CE);
  if (!Api.callee(Name, ApiRole::AcceleratorAvailable))
    return {};
  // One atom per device type: torch::cuda::is_available() and
  // at::hasCUDA() are one condition, torch::mps::is_available() another.
  AtomOrigin O;
  O.DeviceType = Api.deviceType(ApiMatch::Function, Name);
  if (O.DeviceType.empty())
    O.DeviceType = Api.deviceType(ApiMatch::Method, Name);
  O.Shared = Model.save("available:" + O.DeviceType.str()).data();
  return O;
}

Branch FunctionAnalyzer::evalCondition(const Expr *C) {
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
      if (Api.callee(calleeName(Call), ApiRole::DeviceCount)) {
        // Not shared with callers: `== 0` and `> 0` are one atom here.
        static const char DeviceCountKey = 0;
        return FromAtom(&DeviceCountKey, C);
      }
  }
  // A boolean flag that the function never reassigns.
  if (const ValueDecl *K = keyOf(C); K && C->getType()->isBooleanType()) {
    if (Mutations.Mutated.contains(K))
      return B;
    if (const auto *VD = dyn_cast<VarDecl>(K); VD && VD->getInit())
      if (AtomOrigin O = availabilityAtom(VD->getInit()); O.Shared)
        return FromAtom(O.Shared, VD->getInit(), O);
    // A flag parameter: callers know what they pass.
    AtomOrigin O;
    if (const auto *P = dyn_cast<ParmVarDecl>(K);
        P && P->getDeclContext() == FD &&
        P->getFunctionScopeIndex() < FD->getNumParams() &&
        FD->getParamDecl(P->getFunctionScopeIndex()) == P)
      O.Param = P->getFunctionScopeIndex();
    // A flag of this object that only constructors set: a method of the
    // same object that tests it again sees the same value.
    if (const auto *Field = dyn_cast<FieldDecl>(K);
        Field && onThis(C) && Model.setOnlyByConstructors(Field))
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
    B.Var = keyOf(Subject);
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
