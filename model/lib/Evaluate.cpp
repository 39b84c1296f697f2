//===--- Evaluate.cpp - the device of an expression -----------------------===//
//
// The transfer functions over expressions: what device the value of an
// expression may be on, given the state before it. Knowledge of the API
// comes from the table (TorchApi.def); nothing here decides a finding.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

//--- helpers ---------------------------------------------------------------

bool FunctionAnalyzer::isTupleLike(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && Api.is(ApiMatch::Class, qualifiedName(RD), ApiRole::TupleClass);
}

const LambdaExpr *FunctionAnalyzer::lambdaOf(const Expr *Fn) const {
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

llvm::StringRef FunctionAnalyzer::calleeName(const Expr *Call) const {
  if (const auto *CE = dyn_cast_or_null<CallExpr>(Call))
    return qualifiedName(CE->getDirectCallee());
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Call))
    return qualifiedName(CE->getConstructor()->getParent());
  return "";
}

const Expr *FunctionAnalyzer::onlyAssignedValue(const VarDecl *VD) const {
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

const Step *FunctionAnalyzer::makeStep(Step::Kind K, SourceLocation Loc,
                                       llvm::StringRef Subject,
                                       llvm::StringRef Detail, const Step *Prev,
                                       llvm::StringRef DeviceType) {
  if (DeviceType.empty() && Prev)
    DeviceType = Prev->DeviceType;
  // A constant whose only role is to feed a step on the same line (the
  // kCUDA in `x.to(torch::kCUDA)`) adds nothing to the story.
  if (Prev && Prev->K == Step::DeviceConstant && Prev->Subject.empty() &&
      Prev->When.empty() && sameLine(Prev->Loc, Loc))
    Prev = Prev->Prev;
  auto *S = new (Model.arena().Allocate<Step>())
      Step{K,          Loc,  Model.save(Subject),       Model.save(Detail),
           whenText(), Prev, Prev ? Prev->Depth + 1 : 0};
  S->DeviceType = DeviceType; // callers pass text that outlives the model
  return S;
}

bool FunctionAnalyzer::sameLine(SourceLocation A, SourceLocation B) const {
  if (A.isInvalid() || B.isInvalid())
    return false;
  A = SM.getExpansionLoc(A);
  B = SM.getExpansionLoc(B);
  return SM.getFileID(A) == SM.getFileID(B) &&
         SM.getSpellingLineNumber(A) == SM.getSpellingLineNumber(B);
}

llvm::StringRef FunctionAnalyzer::whenText() {
  if (!Cur || Cur->Reach == AllValuations || !Cur->Reach)
    return "";
  return Model.save(FunctionAtoms.describe(Cur->Reach));
}

const ValueDecl *FunctionAnalyzer::keyOf(const Expr *E) const {
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

const ValueDecl *FunctionAnalyzer::containerOf(const Expr *E) const {
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

Fact FunctionAnalyzer::lookup(const ValueDecl *Key, const Expr *Use) {
  auto It = Cur->Vals.find(Key);
  if (It != Cur->Vals.end())
    return It->second;
  if (const auto *FD = dyn_cast<FieldDecl>(Key))
    if (std::optional<Fact> F = memberSummary(FD))
      return *F;
  if (isa<FieldDecl>(Key) ||
      (isa<VarDecl>(Key) && cast<VarDecl>(Key)->hasGlobalStorage())) {
    return Fact::unknown(makeStep(Step::UnknownOrigin,
                                  Use ? Use->getExprLoc() : Key->getLocation(),
                                  Key->getName(), "", nullptr));
  }
  return Fact{};
}

//--- expressions -----------------------------------------------------------

Fact FunctionAnalyzer::eval(const Expr *E) {
  if (!E)
    return Fact{};
  auto It = Cache.find(E);
  if (It != Cache.end())
    return It->second;
  Fact F = evalUncached(E);
  Cache[E] = F;
  return F;
}

Fact FunctionAnalyzer::evalDeviceConstant(const Expr *E, bool OnDevice,
                                          llvm::StringRef DeviceType) {
  if (!OnDevice)
    return Fact::host();
  return Fact::device(makeStep(Step::DeviceConstant, E->getExprLoc(), "",
                               "'" + text(E) + "'", nullptr, DeviceType));
}

Fact FunctionAnalyzer::evalUncached(const Expr *E) {
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
      return lookup(BD, E);
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
      return lookup(canonical(VD), E);
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
    return evalMemberCall(MC);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evalCall(CE);
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

Fact FunctionAnalyzer::evalMember(const MemberExpr *ME) {
  DeviceCarrier C = classifyType(ME->getType());
  if (isTupleLike(ME->getBase()->getType()) && C != DeviceCarrier::None) {
    llvm::StringRef N = qualifiedName(ME->getMemberDecl());
    if (Api.is(ApiMatch::Method, N, ApiRole::PairFirst))
      return elementOf(ME->getBase(), 0);
    if (Api.is(ApiMatch::Method, N, ApiRole::PairSecond))
      return elementOf(ME->getBase(), 1);
  }
  if (const ValueDecl *K = keyOf(ME))
    if (C != DeviceCarrier::None)
      return lookup(K, ME);
  // A member of a local object (`s.loss`), of a function's result
  // (`f(x).probs`) or of a braced temporary: that object's own fact.
  if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      Field && !ME->isArrow() && hasMemberFact(Field) &&
      splitsIntoMembers(ME->getBase()->getType())) {
    if (std::optional<llvm::SmallVector<Fact, 2>> Facts =
            elementFacts(ME->getBase());
        Facts && Field->getFieldIndex() < Facts->size())
      return (*Facts)[Field->getFieldIndex()];
    // The result of the code's own function whose body is elsewhere: its
    // members are what that body made, not the member's summary here.
    if (const auto *Call = dyn_cast<CallExpr>(stripValue(ME->getBase())))
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee && !Callee->isDefined() &&
          !SM.isInSystemHeader(Callee->getLocation()))
        return Fact::unknown();
  }
  // A member of a module reached through a module variable
  // (`net->fc->weight`): registered members move with the module.
  if (C == DeviceCarrier::Tensor || C == DeviceCarrier::Module)
    if (const ValueDecl *Root = moduleRootOf(ME)) {
      Fact M = lookup(Root, ME);
      if (M.Dev)
        return M;
    }
  // Members of other objects (stats.correct): the TU-wide summary.
  if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      FD && C != DeviceCarrier::None)
    if (std::optional<Fact> F = memberSummary(FD))
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
  return Fact{};
}

Fact FunctionAnalyzer::evalConditional(const AbstractConditionalOperator *CO) {
  // The arms ran in blocks of their own; their values were recorded there
  // (the variables they read may be dead by the join).
  auto Arm = [&](const Expr *A) {
    auto It = ArmFacts.find(A);
    return It != ArmFacts.end() ? It->second : eval(A);
  };
  Branch B = evalCondition(CO->getCond());
  Fact T = restrict(Arm(CO->getTrueExpr()), B.TrueReach);
  Fact F = restrict(Arm(CO->getFalseExpr()), B.FalseReach);
  Fact R = join(T, F);
  if (R.Dev && R.Host && R.Why) {
    std::string Cond = FunctionAtoms.describe(R.Dev);
    if (Cond.empty())
      Cond = "depending on '" + text(CO->getCond()) + "'";
    R.Why = makeStep(Step::DeviceConstant, CO->getExprLoc(), "", Cond,
                     R.Why->K == Step::DeviceConstant ? nullptr : R.Why,
                     R.Why->DeviceType);
  }
  return R;
}

Fact FunctionAnalyzer::evalOperatorCall(const CXXOperatorCallExpr *OC) {
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
    if (const Expr *Module = scriptModuleOf(OC->getArg(0)))
      return scriptOutput(Module, OC);
    // A lambda (or a function object) of this code: its return summary, as
    // for a function. A module holder's call operator is the library's.
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    DeviceCarrier RetC = classifyType(OC->getType());
    if (MD && MD->hasBody() && RetC != DeviceCarrier::None &&
        RetC != DeviceCarrier::Pointer &&
        !Api.inNamespace(qualifiedName(MD), ApiRole::LibraryNamespace) &&
        !Api.inNamespace(qualifiedName(MD), ApiRole::StandardLibrary))
      return callSummary(OC, MD);
    // A std::function that holds one lambda: that lambda's summary.
    if (RetC != DeviceCarrier::None && RetC != DeviceCarrier::Pointer)
      if (const LambdaExpr *LE = lambdaOf(OC->getArg(0)))
        return callSummary(OC, LE->getCallOperator());
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

Fact FunctionAnalyzer::evalConstruct(const CXXConstructExpr *CE) {
  DeviceCarrier C = classifyType(CE->getType());
  if (C == DeviceCarrier::None)
    return Fact{};
  if (C == DeviceCarrier::Device && CE->getNumArgs() >= 1) {
    // Device("cuda:0") and Device(std::string) parse a device string.
    const Expr *Arg = stripValue(CE->getArg(0));
    if (classifyType(Arg->getType()) == DeviceCarrier::None) {
      const StringLiteral *Lit = nullptr;
      if (const auto *Inner = dyn_cast<CXXConstructExpr>(Arg);
          Inner && Inner->getNumArgs() >= 1)
        Lit = dyn_cast<StringLiteral>(stripValue(Inner->getArg(0)));
      if (!Lit)
        Lit = dyn_cast<StringLiteral>(Arg);
      if (Lit) {
        if (Api.startsWith(ApiMatch::DeviceString, Lit->getString(),
                           ApiRole::HostDeviceString))
          return Fact::host();
        // "cuda:0" names device type CUDA, as c10 spells it.
        return Fact::device(
            makeStep(Step::DeviceConstant, CE->getExprLoc(), "",
                     "\"" + Lit->getString().str() + "\"", nullptr,
                     Model.save(Lit->getString().split(':').first.upper())));
      }
      return Fact::unknown();
    }
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
  return R;
}

Fact FunctionAnalyzer::joinArgs(const CallExpr *CE, bool TensorsOnly) {
  Fact R;
  for (const Expr *Arg : CE->arguments()) {
    DeviceCarrier C = classifyType(Arg->getType());
    if (C == DeviceCarrier::None || C == DeviceCarrier::Pointer)
      continue;
    if (TensorsOnly && C != DeviceCarrier::Tensor &&
        C != DeviceCarrier::IValue && C != DeviceCarrier::Container)
      continue;
    R = join(R, eval(Arg));
  }
  return R;
}

Fact FunctionAnalyzer::deviceArg(const CallExpr *CE, const FunctionDecl *Callee,
                                 const Expr **ArgOut, bool TensorTarget) {
  unsigned First = isa<CXXOperatorCallExpr>(CE) ? 1 : 0;
  for (unsigned I = First; I < CE->getNumArgs(); ++I) {
    QualType PT = Callee && I - First < Callee->getNumParams()
                      ? Callee->getParamDecl(I - First)->getType()
                      : CE->getArg(I)->getType();
    DeviceCarrier C = classifyType(PT);
    if (C != DeviceCarrier::Device && C != DeviceCarrier::DeviceType &&
        C != DeviceCarrier::Options &&
        !(TensorTarget && C == DeviceCarrier::Tensor))
      continue;
    const Expr *Arg = CE->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    Fact F = eval(Arg);
    if (!F.hasInfo())
      continue;
    if (ArgOut)
      *ArgOut = Arg;
    return F;
  }
  return Fact{};
}

Fact FunctionAnalyzer::evalTensorMethod(const CXXMemberCallExpr *MC,
                                        const Expr *Obj) {
  llvm::StringRef Name = methodName(MC);
  DeviceCarrier RetC = classifyType(MC->getType());
  Fact Self = eval(Obj);
  if (Api.tensorMethod(Name, ApiRole::MovesToHost)) {
    Fact H = Fact::host();
    H.Scalar = Self.Scalar;
    return H;
  }
  auto Moved = [&](const Step *S) {
    // `x.to(d)` passed on without a name: the note names x.
    if (S && isa<DeclRefExpr>(stripValue(Obj))) {
      auto *Copy = new (Model.arena().Allocate<Step>()) Step(*S);
      Copy->Object = Model.save(text(Obj));
      return static_cast<const Step *>(Copy);
    }
    return S;
  };
  if (Api.tensorMethod(Name, ApiRole::MovesToDevice))
    return Fact::device(Moved(makeStep(
        Step::MovedTo, MC->getExprLoc(), "", "", Self.Dev ? Self.Why : nullptr,
        Api.deviceType(ApiMatch::TensorMethod, Name))));
  if (Api.tensorMethod(Name, ApiRole::MovesToArgument) ||
      Api.tensorMethod(Name, ApiRole::MovesToDeviceOf)) {
    const Expr *DevArg = nullptr;
    Fact Target = deviceArg(MC, MC->getMethodDecl(), &DevArg, true);
    if (!Target.hasInfo())
      return Self; // .to(dtype) keeps the device
    Target.Scalar = Self.Scalar;
    if (Target.Dev)
      Target.Why =
          Moved(makeStep(Step::MovedTo, MC->getExprLoc(), "",
                         DevArg ? "'" + text(DevArg) + "'" : "", Target.Why));
    return Target;
  }
  if (Api.tensorMethod(Name, ApiRole::PointerToMemory)) {
    if (!MC->getType()->isPointerType())
      return Fact{};
    if (Self.Dev)
      Self.Why =
          makeStep(Step::PointsInto, MC->getExprLoc(), "", text(Obj), Self.Why);
    return Self;
  }
  if (RetC != DeviceCarrier::None && RetC != DeviceCarrier::Pointer) {
    // options(), device(), contiguous(), float(), sum(), …
    if (Api.tensorMethod(Name, ApiRole::Reduction))
      Self.Scalar = llvm::none_of(MC->arguments(), [&](const Expr *A) {
        return !isa<CXXDefaultArgExpr>(A) && !A->getType()->isEnumeralType() &&
               classifyType(A->getType()) != DeviceCarrier::Options;
      });
    else if (Api.tensorMethod(Name, ApiRole::Reshape))
      Self.Scalar = false;
    return Self;
  }
  return Fact{};
}

Fact FunctionAnalyzer::evalMemberCall(const CXXMemberCallExpr *MC) {
  const Expr *Obj = MC->getImplicitObjectArgument();
  DeviceCarrier ObjC = Obj ? classifyType(Obj->getType()) : DeviceCarrier::None;
  // `tuple->elements()` through IValue::toTuple()'s intrusive pointer: the
  // pointer's value.
  if (const auto *Arrow = dyn_cast_or_null<CXXOperatorCallExpr>(
          Obj ? stripValue(Obj) : nullptr);
      Arrow && Arrow->getOperator() == OO_Arrow &&
      classifyType(Arrow->getArg(0)->getType()) == DeviceCarrier::IValue) {
    Obj = Arrow->getArg(0);
    ObjC = DeviceCarrier::IValue;
  }
  DeviceCarrier RetC = classifyType(MC->getType());
  llvm::StringRef Name = methodName(MC);
  llvm::StringRef QName = qualifiedName(MC->getMethodDecl());

  if (Api.callee(QName, ApiRole::HostSanitizer))
    return Fact::host();
  if (Api.callee(QName, ApiRole::DeviceSource))
    return Fact::device(
        makeStep(Step::Returned, MC->getExprLoc(), "", QName, nullptr));
  if (ObjC == DeviceCarrier::Tensor)
    return evalTensorMethod(MC, Obj);
  if (ObjC == DeviceCarrier::Options) {
    if (Api.methodName(Name, ApiRole::DeviceOf)) {
      if (MC->getNumArgs() == 0)
        return eval(Obj);
      return eval(MC->getArg(0));
    }
    if (RetC == DeviceCarrier::Options)
      return eval(Obj);
    return Fact{};
  }
  if (ObjC == DeviceCarrier::Device) {
    if (RetC == DeviceCarrier::DeviceType || RetC == DeviceCarrier::Device)
      return eval(Obj); // d.type()
    return Fact{};
  }
  if (ObjC == DeviceCarrier::IValue) {
    if (RetC != DeviceCarrier::None)
      return eval(Obj); // toTensor(), toTensorList()
    return Fact{};
  }
  if (ObjC == DeviceCarrier::Container) {
    if (RetC != DeviceCarrier::None && RetC != DeviceCarrier::Pointer)
      return eval(Obj); // back(), front(), at(i)
    return Fact{};
  }
  if (RetC == DeviceCarrier::None || RetC == DeviceCarrier::Pointer)
    return Fact{};
  // module.forward(inputs), module.run_method("f", x), module.get_method("f").
  if (Api.methodName(Name, ApiRole::ModuleForward) ||
      Api.methodName(Name, ApiRole::ModuleMethod))
    if (const Expr *Module = scriptModuleOf(Obj))
      return scriptOutput(Module, MC);
  // A module's parameters and buffers are where the module is.
  if (Api.methodName(Name, ApiRole::ModuleTensors))
    if (const ValueDecl *K = moduleKeyOf(Obj))
      return lookup(K, MC);
  // Any other method that returns a tensor (a module's forward, a holder's
  // call operator): its result follows its inputs.
  if (const FunctionDecl *Callee = MC->getMethodDecl();
      Callee && Callee->hasBody() &&
      !Api.inNamespace(QName, ApiRole::LibraryNamespace))
    return callSummary(MC, Callee);
  Fact R = joinArgs(MC, /*TensorsOnly=*/true);
  return R.hasInfo() ? R : Fact::unknown();
}

Fact FunctionAnalyzer::evalCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  DeviceCarrier RetC = classifyType(CE->getType());
  if (RetC == DeviceCarrier::None)
    return Fact{};
  llvm::StringRef QName = qualifiedName(Callee);
  bool InLibrary = Api.inNamespace(QName, ApiRole::LibraryNamespace);
  if (Api.callee(QName, ApiRole::HostSanitizer))
    return Fact::host();
  if (Api.callee(QName, ApiRole::DeviceSource))
    return Fact::device(
        makeStep(Step::Returned, CE->getExprLoc(), "", QName, nullptr));
  if (Api.is(ApiMatch::Function, QName, ApiRole::PassesThrough))
    return CE->getNumArgs() == 1 ? eval(CE->getArg(0)) : Fact{};
  if (Api.is(ApiMatch::Function, QName, ApiRole::TupleGet) &&
      CE->getNumArgs() == 1 && Callee &&
      isTupleLike(CE->getArg(0)->getType())) {
    // std::get<I>(t): the index is the first template argument.
    if (const TemplateArgumentList *Args =
            Callee->getTemplateSpecializationArgs();
        Args && Args->size() >= 1 &&
        Args->get(0).getKind() == TemplateArgument::Integral)
      return elementOf(CE->getArg(0),
                       Args->get(0).getAsIntegral().getZExtValue());
    return Fact::unknown();
  }
  if (RetC == DeviceCarrier::Pointer)
    return Fact{};
  if (RetC == DeviceCarrier::Module &&
      (Api.is(ApiMatch::Function, QName, ApiRole::HostModuleMaker) ||
       InLibrary)) {
    // make_shared<Net>(…) builds on the host, but a copy of a module
    // (make_shared<jit::Module>(jit::load(…))) is where the module is.
    for (const Expr *Arg : CE->arguments())
      if (classifyType(Arg->getType()) == DeviceCarrier::Module)
        return eval(Arg);
    const Expr *DevArg = nullptr;
    Fact Target = deviceArg(CE, Callee, &DevArg, false);
    if (Target.Dev && DevArg)
      Target.Why = makeStep(Step::CreatedOn, CE->getExprLoc(), "",
                            "'" + text(DevArg) + "'", Target.Why);
    if (Target.hasInfo())
      return Target;
    // torch::jit::load(path, device) loads onto its device argument; without
    // one, onto the devices the module was saved from: not known.
    return Api.is(ApiMatch::Function, QName, ApiRole::HostModuleMaker)
               ? Fact::host()
               : Fact::unknown();
  }
  if (Callee && !InLibrary && !QName.empty() &&
      !Api.inNamespace(QName, ApiRole::StandardLibrary))
    return callSummary(CE, Callee);

  const Expr *DevArg = nullptr;
  Fact Target = deviceArg(CE, Callee, &DevArg, false);
  // A function returning a device or options: torch::device(d), dtype(…).
  if (RetC == DeviceCarrier::Device || RetC == DeviceCarrier::DeviceType ||
      RetC == DeviceCarrier::Options)
    return Target;

  Fact Inputs = joinArgs(CE, /*TensorsOnly=*/true);
  if (Api.endsWith(QName, ApiRole::CreatesLike) && !Target.hasInfo()) {
    if (Inputs.Dev && CE->getNumArgs() > 0)
      Inputs.Why =
          makeStep(Step::CreatedOn, CE->getExprLoc(), "",
                   "the device of '" + text(CE->getArg(0)) + "'", Inputs.Why);
    return Inputs;
  }
  // torch::tensor(0.5), torch::zeros({}): 0-dim tensors.
  bool ZeroDim = false;
  if (InLibrary && CE->getNumArgs() > 0) {
    const Expr *Shape = stripValue(CE->getArg(0));
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Shape);
        Ctor && Ctor->getNumArgs() == 1)
      Shape = stripValue(Ctor->getArg(0));
    if (const auto *IL = dyn_cast<InitListExpr>(Shape))
      ZeroDim = IL->getNumInits() == 0;
    else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Shape))
      ZeroDim = Ctor->getNumArgs() == 0 && !Ctor->isListInitialization()
                    ? false
                    : Ctor->getNumArgs() == 0;
    if (Api.endsWith(QName, ApiRole::ScalarFactory))
      ZeroDim = Shape->getType()->isArithmeticType();
  }
  if (Target.hasInfo()) {
    if (Target.Dev)
      Target.Why = makeStep(Step::CreatedOn, CE->getExprLoc(), "",
                            DevArg ? "'" + text(DevArg) + "'" : "", Target.Why);
    Target.Scalar = ZeroDim;
    return Target;
  }
  if (Inputs.hasInfo())
    return Inputs;
  // A LibTorch function without tensor inputs or device options is a
  // factory, and factories allocate on the host by default.
  if (InLibrary) {
    Fact F = Fact::host();
    F.Scalar = ZeroDim;
    return F;
  }
  return Fact::unknown();
}

} // namespace clang::devplace
