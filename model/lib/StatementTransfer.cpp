//===--- StatementTransfer.cpp - what a statement does to the state -------===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

void StatementTransfer::transferDecl(const VarDecl *VD) {
  if (Scope.Storage.keepsMembers(VD)) {
    // Members the model cannot follow (the result of a function whose body
    // is elsewhere) are unknown, never host; a default-constructed object's
    // are undefined tensors, on no device.
    const Expr *Init = VD->getInit();
    const auto *Ctor =
        dyn_cast_or_null<CXXConstructExpr>(Init ? stripValue(Init) : nullptr);
    bool Defaulted = !Init || (Ctor && Ctor->getNumArgs() == 0);
    A.Env.setMembers(VD, Init ? A.Elements.elementFacts(Init) : std::nullopt,
                     Defaulted ? Fact{} : Fact::unknown(), VD->getLocation());
    A.Elements.bindElements(VD, Init);
    return;
  }
  DeviceCarrier C = classifyType(VD->getType());
  if (C == DeviceCarrier::None)
    return;
  const Expr *Init = VD->getInit();
  if (const Expr *Range = Scope.Storage.rangeOf(VD)) {
    // The range was evaluated before the loop (the variables it read may be
    // dead by now): take the value recorded there.
    std::optional<Fact> R = A.Env.rangeValue(VD);
    A.Env.assign(VD, R ? *R : eval(Range), VD->getLocation(), false, nullptr);
    A.Elements.bindElements(VD, nullptr);
    return;
  }
  // A loop that replaces every element: its variable starts from the
  // range's elements, recorded here, and the range holds only what the loop
  // writes (every iteration writes, so nothing is left of what it held;
  // without an iteration the range keeps its value).
  if (const VarDecl *LoopVar = Scope.Storage.loopVariableOf(VD);
      LoopVar && Scope.Storage.replacesEveryElement(LoopVar) && Init)
    if (const ValueDecl *Range = Scope.keyOf(Scope.Storage.rangeOf(LoopVar));
        Range && classifyType(Range->getType()) == DeviceCarrier::Container) {
      A.Env.setRangeValue(LoopVar, eval(Init));
      A.Env.set(Range, Fact{});
    }
  // A reference to a tracked variable is that variable.
  if (VD->getType()->isReferenceType() && Init) {
    if (const ValueDecl *Target = Scope.keyOf(Init)) {
      Scope.Storage.bindReference(VD, Target);
      return;
    }
  }
  if (!Init) {
    A.Env.set(VD, Fact{}); // an undefined tensor is on no device
    return;
  }
  Fact F = eval(Init);
  if (const VarDecl *LoopVar = Scope.Storage.loopVariableOf(VD))
    A.Env.setRangeValue(LoopVar, F);
  if (Scope.isTupleLike(VD->getType()))
    if (auto Facts = A.Elements.elementFacts(Init))
      A.Env.setElements(VD, *Facts);
  A.Elements.bindElements(VD, Init);
  if (C == DeviceCarrier::Pointer && !F.hasInfo()) {
    A.Env.erase(VD);
    return;
  }
  A.Env.assign(VD, F, VD->getLocation(), false, Init);
}

void StatementTransfer::transferInitializer(const CXXCtorInitializer *I) {
  // Member initialisers: `device_(is_available() ? kCUDA : kCPU)`. A member
  // the constructor leaves to its default constructor (no initialiser of
  // its own) gets its value later, maybe in a way not followed: no fact.
  if (I && I->getMember() && I->getInit() &&
      classifyType(I->getMember()->getType()) != DeviceCarrier::None &&
      (I->isWritten() || isa<CXXDefaultInitExpr>(I->getInit())))
    A.Env.assign(I->getMember(), eval(I->getInit()), I->getMemberLocation(),
                 false, I->getInit());
}

void StatementTransfer::transfer(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    A.Copies.transferPending(DS, HelperCall());
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        transferDecl(VD);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (RS->getRetValue()) {
      Out.Return =
          join(Out.Return, restrict(eval(RS->getRetValue()), now().Reach));
      A.Elements.recordReturnElements(RS->getRetValue());
    }
    return;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return;
  Fact Value = eval(E); // cached for the enclosing expression
  if (Scope.Storage.isConditionalArm(E))
    A.Env.setArmValue(E, Value);
  HelperCall Writer = A.Summaries.helperCall(E, CalleeScope::NonSystem);
  A.Summaries.applyParamMoves(Writer);
  A.Writes.invalidateUnseenWrites(E, Writer.Sum != nullptr);
  A.Copies.transferPending(E, Writer);
  // A method of this code tells how it changes its object; other calls
  // that may change an object leave its members unknown.
  auto Updates = A.Objects.memberUpdates(E);
  const VarDecl *Updated =
      Updates ? A.Objects.receiverObject(cast<CallExpr>(E)) : nullptr;
  // A helper that follows the members of its reference parameter: the
  // argument's members as the helper leaves them, the others as they were.
  llvm::SmallVector<std::pair<MemberSlot, Fact>, 4> Followed;
  if (Writer.Sum && Writer.Call)
    for (unsigned I : Writer.Sum->ParamMembersFollowed) {
      if (I + Writer.First >= Writer.Call->getNumArgs())
        continue;
      const VarDecl *VD =
          A.Objects.memberObjectOf(Writer.Call->getArg(I + Writer.First));
      if (!VD)
        continue;
      for (const FieldDecl *Field : VD->getType()
                                        .getNonReferenceType()
                                        ->getAsCXXRecordDecl()
                                        ->fields()) {
        if (!Scope.hasMemberFact(Field))
          continue;
        MemberSlot Slot(VD, Field);
        const Fact *Before = now().Members.lookup(Slot);
        Fact After = Before ? *Before : Fact{};
        for (const auto &[Index, ExitField, Exit] : Writer.Sum->ParamMemberOut)
          if (Index == I &&
              ExitField->getFieldIndex() == Field->getFieldIndex())
            After = A.Summaries.fromSummary(Writer.Call, Writer.Def,
                                            Writer.First, Exit);
        Followed.push_back({Slot, After});
      }
    }
  for (const VarDecl *VD : Scope.Storage.objectsChangedBy(E))
    if (VD != Updated)
      A.Env.forgetMembers(VD);
  for (const auto &[Slot, F] : Followed)
    A.Env.setMember(Slot, F);
  if (Updates)
    for (const auto &[Slot, F] : *Updates) {
      A.Env.setMember(Slot, F);
      A.Env.forgetReferencesInto(Slot.first);
    }

  // Writes to tracked variables.
  auto [LHS, RHS] = assignmentSides(E);
  // Tensor::operator=(Scalar) fills in place and keeps the device.
  if (isa<CXXOperatorCallExpr>(E) && RHS &&
      classifyType(RHS->getType()) == DeviceCarrier::None &&
      !Scope.splitsIntoMembers(RHS->getType()))
    return;
  if (LHS && RHS) {
    // A whole local object: `s = f(x)`, `s = other`.
    if (const VarDecl *VD = A.Objects.memberObjectOf(LHS)) {
      A.Env.setMembers(VD, A.Elements.elementFacts(RHS), Fact::unknown(),
                       E->getExprLoc());
      return;
    }
    if (std::optional<MemberSlot> Slot = A.Objects.memberSlotOf(LHS)) {
      A.Env.assignMember(*Slot, eval(RHS), E->getExprLoc(), false, RHS);
      return;
    }
    if (const auto *Tie = dyn_cast<CallExpr>(stripValue(LHS));
        Tie && Api.is(ApiMatch::Function, Scope.calleeName(Tie),
                      ApiRole::TiesReferences)) {
      for (unsigned I = 0; I < Tie->getNumArgs(); ++I)
        if (const ValueDecl *K = Scope.keyOf(Tie->getArg(I)))
          if (classifyType(K->getType()) != DeviceCarrier::None)
            A.Env.assign(K, A.Elements.elementOf(RHS, I), E->getExprLoc(),
                         false, nullptr);
      return;
    }
    if (Scope.isTupleLike(LHS->getType()))
      if (const ValueDecl *K = Scope.keyOf(LHS))
        if (auto Facts = A.Elements.elementFacts(RHS))
          A.Env.setElements(K, *Facts);
    if (const auto *ME = dyn_cast<MemberExpr>(stripValue(LHS));
        ME && !Scope.keyOf(LHS) && isa<FieldDecl>(ME->getMemberDecl()) &&
        classifyType(ME->getType()) != DeviceCarrier::None) {
      Fact F = eval(RHS);
      if (F.Dev && F.Why)
        F.Why = makeStep(Step::Assigned, E->getExprLoc(), text(LHS), "", F.Why);
      Model.unit().recordMember(cast<FieldDecl>(ME->getMemberDecl()), F);
      return;
    }
    if (Scope.throughPointer(LHS) &&
        classifyType(LHS->getType()) != DeviceCarrier::None) {
      A.Env.forgetAddressTaken();
      return;
    }
    if (const ValueDecl *K = Scope.keyOf(LHS)) {
      // `auto &e = std::get<0>(pair); e = …` writes where e was bound: a
      // place the model does not name as a variable (a reference to a
      // variable is that variable), so what it may be is unknown; then e
      // holds the new value.
      Fact Value = eval(RHS);
      if (const auto *VD = dyn_cast<VarDecl>(K);
          VD && VD->getType()->isLValueReferenceType() && VD->getInit() &&
          !Scope.Storage.isLoopVariable(VD))
        A.Env.forgetValueAt(VD->getInit(), E->getExprLoc());
      if (classifyType(K->getType()) != DeviceCarrier::None)
        A.Env.assign(K, Value, E->getExprLoc(), false, RHS);
      // `for (auto &t : batch) t = …` writes an element of batch.
      if (const auto *VD = dyn_cast<VarDecl>(K);
          VD && VD->getType()->isLValueReferenceType() &&
          !VD->getType().getNonReferenceType().isConstQualified())
        if (const Expr *Walked = Scope.Storage.rangeOf(VD))
          if (const ValueDecl *Range = Scope.keyOf(Walked)) {
            A.Env.addElement(Range, RHS, E->getExprLoc());
          }
      // `auto &[a, b] = pair; a = …` writes the pair's element.
      if (const auto *B = dyn_cast<BindingDecl>(K))
        if (const auto *DD = dyn_cast_or_null<VarDecl>(B->getDecomposedDecl());
            DD && DD->getType()->isReferenceType() && DD->getInit())
          A.Env.forgetValueAt(DD->getInit(), E->getExprLoc());
    } else if (const ValueDecl *K = Scope.containerOf(LHS)) {
      if (classifyType(K->getType()) == DeviceCarrier::Container)
        A.Env.replaceElement(K, RHS, E->getExprLoc());
      else // `p[i] = v` writes memory that p points into: p is unchanged
        A.Env.assign(K, eval(RHS), E->getExprLoc(), /*Weak=*/true, RHS);
    }
    return;
  }
  // A lambda sees its captures as they were where it was made.
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    A.Summaries.recordCaptures(LE);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE && CE->getNumArgs() >= 4 &&
      Api.is(ApiMatch::Function, Scope.calleeName(CE), ApiRole::WritesResults))
    A.Elements.transferElementResults(CE);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC)
    return;
  llvm::StringRef N = methodName(MC);
  // module->to(device) moves the module's parameters in place.
  if (Api.methodName(N, ApiRole::ModuleMove)) {
    if (const ValueDecl *K =
            A.Modules.moduleKeyOf(MC->getImplicitObjectArgument())) {
      const Expr *DevArg = nullptr;
      Fact Target = A.Calls.deviceArg(MC, MC->getMethodDecl(), &DevArg, false);
      if (Target.hasInfo()) {
        if (Target.Dev)
          Target.Why =
              makeStep(Step::MovedTo, MC->getExprLoc(), K->getName(),
                       DevArg ? "'" + text(DevArg) + "'" : "", Target.Why);
        A.Env.set(K, Target);
        A.Env.recordOwnMember(K, Target);
      }
      return;
    }
  }
  // Insertions into containers of tensors join into the container.
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (Obj && classifyType(Obj->getType()) == DeviceCarrier::Container &&
      Api.methodName(N, ApiRole::ContainerInsert)) {
    Fact F;
    for (const Expr *Arg : MC->arguments())
      if (classifyType(Arg->getType()) != DeviceCarrier::None &&
          classifyType(Arg->getType()) != DeviceCarrier::Pointer)
        F = join(F, eval(Arg));
    if (const ValueDecl *K = Scope.keyOf(Obj))
      A.Env.assign(K, F, E->getExprLoc(), /*Weak=*/true, nullptr);
    else if (std::optional<MemberSlot> Slot = A.Objects.memberSlotOf(Obj))
      A.Env.assignMember(*Slot, F, E->getExprLoc(), /*Weak=*/true, nullptr);
  }
}

} // namespace clang::devplace
