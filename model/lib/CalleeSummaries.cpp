//===--- CalleeSummaries.cpp - a callee's summary seen at its call --------===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

Fact CalleeSummaries::fromSummary(const CallExpr *CE, const FunctionDecl *Def,
                                  unsigned First, const Fact &Ret) {
  return fromSummary(CE, Def, Ret, ArgsOf{CE, First});
}

Mask CalleeSummaries::callerValuations(
    const Expr *Call, const FunctionDecl *Def, Mask CalleeWhen,
    llvm::function_ref<const Expr *(unsigned)> ArgOf,
    llvm::StringRef OnDeviceType) {
  if (CalleeWhen == AllValuations || !CalleeWhen)
    return CalleeWhen;
  // Per callee atom, the caller's valuations under which it may be true and
  // those under which it may be false.
  const std::vector<AtomOrigin> &Origins = Model.analyze(Def).AtomOrigins;
  // A lambda's captures keep the masks of the function that made it. One
  // without conditions of its own, called there, speaks in that function's
  // valuations; otherwise its masks mix two sets of atoms and say nothing.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda()) {
    const auto *Maker = dyn_cast_or_null<FunctionDecl>(
        MD->getParent()->getParentFunctionOrMethod());
    return Origins.empty() && Maker &&
                   Maker->getCanonicalDecl() == Scope.FD->getCanonicalDecl()
               ? CalleeWhen
               : AllValuations;
  }
  llvm::SmallVector<std::pair<Mask, Mask>, MaxAtoms> Sides;
  for (const AtomOrigin &O : Origins) {
    Mask T = AllValuations, F = AllValuations;
    if (const Expr *Arg = O.Param >= 0 ? ArgOf(O.Param) : nullptr) {
      bool Value = false;
      if (!Arg->isValueDependent() &&
          Arg->EvaluateAsBooleanCondition(Value, Scope.Ctx)) {
        (Value ? F : T) = 0;
      } else {
        Branch B = A.Conditions.evalCondition(Arg);
        T = B.TrueReach;
        F = B.FalseReach;
      }
    } else if (O.Shared) {
      if (int J = A.Conditions.atoms().find(O.Shared); J >= 0) {
        T = atomTrueMask(J);
        F = ~T;
      } else if (!OnDeviceType.empty() && O.DeviceType == OnDeviceType) {
        F = 0; // a tensor on that accelerator: it is available
      }
    } else if (O.Member && Call && Scope.onThis(Call)) {
      if (int J = A.Conditions.atoms().find(O.Member); J >= 0) {
        T = atomTrueMask(J);
        F = ~T;
      }
    }
    Sides.push_back({T, F});
  }
  // The callee's masks do not depend on atoms it does not have: the first
  // 2^n valuations cover them all.
  Mask R = 0;
  for (unsigned W = 0; W < (1u << Sides.size()); ++W) {
    if (!(CalleeWhen >> W & 1))
      continue;
    Mask M = AllValuations;
    for (unsigned I = 0; I < Sides.size(); ++I)
      M &= (W >> I & 1) ? Sides[I].first : Sides[I].second;
    R |= M;
  }
  return R;
}

Fact CalleeSummaries::fromSummary(
    const Expr *Call, const FunctionDecl *Def, const Fact &Ret,
    llvm::function_ref<const Expr *(unsigned)> ArgOf) {
  const auto *CE = dyn_cast<CallExpr>(Call);
  Fact R;
  R.Unknown = callerValuations(Call, Def, Ret.Unknown, ArgOf);
  R.Host = callerValuations(Call, Def, Ret.Host, ArgOf);
  R.Dev = callerValuations(Call, Def, Ret.Dev, ArgOf);
  // A number the callee gave its device is the same device here; its
  // variables are not the caller's.
  if (R.Dev && Ret.Index.K == DeviceIndex::Number)
    R.Index = Ret.Index;
  // A constructor returns nothing: its chain (inside it) is the story.
  if (R.Dev)
    R.Why = CE ? makeStep(Step::Returned, CE->getExprLoc(), "",
                          calleeText(CE, Def), Ret.Why)
               : Ret.Why;
  if (!Ret.Params)
    return R;
  Mask ParamsWhen = callerValuations(Call, Def, Ret.ParamsWhen, ArgOf);
  for (unsigned I = 0; I < 32 && I < Def->getNumParams(); ++I)
    if (Ret.Params & (1u << I))
      if (const Expr *Arg = ArgOf(I))
        R = join(R, restrict(eval(Arg), ParamsWhen));
  // A method's members: the receiver's, when it keeps them per object.
  if (Def->getNumParams() >= 32 || !(Ret.Params >> Def->getNumParams()))
    return R;
  const VarDecl *Obj = CE ? A.Objects.receiverObject(CE) : nullptr;
  for (auto [Field, Bit] : A.Objects.memberBits(Def))
    if (Ret.Params & (1u << Bit)) {
      const Fact *F =
          Obj ? now().Members.lookup(MemberSlot(Obj, Field)) : nullptr;
      R = join(R, F ? restrict(*F, ParamsWhen) : Fact::unknown());
    }
  return R;
}

Fact CalleeSummaries::guarded(
    const Fact &F, const Expr *Call, const FunctionDecl *Def,
    const ParamSink &Sink, llvm::function_ref<const Expr *(unsigned)> ArgOf) {
  return restrict(F, callerValuations(Call, Def, Sink.When, ArgOf,
                                      F.Why ? F.Why->DeviceType : ""));
}

std::string CalleeSummaries::calleeText(const CallExpr *CE,
                                        const FunctionDecl *Def) const {
  // A lambda is named by the variable that holds it; one written in the
  // arguments of an algorithm (std::transform) by the algorithm.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda()) {
    if (isa<CXXOperatorCallExpr>(CE))
      return text(CE->getArg(0));
    const Expr *Fn = stripValue(CE->getArg(CE->getNumArgs() - 1));
    return isa<DeclRefExpr>(Fn) ? text(Fn) : Scope.calleeName(CE).str();
  }
  return Def->getNameAsString();
}

HelperCall CalleeSummaries::helperCall(const Expr *E, CalleeScope Where) {
  HelperCall H;
  H.Call = dyn_cast<CallExpr>(E);
  if (H.Call)
    H.Def =
        Scope.summarisable(H.Call, H.Call->getDirectCallee(), Where, H.First);
  if (H.Def && Where == CalleeScope::NonSystem &&
      Api.inNamespace(qualifiedName(H.Def), ApiRole::LibraryNamespace))
    H.Def = nullptr;
  if (H.Def)
    H.Sum = &Model.analyze(H.Def);
  return H;
}

void CalleeSummaries::applyParamMoves(const HelperCall &Writer) {
  // A helper defined in the main file or in a project header: what it
  // writes is needed wherever it is defined (where its accesses are shown
  // is not).
  auto [CE, Def, Summary, First] = Writer;
  if (!Summary)
    return;
  for (const auto &[Index, Exit] : Summary->ParamOut) {
    if (Index + First >= CE->getNumArgs())
      continue;
    const ValueDecl *K = Scope.keyOf(CE->getArg(Index + First));
    if (!K)
      continue;
    Fact F = fromSummary(CE, Def, First, Exit);
    if (F.Dev)
      F.Why = makeStep(Step::MovedByCall, CE->getExprLoc(), K->getName(),
                       Def->getNameAsString(), Exit.Dev ? Exit.Why : F.Why);
    A.Env.set(K, F);
  }
}

void CalleeSummaries::recordCaptures(const LambdaExpr *LE) {
  for (const LambdaCapture &C : LE->captures())
    if (C.capturesVariable())
      if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar());
          VD && classifyType(VD->getType()) != DeviceCarrier::None)
        Model.unit().recordCapture(LE->getLambdaClass(), VD,
                                   A.Env.lookup(Scope.canonical(VD), LE));
}

} // namespace clang::devplace
