//===--- UnseenWrites.cpp - what a call may write that no summary says ----===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/Sequence.h"

namespace clang::devplace {

/// Parameter \p I of \p Callee is a forwarding reference (`T &&` of a
/// template parameter, `auto &&`): the callee hands its argument on.
static bool isForwardingReference(const FunctionDecl *Callee, unsigned I) {
  const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
  if (!Pattern || !Pattern->getNumParams())
    return false;
  unsigned Last = Pattern->getNumParams() - 1;
  // Arguments from a trailing pack (`Args &&...args`) bind its pattern.
  const ParmVarDecl *P = Pattern->getParamDecl(std::min(I, Last));
  if (I > Last && !P->isParameterPack())
    return false;
  QualType T = P->getType();
  if (const auto *Pack = T->getAs<PackExpansionType>())
    T = Pack->getPattern();
  const auto *RT = T->getAs<RValueReferenceType>();
  return RT && !RT->getPointeeType().isConstQualified() &&
         RT->getPointeeType()->getAs<TemplateTypeParmType>();
}

void UnseenWrites::invalidateUnseenWrites(const Expr *E, bool Summarised) {
  // A summary says what its function writes through references
  // (applyParamMoves), not through pointers.
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE)
    return;
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionProtoType *Proto = nullptr;
  if (!Callee)
    if (QualType T = CE->getCallee()->getType(); !T.isNull()) {
      if (T->isPointerType())
        T = T->getPointeeType();
      Proto = T->getAs<FunctionProtoType>();
    }
  unsigned NumParams = Callee  ? Callee->getNumParams()
                       : Proto ? Proto->getNumParams()
                               : 0;
  auto ParamType = [&](unsigned I) {
    return Callee ? Callee->getParamDecl(I)->getType() : Proto->getParamType(I);
  };
  // A parameter through which the callee may write: a non-const lvalue
  // reference or pointer. Most calls take none (values, const references)
  // and are let go before the table is asked about them.
  auto Writable = [](QualType T) {
    return (T->isLValueReferenceType() || T->isPointerType()) &&
           !T->getPointeeType().isConstQualified();
  };
  if (llvm::none_of(llvm::seq(0u, NumParams),
                    [&](unsigned I) { return Writable(ParamType(I)); }))
    return;
  llvm::StringRef Name = qualifiedName(Callee);
  // Calls whose writes the model follows, or that write nothing.
  if (Callee &&
      (Api.callee(Name, ApiRole::KeepsArgumentDevice) ||
       llvm::any_of(
           std::initializer_list<ApiRole>{
               ApiRole::PassesThrough, ApiRole::TupleGet, ApiRole::TupleMaker,
               ApiRole::TiesReferences, ApiRole::ReadsArguments,
               ApiRole::OutputIterator, ApiRole::WritesResults},
           [&](ApiRole R) { return Api.is(ApiMatch::Function, Name, R); })))
    return;
  unsigned First =
      isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(Callee)
          ? 1
          : 0;
  ArgsOf ArgOf{CE, First};
  if (Callee && Api.is(ApiMatch::Function, Name, ApiRole::SwapsArguments)) {
    // std::swap(a, b): each takes the other's value.
    const ValueDecl *Left = Scope.keyOf(ArgOf(0)),
                    *Right = Scope.keyOf(ArgOf(1));
    if (Left && Right && classifyType(Left->getType()) != DeviceCarrier::None) {
      Fact FA = A.Env.lookup(Left, ArgOf(0)),
           FB = A.Env.lookup(Right, ArgOf(1));
      A.Env.set(Left, FB);
      A.Env.set(Right, FA);
      // Elements are kept per function, not per point.
      A.Env.forgetElements(Left);
      A.Env.forgetElements(Right);
      return;
    }
  }
  if (Callee && Api.is(ApiMatch::Function, Name, ApiRole::ExchangesArgument))
    // std::exchange(a, b): a takes b's value.
    if (const ValueDecl *Target = Scope.keyOf(ArgOf(0));
        Target && ArgOf(1) &&
        classifyType(Target->getType()) != DeviceCarrier::None) {
      A.Env.assign(Target, eval(ArgOf(1)), CE->getExprLoc(), /*Weak=*/false,
                   ArgOf(1));
      A.Env.forgetElements(Target);
      return;
    }
  for (unsigned I = 0; I < NumParams; ++I) {
    QualType T = ParamType(I);
    const Expr *Arg = ArgOf(I);
    if (!Arg)
      continue;
    // `decode(raw, out)` with `void decode(const Tensor &, Tensor &out);`.
    bool ByReference = !Summarised && T->isLValueReferenceType() &&
                       Writable(T) &&
                       !(Callee && isForwardingReference(Callee, I));
    bool WritablePointer = T->isPointerType() && Writable(T);
    // `decode(raw, &out)` with `void decode(const Tensor &, Tensor *out);`.
    const auto *Address = dyn_cast<UnaryOperator>(stripValue(Arg));
    if (WritablePointer && Address && Address->getOpcode() == UO_AddrOf) {
      Arg = Address->getSubExpr();
    } else if (WritablePointer &&
               classifyType(T->getPointeeType()) != DeviceCarrier::None) {
      // A pointer from elsewhere: it may reach any value whose address
      // was taken.
      A.Env.forgetAddressTaken();
      continue;
    } else if (!ByReference) {
      continue;
    }
    if (classifyType(Arg->getType()) == DeviceCarrier::None)
      continue;
    A.Env.forgetValueAt(Arg, CE->getExprLoc());
  }
}

} // namespace clang::devplace
