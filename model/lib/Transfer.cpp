//===--- Transfer.cpp - what statements do to the state -------------------===//
//
// Declarations, assignments (to variables, members, containers and tuples of
// references), structured bindings, module moves, container insertions and
// lambda captures.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

bool FunctionAnalyzer::describesDirectly(const Step *S, const Expr *E) {
  if (!E || !S)
    return false;
  E = stripValue(E);
  if (E->getExprLoc() == S->Loc)
    return true;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    // Device(DeviceType, index = -1) and other conversions.
    if (CE->getNumArgs() == 0)
      return false;
    for (unsigned I = 1; I < CE->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(CE->getArg(I)))
        return false;
    return describesDirectly(S, CE->getArg(0));
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!Obj)
      return false;
    DeviceCarrier C = classifyType(Obj->getType());
    if (C == DeviceCarrier::Options || C == DeviceCarrier::Device)
      for (const Expr *Arg : MC->arguments())
        if (describesDirectly(S, Arg))
          return true;
    if (C == DeviceCarrier::Tensor || C == DeviceCarrier::Options ||
        C == DeviceCarrier::Device)
      return describesDirectly(S, Obj);
  }
  return false;
}

Fact FunctionAnalyzer::named(Fact F, llvm::StringRef Name, QualType T,
                             SourceLocation Loc, bool Weak, const Expr *Value) {
  if (!F.Dev || !F.Why)
    return F;
  if (!Weak && F.Why->Subject.empty() && describesDirectly(F.Why, Value)) {
    // Name the step that happened on this line after the variable.
    Step Renamed = *F.Why;
    Renamed.Subject = Model.save(Name);
    DeviceCarrier C = classifyType(T);
    Renamed.SubjectIsDevice = C == DeviceCarrier::Device ||
                              C == DeviceCarrier::DeviceType ||
                              C == DeviceCarrier::Options;
    F.Why = new (Model.arena().Allocate<Step>()) Step(Renamed);
  } else if (!(F.Why->Subject == Name && sameLine(F.Why->Loc, Loc))) {
    F.Why = makeStep(Weak ? Step::Inserted : Step::Assigned, Loc,
                     Model.save(Name), "", F.Why);
  }
  return F;
}

void FunctionAnalyzer::assign(const ValueDecl *Key, Fact F, SourceLocation Loc,
                              bool Weak, const Expr *Value) {
  F = named(F, Key->getName(), Key->getType(), Loc, Weak, Value);
  if (Weak) {
    auto It = Cur->Vals.find(Key);
    if (It != Cur->Vals.end())
      F = join(It->second, F);
  }
  Cur->Vals[Key] = F;
  recordOwnMember(Key, F);
}

Fact FunctionAnalyzer::elementWritten(const ValueDecl *Container,
                                      const Expr *Value, SourceLocation Loc) {
  Fact F = named(eval(Value), Container->getName(), Container->getType(), Loc,
                 /*Weak=*/true, Value);
  if (F.Dev && F.Why && F.Why->K == Step::Inserted && F.Why->Loc == Loc)
    F.Why =
        makeStep(Step::ElementAssigned, Loc, F.Why->Subject, "", F.Why->Prev);
  return F;
}

void FunctionAnalyzer::replaceElement(const ValueDecl *Container,
                                      const Expr *Value, SourceLocation Loc) {
  Fact Written = elementWritten(Container, Value, Loc);
  Fact &C = Cur->Vals[Container];
  // A container with no fact holds nothing yet (`std::map<…> m;`): the
  // element written is all it holds.
  C = C.hasInfo() ? join(Fact::unknown(), Written) : Written;
  recordOwnMember(Container, C);
}

void FunctionAnalyzer::recordOwnMember(const ValueDecl *Key, const Fact &F) {
  if (const auto *Field = dyn_cast<FieldDecl>(Key); Field && !DeferMemberWrites)
    Model.recordMember(Field, F);
}

//--- tuples ----------------------------------------------------------------

void FunctionAnalyzer::recordReturnElements(const Expr *Value) {
  if (!ReturnElementsSplit || !(isTupleLike(FD->getReturnType()) ||
                                splitsIntoMembers(FD->getReturnType())))
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
        join(Out.ReturnElements[I], restrict((*Facts)[I], Cur->Reach));
}

void FunctionAnalyzer::setElements(const ValueDecl *K,
                                   llvm::ArrayRef<Fact> Facts) {
  auto &Slot = Elements[K];
  if (Slot.size() < Facts.size())
    Slot.resize(Facts.size());
  for (unsigned I = 0; I < Facts.size(); ++I)
    Slot[I] = join(Slot[I], Facts[I]);
}

std::optional<llvm::SmallVector<Fact, 2>>
FunctionAnalyzer::elementFacts(const Expr *E) {
  E = stripValue(E);
  // `Stats{a, b}`: the braced list is the value.
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E);
      FC && FC->getCastKind() == CK_NoOp)
    E = stripValue(FC->getSubExpr());
  // `return std::move(s);`
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE && CE->getNumArgs() == 1 &&
      Api.is(ApiMatch::Function, calleeName(CE), ApiRole::PassesThrough))
    return elementFacts(CE->getArg(0));
  llvm::ArrayRef<const Expr *> Parts;
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE && Api.is(ApiMatch::Function, calleeName(CE), ApiRole::TupleMaker)) {
    Parts = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && isTupleLike(CE->getType()) && CE->getNumArgs() >= 2) {
    Parts = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    Parts = llvm::ArrayRef(IL->getInits(), IL->getNumInits());
  } else if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // A function of this code that returns its elements separately.
    unsigned First = 0;
    const FunctionDecl *Def =
        summarisable(CE, CE->getDirectCallee(), Scope::NonSystem, First);
    if (!Def)
      return std::nullopt;
    const FunctionFacts &Sum = Model.analyze(Def);
    if (Sum.ReturnElements.empty())
      return std::nullopt;
    llvm::SmallVector<Fact, 2> Out;
    for (const Fact &R : Sum.ReturnElements)
      Out.push_back(fromSummary(CE, Def, First, R));
    return Out;
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getConstructor() &&
             !CE->getConstructor()->isCopyOrMoveConstructor() &&
             splitsIntoMembers(CE->getType())) {
    // `History h(device)`: what the constructor leaves in each member.
    return constructedMembers(CE);
  } else if (const VarDecl *VD = memberObjectOf(E)) {
    // A local object: its members' facts here, by field index.
    llvm::SmallVector<Fact, 2> Out;
    for (const FieldDecl *Field : VD->getType()->getAsCXXRecordDecl()->fields())
      if (const Fact *F = Cur->Members.lookup(MemberSlot(VD, Field)))
        Out.push_back(*F);
      else
        Out.push_back(Fact{});
    return Out;
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = Elements.find(DRE->getDecl());
    if (It == Elements.end())
      return std::nullopt;
    return It->second;
  } else {
    return std::nullopt;
  }
  llvm::SmallVector<Fact, 2> Out;
  for (const Expr *P : Parts)
    Out.push_back(eval(P));
  return Out;
}

void FunctionAnalyzer::bindElements(const VarDecl *VD, const Expr *Init) {
  // auto [a, b] = …: each binding takes its element.
  const auto *DD = dyn_cast<DecompositionDecl>(VD);
  if (!DD)
    return;
  bool Tuple = isTupleLike(VD->getType());
  std::optional<llvm::SmallVector<Fact, 2>> Facts;
  if (Tuple && Init)
    Facts = elementFacts(Init);
  unsigned I = 0;
  for (const BindingDecl *B : DD->bindings()) {
    Fact BF = Fact::unknown();
    if (Facts)
      BF = I < Facts->size() ? (*Facts)[I] : Fact::unknown();
    else if (Tuple && Storage.iteratesMap(VD) && I == 1)
      BF = lookup(VD, nullptr); // a map's value
    else if (!Tuple && B->getBinding())
      BF = eval(B->getBinding()); // a struct's member, an array's element
    if (classifyType(B->getType()) != DeviceCarrier::None)
      assign(B, BF, B->getLocation(), false, nullptr);
    ++I;
  }
}

Fact FunctionAnalyzer::elementOf(const Expr *Obj, unsigned I) {
  if (std::optional<llvm::SmallVector<Fact, 2>> Facts = elementFacts(Obj))
    return I < Facts->size() ? (*Facts)[I] : Fact::unknown();
  // A map's entry: its value is one of the map's values.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripValue(Obj)))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && Storage.iteratesMap(VD) && I == 1)
      return eval(Obj);
  return Fact::unknown();
}

//--- algorithms ------------------------------------------------------------

const Expr *FunctionAnalyzer::rangeOf(const Expr *Iterator) {
  const Expr *It = stripValue(Iterator);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(It);
      MC && MC->getImplicitObjectArgument() &&
      classifyType(MC->getImplicitObjectArgument()->getType()) ==
          DeviceCarrier::Container)
    return MC->getImplicitObjectArgument(); // v.begin()
  if (const auto *CE = dyn_cast<CallExpr>(It);
      CE && CE->getNumArgs() >= 1 &&
      Api.is(ApiMatch::Function, calleeName(CE), ApiRole::OutputIterator))
    return CE->getArg(0); // std::back_inserter(v)
  return It;
}

void FunctionAnalyzer::transferElementResults(const CallExpr *CE) {
  // std::transform(in.begin(), in.end(), std::back_inserter(out), fn): out
  // gets fn's result for each element of in (and of the second range of
  // the binary form).
  unsigned N = CE->getNumArgs();
  const LambdaExpr *LE = lambdaOf(CE->getArg(N - 1));
  unsigned Shift = 0;
  const FunctionDecl *Def =
      LE ? summarisable(CE, LE->getCallOperator(), Scope::NonSystem, Shift)
         : nullptr;
  const ValueDecl *Out = keyOf(rangeOf(CE->getArg(N - 2)));
  if (!Def || !Out || classifyType(Out->getType()) != DeviceCarrier::Container)
    return;
  Fact F = fromSummary(
      CE, Def, Model.analyze(Def).Return, [&](unsigned I) -> const Expr * {
        if (I == 0)
          return rangeOf(CE->getArg(0));
        return I == 1 && N == 5 ? rangeOf(CE->getArg(2)) : nullptr;
      });
  assign(Out, F, CE->getExprLoc(), /*Weak=*/true, nullptr);
}

//--- statements ------------------------------------------------------------

void FunctionAnalyzer::transferDecl(const VarDecl *VD) {
  if (Storage.keepsMembers(VD)) {
    const Expr *Init = VD->getInit();
    setMembers(VD, Init ? elementFacts(Init) : std::nullopt, VD->getLocation());
    bindElements(VD, Init);
    return;
  }
  DeviceCarrier C = classifyType(VD->getType());
  if (C == DeviceCarrier::None)
    return;
  const Expr *Init = VD->getInit();
  if (const Expr *Range = Storage.rangeOf(VD)) {
    // The range was evaluated before the loop (the variables it read may be
    // dead by now): take the value recorded there.
    auto R = RangeValues.find(VD);
    assign(VD, R != RangeValues.end() ? R->second : eval(Range),
           VD->getLocation(), false, nullptr);
    bindElements(VD, nullptr);
    return;
  }
  // A loop that replaces every element: its variable starts from the
  // range's elements, recorded here, and the range holds only what the loop
  // writes.
  if (const VarDecl *LoopVar = Storage.loopVariableOf(VD);
      LoopVar && Storage.replacesEveryElement(LoopVar) && Init)
    if (const ValueDecl *Range = keyOf(Storage.rangeOf(LoopVar));
        Range && classifyType(Range->getType()) == DeviceCarrier::Container) {
      RangeValues[LoopVar] = eval(Init);
      Cur->Vals[Range] = Fact::unknown();
    }
  // A reference to a tracked variable is that variable.
  if (VD->getType()->isReferenceType() && Init) {
    if (const ValueDecl *Target = keyOf(Init)) {
      Storage.bindReference(VD, Target);
      return;
    }
  }
  if (!Init) {
    Cur->Vals[VD] = Fact{}; // an undefined tensor is on no device
    return;
  }
  Fact F = eval(Init);
  if (const VarDecl *LoopVar = Storage.loopVariableOf(VD))
    RangeValues[LoopVar] = F;
  if (isTupleLike(VD->getType()))
    if (auto Facts = elementFacts(Init))
      setElements(VD, *Facts);
  bindElements(VD, Init);
  if (C == DeviceCarrier::Pointer && !F.hasInfo()) {
    Cur->Vals.erase(VD);
    return;
  }
  assign(VD, F, VD->getLocation(), false, Init);
}

void FunctionAnalyzer::transferInitializer(const CXXCtorInitializer *I) {
  // Member initialisers: `device_(is_available() ? kCUDA : kCPU)`. A member
  // the constructor leaves to its default constructor (no initialiser of
  // its own) gets its value later, maybe in a way not followed: no fact.
  if (I && I->getMember() && I->getInit() &&
      classifyType(I->getMember()->getType()) != DeviceCarrier::None &&
      (I->isWritten() || isa<CXXDefaultInitExpr>(I->getInit())))
    assign(I->getMember(), eval(I->getInit()), I->getMemberLocation(), false,
           I->getInit());
}

void FunctionAnalyzer::transfer(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    transferPending(DS, HelperCall());
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        transferDecl(VD);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (RS->getRetValue()) {
      Out.Return =
          join(Out.Return, restrict(eval(RS->getRetValue()), Cur->Reach));
      recordReturnElements(RS->getRetValue());
    }
    return;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return;
  Fact Value = eval(E); // cached for the enclosing expression
  if (Storage.isConditionalArm(E))
    ArmFacts[E] = Value;
  HelperCall Writer = helperCall(E, Scope::NonSystem);
  applyParamMoves(Writer);
  invalidateUnseenWrites(E, Writer.Sum != nullptr);
  transferPending(E, Writer);
  // A method of this code tells how it changes its object; other calls
  // that may change an object leave its members unknown.
  auto Updates = memberUpdates(E);
  const VarDecl *Updated =
      Updates ? receiverObject(cast<CallExpr>(E)) : nullptr;
  for (const VarDecl *VD : Storage.objectsChangedBy(E))
    if (VD != Updated)
      forgetMembers(VD);
  if (Updates)
    for (const auto &[Slot, F] : *Updates) {
      Cur->Members[Slot] = F;
      forgetReferencesInto(Slot.first);
    }

  // Writes to tracked variables.
  auto [LHS, RHS] = assignmentSides(E);
  // Tensor::operator=(Scalar) fills in place and keeps the device.
  if (isa<CXXOperatorCallExpr>(E) && RHS &&
      classifyType(RHS->getType()) == DeviceCarrier::None &&
      !splitsIntoMembers(RHS->getType()))
    return;
  if (LHS && RHS) {
    // A whole local object: `s = f(x)`, `s = other`.
    if (const VarDecl *VD = memberObjectOf(LHS)) {
      setMembers(VD, elementFacts(RHS), E->getExprLoc());
      return;
    }
    if (std::optional<MemberSlot> Slot = memberSlotOf(LHS)) {
      assignMember(*Slot, eval(RHS), E->getExprLoc(), false, RHS);
      return;
    }
    if (const auto *Tie = dyn_cast<CallExpr>(stripValue(LHS));
        Tie &&
        Api.is(ApiMatch::Function, calleeName(Tie), ApiRole::TiesReferences)) {
      for (unsigned I = 0; I < Tie->getNumArgs(); ++I)
        if (const ValueDecl *K = keyOf(Tie->getArg(I)))
          if (classifyType(K->getType()) != DeviceCarrier::None)
            assign(K, elementOf(RHS, I), E->getExprLoc(), false, nullptr);
      return;
    }
    if (isTupleLike(LHS->getType()))
      if (const ValueDecl *K = keyOf(LHS))
        if (auto Facts = elementFacts(RHS))
          setElements(K, *Facts);
    if (const auto *ME = dyn_cast<MemberExpr>(stripValue(LHS));
        ME && !keyOf(LHS) && isa<FieldDecl>(ME->getMemberDecl()) &&
        classifyType(ME->getType()) != DeviceCarrier::None) {
      Fact F = eval(RHS);
      if (F.Dev && F.Why)
        F.Why = makeStep(Step::Assigned, E->getExprLoc(), text(LHS), "", F.Why);
      Model.recordMember(cast<FieldDecl>(ME->getMemberDecl()), F);
      return;
    }
    if (throughPointer(LHS) &&
        classifyType(LHS->getType()) != DeviceCarrier::None) {
      forgetAddressTaken();
      return;
    }
    if (const ValueDecl *K = keyOf(LHS)) {
      // `auto &e = std::get<0>(pair); e = …` writes where e was bound: a
      // place the model does not name as a variable (a reference to a
      // variable is that variable), so what it may be is unknown; then e
      // holds the new value.
      Fact Value = eval(RHS);
      if (const auto *VD = dyn_cast<VarDecl>(K);
          VD && VD->getType()->isLValueReferenceType() && VD->getInit() &&
          !Storage.isLoopVariable(VD))
        forgetValueAt(VD->getInit(), E->getExprLoc());
      if (classifyType(K->getType()) != DeviceCarrier::None)
        assign(K, Value, E->getExprLoc(), false, RHS);
      // `for (auto &t : batch) t = …` writes an element of batch.
      if (const auto *VD = dyn_cast<VarDecl>(K);
          VD && VD->getType()->isLValueReferenceType() &&
          !VD->getType().getNonReferenceType().isConstQualified())
        if (const Expr *Walked = Storage.rangeOf(VD))
          if (const ValueDecl *Range = keyOf(Walked)) {
            Fact &C = Cur->Vals[Range];
            C = join(C, elementWritten(Range, RHS, E->getExprLoc()));
            recordOwnMember(Range, C);
          }
      // `auto &[a, b] = pair; a = …` writes the pair's element.
      if (const auto *B = dyn_cast<BindingDecl>(K))
        if (const auto *DD = dyn_cast_or_null<VarDecl>(B->getDecomposedDecl());
            DD && DD->getType()->isReferenceType() && DD->getInit())
          forgetValueAt(DD->getInit(), E->getExprLoc());
    } else if (const ValueDecl *K = containerOf(LHS)) {
      if (classifyType(K->getType()) == DeviceCarrier::Container)
        replaceElement(K, RHS, E->getExprLoc());
      else // `p[i] = v` writes memory that p points into: p is unchanged
        assign(K, eval(RHS), E->getExprLoc(), /*Weak=*/true, RHS);
    }
    return;
  }
  // A lambda sees its captures as they were where it was made.
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    recordCaptures(LE);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E);
      CE && CE->getNumArgs() >= 4 &&
      Api.is(ApiMatch::Function, calleeName(CE), ApiRole::WritesResults))
    transferElementResults(CE);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC)
    return;
  llvm::StringRef N = methodName(MC);
  // module->to(device) moves the module's parameters in place.
  if (Api.methodName(N, ApiRole::ModuleMove)) {
    if (const ValueDecl *K = moduleKeyOf(MC->getImplicitObjectArgument())) {
      const Expr *DevArg = nullptr;
      Fact Target = deviceArg(MC, MC->getMethodDecl(), &DevArg, false);
      if (Target.hasInfo()) {
        if (Target.Dev)
          Target.Why =
              makeStep(Step::MovedTo, MC->getExprLoc(), K->getName(),
                       DevArg ? "'" + text(DevArg) + "'" : "", Target.Why);
        Cur->Vals[K] = Target;
        recordOwnMember(K, Target);
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
    if (const ValueDecl *K = keyOf(Obj))
      assign(K, F, E->getExprLoc(), /*Weak=*/true, nullptr);
    else if (std::optional<MemberSlot> Slot = memberSlotOf(Obj))
      assignMember(*Slot, F, E->getExprLoc(), /*Weak=*/true, nullptr);
  }
}

} // namespace clang::devplace
