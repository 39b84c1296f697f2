//===--- Evaluator.cpp - the device of an expression ----------------------===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

Fact Evaluator::eval(const Expr *E) {
  if (!E)
    return Fact{};
  auto It = Cache.find(E);
  if (It != Cache.end())
    return It->second;
  Fact F = evalUncached(E);
  // A device type (`dev.type()`, kCUDA) names no device of its type: a
  // transfer to it goes to the current one.
  if (F.Index.K != DeviceIndex::Unsaid &&
      classifyType(E->getType()) == DeviceCarrier::DeviceType)
    F.Index = {};
  Cache[E] = F;
  return F;
}

Fact Evaluator::evalDeviceConstant(const Expr *E, bool OnDevice,
                                   llvm::StringRef DeviceType) {
  if (!OnDevice)
    return Fact::host();
  return Fact::device(makeStep(Step::DeviceConstant, E->getExprLoc(), "",
                               "'" + text(E) + "'", nullptr, DeviceType));
}

Fact Evaluator::evalUncached(const Expr *E) {
  E = E->IgnoreParens();
  // Look through wrappers that do not change the value.
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    return eval(ICE->getSubExpr());
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(E)) {
    // A cast to bool or to a number reads no memory and has no device.
    QualType T = EC->getType();
    if (T->isArithmeticType() && !T->isEnumeralType())
      return Fact{};
    return eval(EC->getSubExpr());
  }
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return eval(EWC->getSubExpr());
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(MTE->getSubExpr());
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(BTE->getSubExpr());
  if (const auto *DAE = dyn_cast<CXXDefaultArgExpr>(E))
    return isa<CXXConstructExpr, InitListExpr>(stripValue(DAE->getExpr()))
               ? Fact{}
               : eval(DAE->getExpr());

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
      if (!Api.is(ApiMatch::Class,
                  qualifiedName(cast<NamedDecl>(EC->getDeclContext())),
                  ApiRole::DeviceTypeEnum))
        return Fact{};
      // c10::DeviceType's enumerators are spelt as messages name them.
      return evalDeviceConstant(
          E,
          !Api.is(ApiMatch::Enumerator, EC->getName(), ApiRole::HostDeviceType),
          EC->getName());
    }
    if (const auto *BD = dyn_cast<BindingDecl>(D))
      return A.Env.lookup(BD, E);
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      DeviceCarrier C = classifyType(VD->getType());
      if (C == DeviceCarrier::None)
        return Fact{};
      // Library constants such as c10::kCUDA: their initialiser is the fact.
      if (VD->hasGlobalStorage() && VD->getType().isConstQualified() &&
          VD->getInit() && C == DeviceCarrier::DeviceType) {
        Fact Init = eval(VD->getInit());
        if (Init.Dev && !Init.Host)
          return evalDeviceConstant(E, true,
                                    Init.Why ? Init.Why->DeviceType : "");
        return Init;
      }
      return A.Env.lookup(Scope.canonical(VD), E);
    }
    return Fact{};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return evalMember(ME);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (classifyType(AS->getType()) != DeviceCarrier::None &&
        classifyType(AS->getBase()->getType()) == DeviceCarrier::Container)
      return eval(AS->getBase()); // an element of an array of tensors
    return Fact{};
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(CO);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return eval(BO->getRHS());
    // Pointer arithmetic stays inside the same memory.
    if (BO->getType()->isPointerType()) {
      Fact L = eval(BO->getLHS());
      return L.hasInfo() ? L : eval(BO->getRHS());
    }
    return Fact{};
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getType()->isPointerType() &&
        (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
      return eval(UO->getSubExpr());
    return Fact{};
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return evalOperatorCall(OC);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return A.Calls.evalMemberCall(MC);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return A.Calls.evalCall(CE);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return evalConstruct(CE);
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    Fact R;
    for (const Expr *Init : ILE->inits())
      R = join(R, eval(Init));
    return R;
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    return eval(SIL->getSubExpr());
  return Fact{};
}

Fact Evaluator::evalMember(const MemberExpr *ME) {
  DeviceCarrier C = classifyType(ME->getType());
  if (Scope.isTupleLike(ME->getBase()->getType()) && C != DeviceCarrier::None) {
    llvm::StringRef N = qualifiedName(ME->getMemberDecl());
    if (Api.is(ApiMatch::Method, N, ApiRole::PairFirst))
      return A.Elements.elementOf(ME->getBase(), 0);
    if (Api.is(ApiMatch::Method, N, ApiRole::PairSecond))
      return A.Elements.elementOf(ME->getBase(), 1);
  }
  if (const ValueDecl *K = Scope.keyOf(ME))
    if (C != DeviceCarrier::None)
      return A.Env.lookup(K, ME);
  // A member of a local object (`s.loss`), of a function's result
  // (`f(x).probs`) or of a braced temporary: that object's own fact.
  if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      Field && !ME->isArrow() && Scope.hasMemberFact(Field) &&
      Scope.splitsIntoMembers(ME->getBase()->getType())) {
    if (std::optional<llvm::SmallVector<Fact, 2>> Facts =
            A.Elements.elementFacts(ME->getBase());
        Facts && Field->getFieldIndex() < Facts->size())
      return (*Facts)[Field->getFieldIndex()];
    // The result of the code's own function whose body is elsewhere: its
    // members are what that body made, not the member's summary here.
    if (const auto *Call = dyn_cast<CallExpr>(stripValue(ME->getBase())))
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee && !Callee->isDefined() &&
          !Scope.SM.isInSystemHeader(Callee->getLocation()))
        return Fact::unknown();
  }
  // A member of a module reached through a module variable
  // (`net->fc->weight`): registered members move with the module, also to
  // a device the analysis does not know (then they are unknown too).
  if (C == DeviceCarrier::Tensor || C == DeviceCarrier::Module)
    if (const ValueDecl *Root = A.Modules.moduleRootOf(ME)) {
      Fact M = A.Env.lookup(Root, ME);
      if (M.Dev || M.Unknown || M.Params)
        return M;
    }
  // Members of other objects (stats.correct): the TU-wide summary.
  if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      FD && C != DeviceCarrier::None)
    if (std::optional<Fact> F = A.Env.memberSummary(FD))
      return *F;
  // batch.data and batch.target of a data loader's example are host
  // tensors: datasets build them on the CPU.
  if (const auto *RD = ME->getBase()
                           ->getType()
                           ->getPointeeOrArrayElementType()
                           ->getAsCXXRecordDecl();
      RD && C == DeviceCarrier::Tensor &&
      Api.is(ApiMatch::Class, qualifiedName(RD), ApiRole::HostBatchClass))
    return Fact::host();
  // Tensors of an object nothing here wrote (`tracker.state` of a class
  // whose methods are elsewhere): unknown, never host.
  if (isa<FieldDecl>(ME->getMemberDecl()) && carriesTensors(C))
    return Fact::unknown();
  return Fact{};
}

Fact Evaluator::evalConditional(const AbstractConditionalOperator *CO) {
  // The arms ran in blocks of their own; their values were recorded there
  // (the variables they read may be dead by the join).
  return chosen(CO, [&](const Expr *E) {
    std::optional<Fact> Ran = A.Env.armValue(E);
    return Ran ? *Ran : eval(E);
  });
}

Fact Evaluator::chosen(const AbstractConditionalOperator *CO,
                       llvm::function_ref<Fact(const Expr *)> Arm) {
  Branch B = A.Conditions.evalCondition(CO->getCond());
  Fact T = restrict(Arm(CO->getTrueExpr()), B.TrueReach);
  Fact F = restrict(Arm(CO->getFalseExpr()), B.FalseReach);
  Fact R = join(T, F);
  if (R.Dev && R.Host && R.Why) {
    std::string Cond = A.Conditions.atoms().describe(R.Dev);
    if (Cond.empty())
      Cond = "depending on '" + text(CO->getCond()) + "'";
    R.Why = makeStep(Step::DeviceConstant, CO->getExprLoc(), "", Cond,
                     R.Why->K == Step::DeviceConstant ? nullptr : R.Why,
                     R.Why->DeviceType);
  }
  return R;
}

Fact Evaluator::evalOperatorCall(const CXXOperatorCallExpr *OC) {
  OverloadedOperatorKind Op = OC->getOperator();
  if (Op == OO_Equal)
    return eval(OC->getArg(1));
  if (Op == OO_Subscript || Op == OO_Star || Op == OO_Arrow) {
    // Element access into a container of tensors, or an iterator.
    if (classifyType(OC->getType()) != DeviceCarrier::None)
      return eval(OC->getArg(0));
    return Fact{};
  }
  if (Op == OO_Call) {
    // A method get_method bound: `module.get_method("f")(inputs)`.
    if (const Expr *Module = A.Modules.scriptModuleOf(OC->getArg(0)))
      return A.Modules.scriptOutput(Module, OC);
    // A lambda (or a function object) of this code: its return summary, as
    // for a function. A module holder's call operator is the library's.
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    DeviceCarrier RetC = classifyType(OC->getType());
    if (MD && MD->hasBody() && RetC != DeviceCarrier::None &&
        RetC != DeviceCarrier::Pointer &&
        !Api.inNamespace(qualifiedName(MD), ApiRole::LibraryNamespace) &&
        !Api.inNamespace(qualifiedName(MD), ApiRole::StandardLibrary))
      return A.Calls.callSummary(OC, MD);
    // A std::function that holds one lambda: that lambda's summary.
    if (RetC != DeviceCarrier::None && RetC != DeviceCarrier::Pointer)
      if (const LambdaExpr *LE = Scope.lambdaOf(OC->getArg(0)))
        return A.Calls.callSummary(OC, LE->getCallOperator());
    // Any other callable but a module (a std::function whose target is not
    // known here, a function object without a body here) may return
    // anything: not its arguments' device.
    if (carriesTensors(RetC) &&
        !(MD && Api.inNamespace(qualifiedName(MD), ApiRole::LibraryNamespace)))
      return Fact::unknown();
  }
  if (classifyType(OC->getType()) == DeviceCarrier::Tensor ||
      classifyType(OC->getType()) == DeviceCarrier::Device) {
    // Tensor arithmetic keeps its operands' device.
    Fact R;
    for (const Expr *Arg : OC->arguments())
      R = join(R, eval(Arg));
    return R;
  }
  return Fact{};
}

Fact Evaluator::evalDeviceString(const Expr *Arg, SourceLocation Loc) {
  Arg = stripValue(Arg);
  if (const auto *Inner = dyn_cast<CXXConstructExpr>(Arg);
      Inner && Inner->getNumArgs() >= 1)
    Arg = stripValue(Inner->getArg(0)); // std::string("cuda:0")
  if (const auto *Lit = dyn_cast<StringLiteral>(Arg)) {
    if (Api.startsWith(ApiMatch::DeviceString, Lit->getString(),
                       ApiRole::HostDeviceString))
      return Fact::host();
    // "cuda:0" names device type CUDA, as c10 spells it, and index 0.
    auto [Type, Index] = Lit->getString().split(':');
    Fact F = Fact::device(makeStep(Step::DeviceConstant, Loc, "",
                                   "\"" + Lit->getString().str() + "\"",
                                   nullptr, Model.unit().save(Type.upper())));
    if (unsigned N; !Index.getAsInteger(10, N))
      F.Index = DeviceIndex::number(N, spelling(F, Index));
    return F;
  }
  // `Device(gpu ? "cuda:0" : "cpu")`: each string under its condition.
  if (const auto *CO = dyn_cast<ConditionalOperator>(Arg))
    return chosen(CO, [&](const Expr *E) { return evalDeviceString(E, Loc); });
  // A local string that keeps its initializer: that string.
  if (const auto *VD = dyn_cast_or_null<VarDecl>(Scope.keyOf(Arg));
      VD && VD->isLocalVarDecl() && VD->getInit() &&
      !Scope.Mutations.Mutated.contains(VD))
    return evalDeviceString(VD->getInit(), Loc);
  // A name chosen at run time (a flag, a configuration's field, a string
  // the caller passes): the program may run on an accelerator, which the
  // environment decides as it decides is_available(). Which accelerator
  // the name does not say.
  Branch B = A.Conditions.runTimeDeviceName(Arg);
  if (B.TrueReach != AllValuations) {
    Fact F;
    F.Dev = B.TrueReach;
    F.Host = B.FalseReach;
    F.Why =
        makeStep(Step::DeviceConstant, Loc, "",
                 "depending on the device name '" + text(Arg) + "'", nullptr);
    return F;
  }
  return Fact::unknown();
}

Fact Evaluator::evalConstruct(const CXXConstructExpr *CE) {
  DeviceCarrier C = classifyType(CE->getType());
  if (C == DeviceCarrier::None)
    return Fact{};
  if (C == DeviceCarrier::Device && CE->getNumArgs() >= 1) {
    // Device("cuda:0") and Device(std::string) parse a device string.
    const Expr *Arg = stripValue(CE->getArg(0));
    if (classifyType(Arg->getType()) == DeviceCarrier::None)
      return evalDeviceString(Arg, CE->getExprLoc());
  }
  // An undefined tensor is on no device: no evidence of the host, and
  // nothing in a join (`acc = acc.defined() ? acc + x : x`).
  if (CE->getNumArgs() == 0 && C == DeviceCarrier::Tensor)
    return Fact{};
  if (C == DeviceCarrier::Module)
    return Fact::host(); // a new module's parameters are on the host
  Fact R;
  for (const Expr *Arg : CE->arguments())
    if (classifyType(Arg->getType()) != DeviceCarrier::None)
      R = join(R, eval(Arg));
  // Device(type, index): the device the whole expression names.
  if (C == DeviceCarrier::Device && CE->getNumArgs() == 2 &&
      !isa<CXXDefaultArgExpr>(CE->getArg(1))) {
    Fact Indexed = withIndex(R, CE->getArg(1));
    // A bare type constant (kCUDA) is told as the device it names
    // ("cuda:1"); a type that came from elsewhere keeps its story.
    if (Indexed.Index.K != DeviceIndex::Unsaid && Indexed.Why &&
        Indexed.Why->K == Step::DeviceConstant && !Indexed.Why->Prev)
      Indexed.Why =
          makeStep(Step::DeviceConstant, CE->getExprLoc(), "",
                   Indexed.Index.Spelling, nullptr, Indexed.Why->DeviceType);
    return Indexed;
  }
  return R;
}

Fact Evaluator::withIndex(Fact F, const Expr *IndexArg) {
  if (!F.Dev)
    return F;
  const Expr *E = IndexArg->IgnoreParenCasts();
  ASTContext &Ctx = Scope.FD->getASTContext();
  Expr::EvalResult Result;
  if (!E->isValueDependent() && E->EvaluateAsInt(Result, Ctx)) {
    int64_t N = Result.Val.getInt().getSExtValue();
    F.Index = N < 0 ? DeviceIndex{}
                    : DeviceIndex::number(N, spelling(F, std::to_string(N)));
    return F;
  }
  // A variable this function does not change: a local's initializer where
  // that says more, else the variable itself.
  const ValueDecl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    D = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(E);
           ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    D = ME->getMemberDecl();
  if (!D || Scope.Mutations.Mutated.contains(D) ||
      !(isa<VarDecl>(D) || isa<FieldDecl>(D)))
    return F;
  if (const auto *VD = dyn_cast<VarDecl>(D);
      VD && VD->isLocalVarDecl() && VD->getInit())
    if (Fact Init = withIndex(F, VD->getInit());
        Init.Index.K != DeviceIndex::Unsaid)
      return Init;
  F.Index =
      DeviceIndex::variable(D->getCanonicalDecl(), spelling(F, D->getName()));
  return F;
}

llvm::StringRef Evaluator::spelling(const Fact &F, llvm::StringRef Index) {
  std::string Type = F.Why && !F.Why->DeviceType.empty()
                         ? F.Why->DeviceType.lower()
                         : std::string("cuda");
  return Model.unit().save(Type + ":" + Index.str());
}

} // namespace clang::devplace
