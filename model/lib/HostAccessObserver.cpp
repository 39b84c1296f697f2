//===--- HostAccessObserver.cpp - host code touching memory ---------------===//

#include "FunctionAnalysis.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

namespace clang::devplace {

void HostAccessObserver::observe(const Expr *E) {
  observeSinks(E);
  observeHelperCall(E);
}

std::string HostAccessObserver::tensorNameOf(const Expr *Operand,
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

const Expr *HostAccessObserver::hostMemoryOf(const Expr *Ptr) {
  if (!Ptr->getType()->isPointerType() && !Ptr->getType()->isArrayType())
    return nullptr;
  if (onHostOnEveryPath(eval(Ptr), now().Reach))
    return Ptr;
  // Through `(void *)` and the like: the memory is the same.
  const Expr *E = stripValue(Ptr->IgnoreParenCasts());
  // &buf[0], &x
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf) {
    E = stripValue(UO->getSubExpr());
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Subscript)
      E = stripValue(OC->getArg(0));
    else if (E->getType()->isArithmeticType())
      return E;
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
             MC && methodName(MC) == "data" &&
             MC->getImplicitObjectArgument()) {
    E = stripValue(MC->getImplicitObjectArgument());
  }
  QualType T = E->getType().getNonReferenceType();
  if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    return AT->getElementType()->isArithmeticType() ? E : nullptr;
  // A container of numbers that owns them: host memory, whatever holds it.
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  bool Numbers =
      Spec &&
      Api.classNamed(Model.unit().qualifiedName(RD), ApiRole::OwnsElements) &&
      Spec->getTemplateArgs().size() > 0 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
      Spec->getTemplateArgs()[0].getAsType()->isArithmeticType();
  return Numbers ? E : nullptr;
}

void HostAccessObserver::access(HostAccess::Kind K, const Expr *Sink,
                                const Expr *Operand, const Fact &F,
                                llvm::StringRef Callee, const HostAccess *Inner,
                                llvm::StringRef Name) {
  // Memory proven to be on the host is no fact worth keeping.
  Mask OnDev = deviceUnder(F, now().Reach);
  Mask ParamsWhen = F.ParamsWhen & now().Reach;
  uint32_t Params = ParamsWhen ? F.Params : 0;
  if (!OnDev && !unknownUnder(F, now().Reach))
    return;
  if (!Accessed.insert(Sink).second)
    return;
  bool Definite = onDeviceOnEveryPath(F, now().Reach);
  HostAccess Access{K,
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
  Access.Params = Params;
  Access.ParamsWhen = Params ? ParamsWhen : AllValuations;
  Access.Inner = Inner;
  Access.At = Sink->getExprLoc();
  Out.Accesses.push_back(std::move(Access));
}

void HostAccessObserver::observeSinks(const Expr *E) {
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
      if (deviceUnder(F, now().Reach)) {
        access(K, Call, Arg, F, Name);
        return;
      }
      if (!Unknown && unknownUnder(F, now().Reach)) {
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
        CheckArgs(MC, Pointers, HostAccess::Call, Scope.calleeName(MC));
        return;
      }
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    llvm::StringRef N = Scope.calleeName(CE);
    // A pointer into host memory where device memory is expected: only when
    // the tensor is on the host on every path here (a device chosen by
    // is_available() is the host only where no accelerator runs the call).
    if (!N.empty() && Api.callee(N, ApiRole::ExpectsDevicePointer))
      for (const Expr *Arg : CE->arguments()) {
        Fact F = PointerFact(Arg);
        if (onHostOnEveryPath(F, now().Reach))
          Out.HostToDevice.push_back({CE, Arg, tensorNameOf(Arg, F), N.str()});
      }
    // The same mistake made by the code itself: a tensor made over host
    // memory with options that place it on a device (`from_blob(v.data(),
    // sizes, opts.device(kCUDA))`). LibTorch takes the pointer for device
    // memory: it fails, or reads a host address as a device one.
    if (!N.empty() && Api.endsWith(N, ApiRole::WrapsPointer) &&
        CE->getNumArgs() > 0)
      if (const Expr *Ptr = CE->getArg(0);
          const Expr *Memory = hostMemoryOf(Ptr))
        if (Fact Made = eval(CE); deviceUnder(Made, now().Reach))
          Out.HostToDevice.push_back(
              {CE, Ptr,
               Memory == Ptr ? tensorNameOf(Ptr, PointerFact(Ptr))
                             : text(Memory),
               N.str(), Made.Why, onDeviceOnEveryPath(Made, now().Reach)});
    if (!N.empty() && Api.callee(N, ApiRole::HostMemoryCall))
      CheckArgs(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                HostAccess::Call, N);
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    llvm::StringRef N = Scope.calleeName(CE);
    if (Api.classNamed(N, ApiRole::HostMemoryClass))
      CheckArgs(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                HostAccess::Construct, N);
  }
}

void HostAccessObserver::observeElementCalls(const CallExpr *CE) {
  // std::for_each(v.begin(), v.end(), [](const torch::Tensor &t) {…}): the
  // lambda's parameter is each element of v.
  const Expr *FnArg = stripValue(CE->getArg(CE->getNumArgs() - 1));
  const LambdaExpr *LE = Scope.lambdaOf(FnArg);
  unsigned Shift = 0;
  const FunctionDecl *Def =
      LE ? Scope.summarisable(CE, LE->getCallOperator(), CalleeScope::MainFile,
                              Shift)
         : nullptr;
  if (!Def)
    return;
  const FunctionFacts &Sum = Model.analyze(Def);
  auto Sink = llvm::find_if(Sum.ParamSinks,
                            [](const ParamSink &PS) { return PS.Index == 0; });
  if (Sink == Sum.ParamSinks.end())
    return;
  // The range's elements: v in v.begin(), or what the pointer points into.
  const Expr *Range = A.Elements.rangeOf(CE->getArg(0));
  access(HostAccess::Helper, CE, Range,
         A.Summaries.guarded(eval(Range), CE, Def, *Sink,
                             [](unsigned) -> const Expr * { return nullptr; }),
         isa<DeclRefExpr>(FnArg) ? text(FnArg) : "the lambda", Sink->Access);
}

void HostAccessObserver::observeHelperCall(const Expr *E) {
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE && CE->getNumArgs() >= 3 &&
      Api.is(ApiMatch::Function, Scope.calleeName(CE),
             ApiRole::CallsOnElements))
    observeElementCalls(CE);
  // A call to a function of this file whose parameter reaches host code:
  // the argument's memory reaches it too.
  HelperCall H = A.Summaries.helperCall(E, CalleeScope::MainFile);
  if (!H.Sum)
    return;
  const CallExpr *CE = H.Call;
  const FunctionDecl *Def = H.Def;
  ArgsOf ArgOf{CE, H.First};
  // A method whose object's member reaches host code: the receiver's
  // member, when the method did not already report it on its own.
  if (const VarDecl *Obj = A.Objects.receiverObject(CE))
    for (auto [Field, Bit] : A.Objects.memberBits(Def))
      for (const ParamSink &Sink : H.Sum->ParamSinks)
        if (Sink.Index == Bit && Sink.Access->UnknownOnly)
          if (const Fact *M = now().Members.lookup(MemberSlot(Obj, Field))) {
            Fact F = A.Summaries.guarded(Fact(*M), CE, Def, Sink, ArgOf);
            if (!(F.Dev & now().Reach))
              continue;
            access(HostAccess::Helper, CE,
                   cast<CXXMemberCallExpr>(CE)->getImplicitObjectArgument(), F,
                   A.Summaries.calleeText(CE, Def), Sink.Access,
                   (Obj->getName() + "." + Field->getName()).str());
            return; // one access per call
          }
  for (const ParamSink &Sink : H.Sum->ParamSinks) {
    const Expr *Arg = ArgOf(Sink.Index);
    if (!Arg)
      continue;
    Fact F = A.Summaries.guarded(eval(Arg), CE, Def, Sink, ArgOf);
    access(HostAccess::Helper, CE, Arg, F, A.Summaries.calleeText(CE, Def),
           Sink.Access);
    if (F.Dev & now().Reach)
      return; // one access per call
  }
}

} // namespace clang::devplace
