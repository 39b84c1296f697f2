//===--- TupleElements.cpp - pairs, tuples and structs, element by element ===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

void TupleElements::recordReturnElements(const Expr *Value) {
  if (!ReturnElementsSplit ||
      !(Scope.isTupleLike(Scope.FD->getReturnType()) ||
        Scope.splitsIntoMembers(Scope.FD->getReturnType())))
    return;
  std::optional<llvm::SmallVector<Fact, 2>> Facts = elementFacts(Value);
  if (!Facts || (!Out.ReturnElements.empty() &&
                 Out.ReturnElements.size() != Facts->size())) {
    ReturnElementsSplit = false;
    Out.ReturnElements.clear();
    return;
  }
  Out.ReturnElements.resize(Facts->size());
  for (unsigned I = 0; I < Facts->size(); ++I)
    Out.ReturnElements[I] =
        join(Out.ReturnElements[I], restrict((*Facts)[I], now().Reach));
}

std::optional<llvm::SmallVector<Fact, 2>>
TupleElements::elementFacts(const Expr *E) {
  E = stripValue(E);
  // `Stats{a, b}`: the braced list is the value.
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E);
      FC && FC->getCastKind() == CK_NoOp)
    E = stripValue(FC->getSubExpr());
  // `return std::move(s);`
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE && CE->getNumArgs() == 1 &&
      Api.is(ApiMatch::Function, Scope.calleeName(CE), ApiRole::PassesThrough))
    return elementFacts(CE->getArg(0));
  llvm::ArrayRef<const Expr *> Parts;
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE &&
      Api.is(ApiMatch::Function, Scope.calleeName(CE), ApiRole::TupleMaker)) {
    Parts = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && Scope.isTupleLike(CE->getType()) && CE->getNumArgs() >= 2) {
    Parts = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    Parts = llvm::ArrayRef(IL->getInits(), IL->getNumInits());
  } else if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // A function of this code that returns its elements separately.
    unsigned First = 0;
    const FunctionDecl *Def = Scope.summarisable(CE, CE->getDirectCallee(),
                                                 CalleeScope::NonSystem, First);
    if (!Def)
      return std::nullopt;
    const FunctionFacts &Sum = Model.analyze(Def);
    if (Sum.ReturnElements.empty())
      return std::nullopt;
    llvm::SmallVector<Fact, 2> Out;
    for (const Fact &R : Sum.ReturnElements)
      Out.push_back(A.Summaries.fromSummary(CE, Def, First, R));
    return Out;
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getConstructor() &&
             !CE->getConstructor()->isCopyOrMoveConstructor() &&
             Scope.splitsIntoMembers(CE->getType())) {
    // `History h(device)`: what the constructor leaves in each member.
    return A.Objects.constructedMembers(CE);
  } else if (const VarDecl *VD = A.Objects.memberObjectOf(E)) {
    // A local object: its members' facts here, by field index.
    llvm::SmallVector<Fact, 2> Out;
    for (const FieldDecl *Field :
         VD->getType().getNonReferenceType()->getAsCXXRecordDecl()->fields())
      if (const Fact *F = now().Members.lookup(MemberSlot(VD, Field)))
        Out.push_back(*F);
      else
        Out.push_back(Fact{});
    return Out;
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    return A.Env.elementsOf(DRE->getDecl());
  } else {
    return std::nullopt;
  }
  llvm::SmallVector<Fact, 2> Out;
  for (const Expr *P : Parts)
    Out.push_back(eval(P));
  return Out;
}

void TupleElements::bindElements(const VarDecl *VD, const Expr *Init) {
  // auto [a, b] = …: each binding takes its element.
  const auto *DD = dyn_cast<DecompositionDecl>(VD);
  if (!DD)
    return;
  bool Tuple = Scope.isTupleLike(VD->getType());
  std::optional<llvm::SmallVector<Fact, 2>> Facts;
  if (Tuple && Init)
    Facts = elementFacts(Init);
  unsigned I = 0;
  for (const BindingDecl *B : DD->bindings()) {
    Fact BF = Fact::unknown();
    if (Facts)
      BF = I < Facts->size() ? (*Facts)[I] : Fact::unknown();
    else if (Tuple && Scope.Storage.iteratesMap(VD) && I == 1)
      BF = A.Env.lookup(VD, nullptr); // a map's value
    else if (!Tuple && B->getBinding())
      BF = eval(B->getBinding()); // a struct's member, an array's element
    if (classifyType(B->getType()) != DeviceCarrier::None)
      A.Env.assign(B, BF, B->getLocation(), false, nullptr);
    ++I;
  }
}

Fact TupleElements::elementOf(const Expr *Obj, unsigned I) {
  if (std::optional<llvm::SmallVector<Fact, 2>> Facts = elementFacts(Obj))
    return I < Facts->size() ? (*Facts)[I] : Fact::unknown();
  // A map's entry: its value is one of the map's values.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripValue(Obj)))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && Scope.Storage.iteratesMap(VD) && I == 1)
      return eval(Obj);
  return Fact::unknown();
}

const Expr *TupleElements::rangeOf(const Expr *Iterator) {
  const Expr *It = stripValue(Iterator);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(It);
      MC && MC->getImplicitObjectArgument() &&
      classifyType(MC->getImplicitObjectArgument()->getType()) ==
          DeviceCarrier::Container)
    return MC->getImplicitObjectArgument(); // v.begin()
  if (const auto *CE = dyn_cast<CallExpr>(It);
      CE && CE->getNumArgs() >= 1 &&
      Api.is(ApiMatch::Function, Scope.calleeName(CE), ApiRole::OutputIterator))
    return CE->getArg(0); // std::back_inserter(v)
  return It;
}

void TupleElements::transferElementResults(const CallExpr *CE) {
  // std::transform(in.begin(), in.end(), std::back_inserter(out), fn): out
  // gets fn's result for each element of in (and of the second range of
  // the binary form).
  unsigned N = CE->getNumArgs();
  const LambdaExpr *LE = Scope.lambdaOf(CE->getArg(N - 1));
  unsigned Shift = 0;
  const FunctionDecl *Def =
      LE ? Scope.summarisable(CE, LE->getCallOperator(), CalleeScope::NonSystem,
                              Shift)
         : nullptr;
  const ValueDecl *Out = Scope.keyOf(rangeOf(CE->getArg(N - 2)));
  if (!Def || !Out || classifyType(Out->getType()) != DeviceCarrier::Container)
    return;
  Fact F = A.Summaries.fromSummary(
      CE, Def, Model.analyze(Def).Return, [&](unsigned I) -> const Expr * {
        if (I == 0)
          return rangeOf(CE->getArg(0));
        return I == 1 && N == 5 ? rangeOf(CE->getArg(2)) : nullptr;
      });
  A.Env.assign(Out, F, CE->getExprLoc(), /*Weak=*/true, nullptr);
}

} // namespace clang::devplace
