//===--- CallResults.cpp - the device of a call's result ------------------===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

Fact CallResults::joinArgs(const CallExpr *CE, bool TensorsOnly) {
  Fact R;
  for (const Expr *Arg : CE->arguments()) {
    DeviceCarrier C = classifyType(Arg->getType());
    if (C == DeviceCarrier::None || C == DeviceCarrier::Pointer)
      continue;
    if (TensorsOnly && !carriesTensors(C))
      continue;
    R = join(R, eval(Arg));
  }
  return R;
}

Fact CallResults::deviceArg(const CallExpr *CE, const FunctionDecl *Callee,
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

Fact CallResults::evalTensorMethod(const CXXMemberCallExpr *MC,
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
      auto *Copy = new (Model.unit().arena().Allocate<Step>()) Step(*S);
      Copy->Object = Model.unit().save(text(Obj));
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
      Self.Scalar = llvm::none_of(MC->arguments(), [&](const Expr *Arg) {
        return !isa<CXXDefaultArgExpr>(Arg) &&
               !Arg->getType()->isEnumeralType() &&
               classifyType(Arg->getType()) != DeviceCarrier::Options;
      });
    else if (Api.tensorMethod(Name, ApiRole::Reshape))
      Self.Scalar = false;
    return Self;
  }
  return Fact{};
}

Fact CallResults::evalMemberCall(const CXXMemberCallExpr *MC) {
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
      // LibTorch's device(Args&&...) builds the Device from its arguments:
      // device("cuda:1") parses the string, device(kCUDA, 1) takes an index.
      const Expr *Arg = MC->getArg(0);
      Fact F = classifyType(Arg->getType()) == DeviceCarrier::None
                   ? A.Eval.evalDeviceString(Arg, MC->getExprLoc())
                   : eval(Arg);
      if (MC->getNumArgs() == 2 && !isa<CXXDefaultArgExpr>(MC->getArg(1)))
        return A.Eval.withIndex(F, MC->getArg(1));
      return F;
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
    if (const Expr *Module = A.Modules.scriptModuleOf(Obj))
      return A.Modules.scriptOutput(Module, MC);
  // A module's parameters and buffers are where the module is.
  if (Api.methodName(Name, ApiRole::ModuleTensors))
    if (const ValueDecl *K = A.Modules.moduleKeyOf(Obj))
      return A.Env.lookup(K, MC);
  // Any other method that returns a tensor (a module's forward, a holder's
  // call operator): its result follows its inputs.
  if (const FunctionDecl *Callee = MC->getMethodDecl();
      Callee && (Callee->hasBody() || Model.imported(Callee)) &&
      !Api.inNamespace(QName, ApiRole::LibraryNamespace))
    return callSummary(MC, Callee);
  // A module's own method without a body here: its result follows its
  // inputs. Any other object's method may return anything (autograd's
  // Scatter returns each chunk on another device).
  if (!Obj ||
      classifyType(objectBehind(Obj)->getType()) != DeviceCarrier::Module)
    return Fact::unknown();
  Fact R = joinArgs(MC, /*TensorsOnly=*/true);
  // It runs where the module and its inputs agree: an index the module
  // does not share is not said (the call itself is the mismatch).
  if (Fact M = eval(objectBehind(Obj)); M.Dev && R.Dev && M.Index != R.Index)
    R.Index = {};
  return R.hasInfo() ? R : Fact::unknown();
}

bool CallResults::holdsTensorsUnknown(QualType T) {
  // A class the table does not know that is made of tensors (a list type
  // of another LibTorch version): its tensors' devices are not known, and
  // a call given one is no factory.
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec)
    return false;
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
    if (Arg.getKind() == TemplateArgument::Type &&
        carriesTensors(classifyType(Arg.getAsType())))
      return true;
  return false;
}

Fact CallResults::evalCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  DeviceCarrier RetC = classifyType(CE->getType());
  if (RetC == DeviceCarrier::None)
    return Fact{};
  llvm::StringRef QName = qualifiedName(Callee);
  bool InLibrary = Api.inNamespace(QName, ApiRole::LibraryNamespace);
  if (Api.callee(QName, ApiRole::HostSanitizer))
    return Fact::host();
  if (Api.callee(QName, ApiRole::DeviceSource))
    return Fact::device(makeStep(Step::Returned, CE->getExprLoc(), "", QName,
                                 nullptr,
                                 Api.deviceType(ApiMatch::Function, QName)));
  if (Api.is(ApiMatch::Function, QName, ApiRole::PassesThrough))
    return CE->getNumArgs() == 1 ? eval(CE->getArg(0)) : Fact{};
  if (Api.is(ApiMatch::Function, QName, ApiRole::TupleGet) &&
      CE->getNumArgs() == 1 && Callee &&
      Scope.isTupleLike(CE->getArg(0)->getType())) {
    // std::get<I>(t): the index is the first template argument.
    if (const TemplateArgumentList *Args =
            Callee->getTemplateSpecializationArgs();
        Args && Args->size() >= 1 &&
        Args->get(0).getKind() == TemplateArgument::Integral)
      return A.Elements.elementOf(CE->getArg(0),
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
  // Tensor inputs whose device nothing says (a member of a result the model
  // cannot split): the result is not known, never the host.
  if (llvm::any_of(CE->arguments(), [&](const Expr *Arg) {
        return carriesTensors(classifyType(Arg->getType())) ||
               holdsTensorsUnknown(Arg->getType());
      }))
    return Fact::unknown();
  // A LibTorch function without tensor inputs or device options is a
  // factory, and factories allocate on the host by default.
  if (InLibrary) {
    Fact F = Fact::host();
    F.Scalar = ZeroDim;
    return F;
  }
  return Fact::unknown();
}

Fact CallResults::callSummary(const CallExpr *CE, const FunctionDecl *Callee) {
  unsigned First = 0;
  const FunctionDecl *Def =
      Scope.summarisable(CE, Callee, CalleeScope::NonSystem, First);
  // The code's own function whose body is elsewhere (another file, or not
  // written yet) may return anything: its result is unknown, not its
  // inputs' device (with its body here it may return a host copy).
  if (!Def && Callee && !Callee->isDefined() &&
      !Scope.SM.isInSystemHeader(Callee->getLocation()))
    return Fact::unknown();
  if (!Def) {
    Fact R = joinArgs(CE, /*TensorsOnly=*/true);
    return R.hasInfo() ? R : Fact::unknown();
  }
  return A.Summaries.fromSummary(CE, Def, First, Model.analyze(Def).Return);
}

} // namespace clang::devplace
