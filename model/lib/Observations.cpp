//===--- Observations.cpp - the facts the rules read ----------------------===//
//
// In the final pass over a function (its states at the fixpoint), each
// statement is looked at once more and what the rules need is recorded:
// host code touching memory that may not be on the host, host
// synchronisations on tensors that may be on a device, and the values that
// meet in one operation. Whether any of these is a finding is for the rules
// to say.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

void FunctionAnalyzer::observe(const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E || !Cur->Reach)
    return;
  eval(E); // the state before the statement's own writes
  observeSinks(E);
  observeHelperCall(E);
  observeSync(E);
  observeAsyncRead(E);
  observeOperation(E);
}

//--- host code touching memory ---------------------------------------------

std::string FunctionAnalyzer::tensorNameOf(const Expr *Operand,
                                           const Fact &F) const {
  for (const Step *S = F.Why; S; S = S->Prev)
    if (S->K == Step::PointsInto)
      return S->Detail.str();
  // t.data_ptr<T>() used in place names t.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(stripValue(Operand)))
    if (MC->getImplicitObjectArgument() && MC->getType()->isPointerType())
      return text(MC->getImplicitObjectArgument());
  return text(Operand);
}

void FunctionAnalyzer::access(HostAccess::Kind K, const Expr *Sink,
                              const Expr *Operand, const Fact &F,
                              llvm::StringRef Callee, const HostAccess *Inner,
                              llvm::StringRef Name) {
  // Memory proven to be on the host is no fact worth keeping.
  Mask OnDev = deviceUnder(F, Cur->Reach);
  Mask ParamsWhen = F.ParamsWhen & Cur->Reach;
  uint32_t Params = ParamsWhen ? F.Params : 0;
  if (!OnDev && !unknownUnder(F, Cur->Reach))
    return;
  if (!Accessed.insert(Sink).second)
    return;
  bool Definite = onDeviceOnEveryPath(F, Cur->Reach);
  HostAccess A{K,
               Sink,
               Operand,
               !Name.empty() ? Name.str()
               : K == HostAccess::Accessor || K == HostAccess::Helper
                   ? text(Operand)
                   : tensorNameOf(Operand, F),
               Callee.str(),
               Definite,
               F.Why,
               !OnDev};
  A.Params = Params;
  A.ParamsWhen = Params ? ParamsWhen : AllValuations;
  A.Inner = Inner;
  Out.Accesses.push_back(std::move(A));
}

void FunctionAnalyzer::observeSinks(const Expr *E) {
  auto PointerFact = [&](const Expr *Op) {
    if (!Op->getType()->isPointerType() && !Op->getType()->isArrayType())
      return Fact{};
    return eval(Op);
  };
  auto IsWrite = [&](const Expr *Access) {
    const Stmt *P =
        Out.Parents->getParentIgnoreParenImpCasts(const_cast<Expr *>(Access));
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
      return BO->isAssignmentOp() &&
             BO->getLHS()->IgnoreParenImpCasts() == Access;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
      return UO->isIncrementDecrementOp();
    return false;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref) {
    Fact F = PointerFact(UO->getSubExpr());
    access(IsWrite(UO) ? HostAccess::Write : HostAccess::Read, UO,
           UO->getSubExpr(), F, "");
    return;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Fact F = PointerFact(AS->getBase());
    access(IsWrite(AS) ? HostAccess::Write : HostAccess::Read, AS,
           AS->getBase(), F, "");
    return;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Obj && Api.tensorMethod(methodName(MC), ApiRole::HostAccessor) &&
        classifyType(Obj->getType()) == DeviceCarrier::Tensor) {
      access(HostAccess::Accessor, MC, Obj, eval(Obj), "");
      return;
    }
  }
  auto CheckArgs = [&](const Expr *Call, llvm::ArrayRef<const Expr *> Args,
                       HostAccess::Kind K, llvm::StringRef Name) {
    // A known device pointer first; an unknown one only when there is none.
    const Expr *Unknown = nullptr;
    Fact UnknownFact;
    for (const Expr *Arg : Args) {
      Fact F = PointerFact(Arg);
      if (deviceUnder(F, Cur->Reach)) {
        access(K, Call, Arg, F, Name);
        return;
      }
      if (!Unknown && unknownUnder(F, Cur->Reach)) {
        Unknown = Arg;
        UnknownFact = F;
      }
    }
    if (Unknown)
      access(K, Call, Unknown, UnknownFact, Name);
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    // rows.emplace_back(p, p + n), v.insert(v.end(), p, p + n): a standard
    // container copies [p, p + n) on the host. Only a pair of pointers is a
    // range: emplace_back(p) into a vector of pointers reads nothing.
    const CXXMethodDecl *M = MC->getMethodDecl();
    std::string Name = methodName(MC).str();
    if (M && Api.methodName(Name, ApiRole::ReadsPointerRange) &&
        Api.inNamespace(qualifiedName(M->getParent()),
                        ApiRole::StandardLibrary)) {
      llvm::SmallVector<const Expr *, 2> Pointers;
      for (const Expr *Arg : MC->arguments())
        if (Arg->IgnoreParenImpCasts()->getType()->isPointerType())
          Pointers.push_back(Arg);
      if (Pointers.size() == 2) {
        CheckArgs(MC, Pointers, HostAccess::Call, calleeName(MC));
        return;
      }
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    llvm::StringRef N = calleeName(CE);
    // A pointer into host memory where device memory is expected: only when
    // the tensor is on the host on every path here (a device chosen by
    // is_available() is the host only where no accelerator runs the call).
    if (!N.empty() && Api.callee(N, ApiRole::ExpectsDevicePointer))
      for (const Expr *Arg : CE->arguments()) {
        Fact F = PointerFact(Arg);
        if (onHostOnEveryPath(F, Cur->Reach))
          Out.HostToDevice.push_back({CE, Arg, tensorNameOf(Arg, F), N.str()});
      }
    if (!N.empty() && Api.callee(N, ApiRole::HostMemoryCall))
      CheckArgs(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                HostAccess::Call, N);
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    llvm::StringRef N = calleeName(CE);
    if (Api.classNamed(N, ApiRole::HostMemoryClass))
      CheckArgs(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                HostAccess::Construct, N);
  }
}

Fact FunctionAnalyzer::guarded(
    const Fact &F, const Expr *Call, const FunctionDecl *Def,
    const ParamSink &Sink, llvm::function_ref<const Expr *(unsigned)> ArgOf) {
  return restrict(F, callerValuations(Call, Def, Sink.When, ArgOf,
                                      F.Why ? F.Why->DeviceType : ""));
}

void FunctionAnalyzer::observeElementCalls(const CallExpr *CE) {
  // std::for_each(v.begin(), v.end(), [](const torch::Tensor &t) {…}): the
  // lambda's parameter is each element of v.
  const Expr *FnArg = stripValue(CE->getArg(CE->getNumArgs() - 1));
  const LambdaExpr *LE = lambdaOf(FnArg);
  unsigned Shift = 0;
  const FunctionDecl *Def =
      LE ? summarisable(CE, LE->getCallOperator(), Scope::MainFile, Shift)
         : nullptr;
  if (!Def)
    return;
  const FunctionFacts &Sum = Model.analyze(Def);
  auto Sink = llvm::find_if(Sum.ParamSinks,
                            [](const ParamSink &PS) { return PS.Index == 0; });
  if (Sink == Sum.ParamSinks.end())
    return;
  // The range's elements: v in v.begin(), or what the pointer points into.
  const Expr *Range = rangeOf(CE->getArg(0));
  access(HostAccess::Helper, CE, Range,
         guarded(eval(Range), CE, Def, *Sink,
                 [](unsigned) -> const Expr * { return nullptr; }),
         isa<DeclRefExpr>(FnArg) ? text(FnArg) : "the lambda", Sink->Access);
}

void FunctionAnalyzer::observeHelperCall(const Expr *E) {
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE && CE->getNumArgs() >= 3 &&
      Api.is(ApiMatch::Function, calleeName(CE), ApiRole::CallsOnElements))
    observeElementCalls(CE);
  // A call to a function of this file whose parameter reaches host code:
  // the argument's memory reaches it too.
  HelperCall H = helperCall(E, Scope::MainFile);
  if (!H.Sum)
    return;
  const CallExpr *CE = H.Call;
  const FunctionDecl *Def = H.Def;
  ArgsOf ArgOf{CE, H.First};
  // A method whose object's member reaches host code: the receiver's
  // member, when the method did not already report it on its own.
  if (const VarDecl *Obj = receiverObject(CE))
    for (auto [Field, Bit] : memberBits(Def))
      for (const ParamSink &Sink : H.Sum->ParamSinks)
        if (Sink.Index == Bit && Sink.Access->UnknownOnly)
          if (const Fact *M = Cur->Members.lookup(MemberSlot(Obj, Field))) {
            Fact F = guarded(Fact(*M), CE, Def, Sink, ArgOf);
            if (!(F.Dev & Cur->Reach))
              continue;
            access(HostAccess::Helper, CE,
                   cast<CXXMemberCallExpr>(CE)->getImplicitObjectArgument(), F,
                   calleeText(CE, Def), Sink.Access,
                   (Obj->getName() + "." + Field->getName()).str());
            return; // one access per call
          }
  for (const ParamSink &Sink : H.Sum->ParamSinks) {
    const Expr *Arg = ArgOf(Sink.Index);
    if (!Arg)
      continue;
    Fact F = guarded(eval(Arg), CE, Def, Sink, ArgOf);
    access(HostAccess::Helper, CE, Arg, F, calleeText(CE, Def), Sink.Access);
    if (F.Dev & Cur->Reach)
      return; // one access per call
  }
}

//--- host synchronisations -------------------------------------------------

void FunctionAnalyzer::observeSync(const Expr *E) {
  std::string What;
  const Expr *Tensor = syncedTensor(E, &What);
  if (!Tensor || !Synced.insert(E).second)
    return;
  Fact F = eval(Tensor);
  Mask OnDev = deviceUnder(F, Cur->Reach);
  // test(model, device, loader): on the device the caller passes in.
  std::string CallerDevice;
  for (unsigned I = 0; !OnDev && I < FD->getNumParams() && I < 32; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    DeviceCarrier C = classifyType(P->getType());
    if ((F.Params & (1u << I)) &&
        (C == DeviceCarrier::Device || C == DeviceCarrier::Options)) {
      CallerDevice = P->getName().str();
      break;
    }
  }
  if (!OnDev && CallerDevice.empty())
    return;
  Out.Syncs.push_back(HostSync{E, text(Tensor), What,
                               onDeviceOnEveryPath(F, Cur->Reach), F.Why,
                               CallerDevice});
}

//--- values that meet in one operation -------------------------------------

void FunctionAnalyzer::meet(const Expr *Where, const Expr *A, const Expr *B,
                            Meeting::Kind K) {
  Out.Meetings.push_back(
      Meeting{K, Where, A, B, text(A), text(B), eval(A), eval(B), Cur->Reach});
}

bool FunctionAnalyzer::parameterless(const Expr *Module) const {
  std::string N = moduleClassName(Module->getType());
  return !N.empty() &&
         (Api.endsWith(N, ApiRole::ParameterlessModule) ||
          Api.is(ApiMatch::ClassName, N, ApiRole::ParameterlessModule));
}

void FunctionAnalyzer::observeOperation(const Expr *E) {
  auto IsTensor = [&](const Expr *X) {
    return classifyType(X->getType()) == DeviceCarrier::Tensor;
  };
  // All tensor operands against the first one.
  auto Pairwise = [&](const Expr *Where, llvm::ArrayRef<const Expr *> Ops) {
    llvm::SmallVector<const Expr *, 4> Tensors;
    for (const Expr *Op : Ops) {
      const Expr *S = stripValue(Op);
      // A TensorList written as {a, b}: its elements.
      if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
          CE && CE->getNumArgs() == 1)
        S = stripValue(CE->getArg(0));
      if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(S))
        S = stripValue(SIL->getSubExpr());
      if (const auto *IL = dyn_cast<InitListExpr>(S)) {
        for (const Expr *Init : IL->inits())
          if (IsTensor(Init))
            Tensors.push_back(Init);
      } else if (IsTensor(Op)) {
        Tensors.push_back(Op);
      }
    }
    for (size_t I = 1; I < Tensors.size(); ++I)
      meet(Where, Tensors[0], Tensors[I], Meeting::Operands);
  };
  auto ModuleCall = [&](const Expr *Where, const Expr *Module,
                        llvm::ArrayRef<const Expr *> Args) {
    if (!parameterless(Module))
      for (const Expr *Arg : Args)
        if (IsTensor(Arg) ||
            classifyType(Arg->getType()) == DeviceCarrier::Container) {
          meet(Where, Module, Arg, Meeting::ModuleInput);
          break;
        }
    Pairwise(Where, Args);
  };

  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    switch (OC->getOperator()) {
    case OO_Plus:
    case OO_Minus:
    case OO_Star:
    case OO_Slash:
    case OO_Percent:
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_Less:
    case OO_Greater:
    case OO_LessEqual:
    case OO_GreaterEqual:
    case OO_Amp:
    case OO_Pipe:
    case OO_Caret:
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
      if (OC->getNumArgs() == 2 && IsTensor(OC->getArg(0)) &&
          IsTensor(OC->getArg(1)))
        meet(OC, OC->getArg(0), OC->getArg(1), Meeting::Operands);
      return;
    case OO_Call:
      if (classifyType(OC->getArg(0)->getType()) == DeviceCarrier::Module)
        ModuleCall(OC, OC->getArg(0),
                   llvm::ArrayRef(OC->getArgs() + 1, OC->getNumArgs() - 1));
      return;
    default:
      return;
    }
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!Obj)
      return;
    llvm::StringRef N = methodName(MC);
    llvm::ArrayRef<const Expr *> Args(MC->getArgs(), MC->getNumArgs());
    if (Api.methodName(N, ApiRole::ModuleForward)) {
      const Expr *Module = stripValue(Obj);
      if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Module);
          Arrow && Arrow->getOperator() == OO_Arrow)
        Module = stripValue(Arrow->getArg(0));
      if (classifyType(Module->getType()) == DeviceCarrier::Module)
        ModuleCall(MC, Module, Args);
      return;
    }
    if (IsTensor(Obj) && Api.tensorMethod(N, ApiRole::SameDeviceOperands))
      for (const Expr *Arg : Args)
        if (IsTensor(Arg))
          meet(MC, Obj, Arg, Meeting::Operands);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (IsTensor(CE) &&
        Api.inNamespace(calleeName(CE), ApiRole::LibraryNamespace))
      Pairwise(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
  }
}

} // namespace clang::devplace
