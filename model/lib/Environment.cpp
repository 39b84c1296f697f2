//===--- Environment.cpp - the state of the flow, and every change of it --===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

//--- steps -------------------------------------------------------------------

const Step *Environment::makeStep(Step::Kind K, SourceLocation Loc,
                                  llvm::StringRef Subject,
                                  llvm::StringRef Detail, const Step *Prev,
                                  llvm::StringRef DeviceType) {
  if (DeviceType.empty() && Prev)
    DeviceType = Prev->DeviceType;
  // A constant whose only role is to feed a step on the same line (the
  // kCUDA in `x.to(torch::kCUDA)`) adds nothing to the story.
  if (Prev && Prev->K == Step::DeviceConstant && Prev->Subject.empty() &&
      Prev->When.empty() && Scope.sameLine(Prev->Loc, Loc))
    Prev = Prev->Prev;
  auto *S = new (Model.unit().arena().Allocate<Step>()) Step{
      K,          Loc,  Model.unit().save(Subject), Model.unit().save(Detail),
      whenText(), Prev, Prev ? Prev->Depth + 1 : 0};
  S->DeviceType = DeviceType; // callers pass text that outlives the model
  return S;
}

llvm::StringRef Environment::whenText() {
  if (!Cur || Cur->Reach == AllValuations || !Cur->Reach)
    return "";
  return Model.unit().save(A.Conditions.atoms().describe(Cur->Reach));
}

//--- lookups -----------------------------------------------------------------

Fact Environment::lookup(const ValueDecl *Key, const Expr *Use) {
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

std::optional<Fact> Environment::memberSummary(const FieldDecl *FD) {
  std::optional<Fact> F = Model.unit().memberSummary(FD);
  if (!F)
    return F;
  F = widen(*F);
  if (const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
      RD && isNNModuleClass(RD) &&
      classifyType(FD->getType()) == DeviceCarrier::Tensor &&
      !A.Modules.staysBehind(FD))
    F->Unknown = AllValuations;
  return F;
}

std::optional<llvm::SmallVector<Fact, 2>>
Environment::elementsOf(const ValueDecl *K) const {
  auto It = Elements.find(K);
  if (It == Elements.end())
    return std::nullopt;
  return It->second;
}

std::optional<Fact> Environment::rangeValue(const VarDecl *LoopVar) const {
  auto It = RangeValues.find(LoopVar);
  if (It == RangeValues.end())
    return std::nullopt;
  return It->second;
}

std::optional<Fact> Environment::armValue(const Expr *Arm) const {
  auto It = ArmFacts.find(Arm);
  if (It == ArmFacts.end())
    return std::nullopt;
  return It->second;
}

//--- assignments -------------------------------------------------------------

bool Environment::describesDirectly(const Step *S, const Expr *E) {
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

Fact Environment::named(Fact F, llvm::StringRef Name, QualType T,
                        SourceLocation Loc, bool Weak, const Expr *Value) {
  if (!F.Dev || !F.Why)
    return F;
  if (!Weak && F.Why->Subject.empty() && describesDirectly(F.Why, Value)) {
    // Name the step that happened on this line after the variable.
    Step Renamed = *F.Why;
    Renamed.Subject = Model.unit().save(Name);
    DeviceCarrier C = classifyType(T);
    Renamed.SubjectIsDevice = C == DeviceCarrier::Device ||
                              C == DeviceCarrier::DeviceType ||
                              C == DeviceCarrier::Options;
    F.Why = new (Model.unit().arena().Allocate<Step>()) Step(Renamed);
  } else if (!(F.Why->Subject == Name && Scope.sameLine(F.Why->Loc, Loc))) {
    F.Why = makeStep(Weak ? Step::Inserted : Step::Assigned, Loc,
                     Model.unit().save(Name), "", F.Why);
  }
  return F;
}

void Environment::assign(const ValueDecl *Key, Fact F, SourceLocation Loc,
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

void Environment::assignMember(MemberSlot Slot, Fact F, SourceLocation Loc,
                               bool Weak, const Expr *Value) {
  auto [VD, Field] = Slot;
  // The hidden object of `auto [a, b] = f(x)` has no name: its bindings
  // name the steps.
  if (!VD->getName().empty())
    F = named(F, (VD->getName() + "." + Field->getName()).str(),
              Field->getType(), Loc, Weak, Value);
  if (Weak)
    if (const Fact *Old = Cur->Members.lookup(Slot))
      F = join(*Old, F);
  Cur->Members[Slot] = F;
  forgetReferencesInto(VD);
  // Code that gets the object by reference reads the member's summary.
  Model.unit().recordMember(Field, F);
}

void Environment::setMembers(
    const VarDecl *VD, const std::optional<llvm::SmallVector<Fact, 2>> &Facts,
    const Fact &Otherwise, SourceLocation Loc) {
  const CXXRecordDecl *RD =
      VD->getType().getNonReferenceType()->getAsCXXRecordDecl();
  for (const FieldDecl *Field : RD->fields())
    if (Scope.hasMemberFact(Field)) {
      unsigned I = Field->getFieldIndex();
      // A member the braces leave out keeps its default: an undefined
      // tensor, on no device.
      assignMember(MemberSlot(VD, Field),
                   Facts ? (I < Facts->size() ? (*Facts)[I] : Fact{})
                         : Otherwise,
                   Loc, false, nullptr);
    }
}

void Environment::recordOwnMember(const ValueDecl *Key, const Fact &F) {
  if (const auto *Field = dyn_cast<FieldDecl>(Key); Field && !DeferMemberWrites)
    Model.unit().recordMember(Field, F);
}

//--- containers and tuples ---------------------------------------------------

Fact Environment::elementWritten(const ValueDecl *Container, const Expr *Value,
                                 SourceLocation Loc) {
  Fact F = named(eval(Value), Container->getName(), Container->getType(), Loc,
                 /*Weak=*/true, Value);
  if (F.Dev && F.Why && F.Why->K == Step::Inserted && F.Why->Loc == Loc)
    F.Why =
        makeStep(Step::ElementAssigned, Loc, F.Why->Subject, "", F.Why->Prev);
  return F;
}

void Environment::replaceElement(const ValueDecl *Container, const Expr *Value,
                                 SourceLocation Loc) {
  Fact Written = elementWritten(Container, Value, Loc);
  Fact &C = Cur->Vals[Container];
  // A container with no fact holds nothing yet (`std::map<…> m;`): the
  // element written is all it holds.
  C = C.hasInfo() ? join(Fact::unknown(), Written) : Written;
  recordOwnMember(Container, C);
}

void Environment::addElement(const ValueDecl *Range, const Expr *Value,
                             SourceLocation Loc) {
  Fact &C = Cur->Vals[Range];
  C = join(C, elementWritten(Range, Value, Loc));
  recordOwnMember(Range, C);
}

void Environment::setElements(const ValueDecl *K, llvm::ArrayRef<Fact> Facts) {
  auto &Slot = Elements[K];
  if (Slot.size() < Facts.size())
    Slot.resize(Facts.size());
  for (unsigned I = 0; I < Facts.size(); ++I)
    Slot[I] = join(Slot[I], Facts[I]);
}

//--- pending copies ----------------------------------------------------------

void Environment::holdPending(const ValueDecl *K,
                              std::optional<PendingCopy> P) {
  if (P)
    Cur->Pending[K] = *P;
  else
    Cur->Pending.erase(K);
}

void Environment::waited(Mask Waits) {
  llvm::SmallVector<const ValueDecl *, 2> Arrived;
  for (auto &[K, P] : Cur->Pending)
    if (!(P.When &= ~Waits))
      Arrived.push_back(K);
  for (const ValueDecl *K : Arrived)
    Cur->Pending.erase(K);
}

//--- forgetting --------------------------------------------------------------

void Environment::forgetValueAt(const Expr *Place, SourceLocation Loc) {
  if (const ValueDecl *K = Scope.keyOf(Place)) {
    Cur->Vals[K] = Fact::unknown();
    forgetElements(K);
    // A reference bound to a place that is not a variable: that place too.
    if (const auto *VD = dyn_cast<VarDecl>(K);
        VD && VD->getType()->isLValueReferenceType() && VD->getInit() &&
        !Scope.Storage.isLoopVariable(VD))
      forgetValueAt(VD->getInit(), Loc);
  } else if (const ValueDecl *K = A.Modules.moduleKeyOf(Place)) {
    Cur->Vals[K] = Fact::unknown();
  } else if (const ValueDecl *K = Scope.containerOf(Place)) {
    assign(K, Fact::unknown(), Loc, /*Weak=*/true, nullptr);
  } else if (const VarDecl *Obj = enclosingObject(Place)) {
    // A part of a local object (`pair.first`, `std::get<0>(t)`, `s.loss`):
    // which part is not always told, so every part of it is unknown.
    Cur->Vals[Obj] = Fact::unknown();
    forgetElements(Obj);
    forgetMembers(Obj);
  }
}

void Environment::forgetMembers(const VarDecl *Obj) {
  if (Scope.Storage.keepsMembers(Obj))
    for (const FieldDecl *Field :
         Obj->getType().getNonReferenceType()->getAsCXXRecordDecl()->fields())
      if (Scope.hasMemberFact(Field))
        Cur->Members[MemberSlot(Obj, Field)] = Fact::unknown();
  forgetReferencesInto(Obj);
}

void Environment::forgetReferencesInto(const VarDecl *Obj) {
  for (const VarDecl *Ref : Scope.Storage.referencesInto(Obj))
    Cur->Vals[Ref] = Fact::unknown();
}

const VarDecl *Environment::enclosingObject(const Expr *Place) const {
  for (unsigned Depth = 0; Place && Depth < 8; ++Depth) {
    Place = stripValue(Place);
    if (const auto *ME = dyn_cast<MemberExpr>(Place); ME && !ME->isArrow())
      Place = ME->getBase();
    else if (const auto *CE = dyn_cast<CallExpr>(Place);
             CE && CE->getNumArgs() == 1 &&
             Api.is(ApiMatch::Function, Scope.calleeName(CE),
                    ApiRole::TupleGet))
      Place = CE->getArg(0);
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Place);
             OC && OC->getOperator() == OO_Subscript)
      Place = OC->getArg(0);
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Place))
      Place = AS->getBase();
    else if (const ValueDecl *K = Depth ? Scope.keyOf(Place) : nullptr)
      return dyn_cast<VarDecl>(K);
    else
      return nullptr;
  }
  return nullptr;
}

void Environment::forgetAddressTaken() {
  for (const ValueDecl *K : Scope.Storage.reachableByPointers()) {
    K = Scope.canonical(K);
    Cur->Vals[K] = Fact::unknown();
    forgetElements(K);
  }
}

void Environment::forgetElements(const ValueDecl *K) {
  auto It = Elements.find(K);
  if (It == Elements.end())
    return;
  // Elements are kept per function, not per point: a write that may reach
  // them makes them unknown everywhere (knowing less never reports more).
  for (Fact &F : It->second)
    F = Fact::unknown();
}

} // namespace clang::devplace
