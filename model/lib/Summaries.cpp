//===--- Summaries.cpp - facts across calls, members and captures ---------===//
//
// Callees are analysed on demand, bottom-up, with a recursion cut-off: a
// call's result follows the callee's return summary (in terms of its
// parameters), and a by-reference argument the callee moves takes the value
// it leaves. Class members are summarised across the translation unit (the
// join of every write), and lambdas see their captures as they were where
// the lambda was made.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalyzer.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/Sequence.h"

namespace clang::devplace {

//--- inside one function ---------------------------------------------------

const FunctionDecl *FunctionAnalyzer::summarisable(const CallExpr *CE,
                                                   const FunctionDecl *Callee,
                                                   Scope Where,
                                                   unsigned &ArgShift) const {
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isDependentContext() ||
      Model.inProgress(Def))
    return nullptr;
  if (Where == Scope::NonSystem
          ? SM.isInSystemHeader(Def->getLocation())
          : !SM.isInMainFile(SM.getExpansionLoc(Def->getLocation())))
    return nullptr;
  ArgShift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) ? 1 : 0;
  return Def;
}

bool FunctionAnalyzer::isOutParam(const ParmVarDecl *P) {
  QualType T = P->getType();
  return T->isLValueReferenceType() &&
         !T.getNonReferenceType().isConstQualified() &&
         classifyType(T) != DeviceCarrier::None;
}

Fact FunctionAnalyzer::callSummary(const CallExpr *CE,
                                   const FunctionDecl *Callee) {
  unsigned First = 0;
  const FunctionDecl *Def = summarisable(CE, Callee, Scope::NonSystem, First);
  // The code's own function whose body is elsewhere (another file, or not
  // written yet) may return anything: its result is unknown, not its
  // inputs' device (with its body here it may return a host copy).
  if (!Def && Callee && !Callee->isDefined() &&
      !SM.isInSystemHeader(Callee->getLocation()))
    return Fact::unknown();
  if (!Def) {
    Fact R = joinArgs(CE, /*TensorsOnly=*/true);
    return R.hasInfo() ? R : Fact::unknown();
  }
  return fromSummary(CE, Def, First, Model.analyze(Def).Return);
}

Fact FunctionAnalyzer::fromSummary(const CallExpr *CE, const FunctionDecl *Def,
                                   unsigned First, const Fact &Ret) {
  return fromSummary(CE, Def, Ret, ArgsOf{CE, First});
}

Mask FunctionAnalyzer::callerValuations(
    const Expr *Call, const FunctionDecl *Def, Mask CalleeWhen,
    llvm::function_ref<const Expr *(unsigned)> ArgOf,
    llvm::StringRef OnDeviceType) {
  if (CalleeWhen == AllValuations || !CalleeWhen)
    return CalleeWhen;
  // A lambda's facts mix its own atoms with the enclosing function's (its
  // captures keep their masks): they cannot be read in its atoms alone.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda())
    return AllValuations;
  // Per callee atom, the caller's valuations under which it may be true and
  // those under which it may be false.
  const std::vector<AtomOrigin> &Origins = Model.analyze(Def).AtomOrigins;
  llvm::SmallVector<std::pair<Mask, Mask>, MaxAtoms> Sides;
  for (const AtomOrigin &O : Origins) {
    Mask T = AllValuations, F = AllValuations;
    if (const Expr *Arg = O.Param >= 0 ? ArgOf(O.Param) : nullptr) {
      bool Value = false;
      if (!Arg->isValueDependent() &&
          Arg->EvaluateAsBooleanCondition(Value, Ctx)) {
        (Value ? F : T) = 0;
      } else {
        Branch B = evalCondition(Arg);
        T = B.TrueReach;
        F = B.FalseReach;
      }
    } else if (O.Shared) {
      if (int J = FunctionAtoms.find(O.Shared); J >= 0) {
        T = atomTrueMask(J);
        F = ~T;
      } else if (!OnDeviceType.empty() && O.DeviceType == OnDeviceType) {
        F = 0; // a tensor on that accelerator: it is available
      }
    } else if (O.Member && Call && onThis(Call)) {
      if (int J = FunctionAtoms.find(O.Member); J >= 0) {
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

Fact FunctionAnalyzer::fromSummary(
    const Expr *Call, const FunctionDecl *Def, const Fact &Ret,
    llvm::function_ref<const Expr *(unsigned)> ArgOf) {
  const auto *CE = dyn_cast<CallExpr>(Call);
  Fact R;
  R.Unknown = callerValuations(Call, Def, Ret.Unknown, ArgOf);
  R.Host = callerValuations(Call, Def, Ret.Host, ArgOf);
  R.Dev = callerValuations(Call, Def, Ret.Dev, ArgOf);
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
  const VarDecl *Obj = CE ? receiverObject(CE) : nullptr;
  for (auto [Field, Bit] : memberBits(Def))
    if (Ret.Params & (1u << Bit)) {
      const Fact *F =
          Obj ? Cur->Members.lookup(MemberSlot(Obj, Field)) : nullptr;
      R = join(R, F ? restrict(*F, ParamsWhen) : Fact::unknown());
    }
  return R;
}

std::string FunctionAnalyzer::calleeText(const CallExpr *CE,
                                         const FunctionDecl *Def) const {
  // A lambda is named by the variable that holds it; one written in the
  // arguments of an algorithm (std::transform) by the algorithm.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda()) {
    if (isa<CXXOperatorCallExpr>(CE))
      return text(CE->getArg(0));
    const Expr *Fn = stripValue(CE->getArg(CE->getNumArgs() - 1));
    return isa<DeclRefExpr>(Fn) ? text(Fn) : calleeName(CE).str();
  }
  return Def->getNameAsString();
}

FunctionAnalyzer::HelperCall FunctionAnalyzer::helperCall(const Expr *E,
                                                          Scope Where) {
  HelperCall H;
  H.Call = dyn_cast<CallExpr>(E);
  if (H.Call)
    H.Def = summarisable(H.Call, H.Call->getDirectCallee(), Where, H.First);
  if (H.Def && Where == Scope::NonSystem &&
      Api.inNamespace(qualifiedName(H.Def), ApiRole::LibraryNamespace))
    H.Def = nullptr;
  if (H.Def)
    H.Sum = &Model.analyze(H.Def);
  return H;
}

void FunctionAnalyzer::applyParamMoves(const HelperCall &Writer) {
  // A helper defined in the main file or in a project header: what it
  // writes is needed wherever it is defined (where its accesses are shown
  // is not).
  auto [CE, Def, Summary, First] = Writer;
  if (!Summary)
    return;
  for (const auto &[Index, Exit] : Summary->ParamOut) {
    if (Index + First >= CE->getNumArgs())
      continue;
    const ValueDecl *K = keyOf(CE->getArg(Index + First));
    if (!K)
      continue;
    Fact F = fromSummary(CE, Def, First, Exit);
    if (F.Dev)
      F.Why = makeStep(Step::MovedByCall, CE->getExprLoc(), K->getName(),
                       Def->getNameAsString(), Exit.Dev ? Exit.Why : F.Why);
    Cur->Vals[K] = F;
  }
}

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

void FunctionAnalyzer::invalidateUnseenWrites(const Expr *E, bool Summarised) {
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
    const ValueDecl *A = keyOf(ArgOf(0)), *B = keyOf(ArgOf(1));
    if (A && B && classifyType(A->getType()) != DeviceCarrier::None) {
      Fact FA = lookup(A, ArgOf(0)), FB = lookup(B, ArgOf(1));
      Cur->Vals[A] = FB;
      Cur->Vals[B] = FA;
      // Elements are kept per function, not per point.
      forgetElements(A);
      forgetElements(B);
      return;
    }
  }
  if (Callee && Api.is(ApiMatch::Function, Name, ApiRole::ExchangesArgument))
    // std::exchange(a, b): a takes b's value.
    if (const ValueDecl *A = keyOf(ArgOf(0));
        A && ArgOf(1) && classifyType(A->getType()) != DeviceCarrier::None) {
      assign(A, eval(ArgOf(1)), CE->getExprLoc(), /*Weak=*/false, ArgOf(1));
      forgetElements(A);
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
      forgetAddressTaken();
      continue;
    } else if (!ByReference) {
      continue;
    }
    if (classifyType(Arg->getType()) == DeviceCarrier::None)
      continue;
    forgetValueAt(Arg, CE->getExprLoc());
  }
}

void FunctionAnalyzer::forgetValueAt(const Expr *Place, SourceLocation Loc) {
  if (const ValueDecl *K = keyOf(Place)) {
    Cur->Vals[K] = Fact::unknown();
    forgetElements(K);
    // A reference bound to a place that is not a variable: that place too.
    if (const auto *VD = dyn_cast<VarDecl>(K);
        VD && VD->getType()->isLValueReferenceType() && VD->getInit() &&
        !Storage.isLoopVariable(VD))
      forgetValueAt(VD->getInit(), Loc);
  } else if (const ValueDecl *K = moduleKeyOf(Place)) {
    Cur->Vals[K] = Fact::unknown();
  } else if (const ValueDecl *K = containerOf(Place)) {
    assign(K, Fact::unknown(), Loc, /*Weak=*/true, nullptr);
  } else if (const VarDecl *Obj = enclosingObject(Place)) {
    // A part of a local object (`pair.first`, `std::get<0>(t)`, `s.loss`):
    // which part is not always told, so every part of it is unknown.
    Cur->Vals[Obj] = Fact::unknown();
    forgetElements(Obj);
    forgetMembers(Obj);
  }
}

void FunctionAnalyzer::forgetMembers(const VarDecl *Obj) {
  if (Storage.keepsMembers(Obj))
    for (const FieldDecl *Field :
         Obj->getType()->getAsCXXRecordDecl()->fields())
      if (hasMemberFact(Field))
        Cur->Members[MemberSlot(Obj, Field)] = Fact::unknown();
  forgetReferencesInto(Obj);
}

void FunctionAnalyzer::forgetReferencesInto(const VarDecl *Obj) {
  for (const VarDecl *Ref : Storage.referencesInto(Obj))
    Cur->Vals[Ref] = Fact::unknown();
}

const VarDecl *FunctionAnalyzer::enclosingObject(const Expr *Place) const {
  for (unsigned Depth = 0; Place && Depth < 8; ++Depth) {
    Place = stripValue(Place);
    if (const auto *ME = dyn_cast<MemberExpr>(Place); ME && !ME->isArrow())
      Place = ME->getBase();
    else if (const auto *CE = dyn_cast<CallExpr>(Place);
             CE && CE->getNumArgs() == 1 &&
             Api.is(ApiMatch::Function, calleeName(CE), ApiRole::TupleGet))
      Place = CE->getArg(0);
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Place);
             OC && OC->getOperator() == OO_Subscript)
      Place = OC->getArg(0);
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Place))
      Place = AS->getBase();
    else if (const ValueDecl *K = Depth ? keyOf(Place) : nullptr)
      return dyn_cast<VarDecl>(K);
    else
      return nullptr;
  }
  return nullptr;
}

void FunctionAnalyzer::forgetAddressTaken() {
  for (const ValueDecl *K : Storage.reachableByPointers()) {
    K = canonical(K);
    Cur->Vals[K] = Fact::unknown();
    forgetElements(K);
  }
}

bool FunctionAnalyzer::throughPointer(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(LHS))
    return UO->getOpcode() == UO_Deref;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS))
    return AS->getBase()->IgnoreParenImpCasts()->getType()->isPointerType();
  return false;
}

void FunctionAnalyzer::forgetElements(const ValueDecl *K) {
  auto It = Elements.find(K);
  if (It == Elements.end())
    return;
  // Elements are kept per function, not per point: a write that may reach
  // them makes them unknown everywhere (knowing less never reports more).
  for (Fact &F : It->second)
    F = Fact::unknown();
}

std::optional<Fact> FunctionAnalyzer::memberSummary(const FieldDecl *FD) {
  std::optional<Fact> F = Model.memberSummary(FD);
  if (!F)
    return F;
  F = widen(*F);
  if (const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
      RD && isNNModuleClass(RD) &&
      classifyType(FD->getType()) == DeviceCarrier::Tensor && !staysBehind(FD))
    F->Unknown = AllValuations;
  return F;
}

void FunctionAnalyzer::recordCaptures(const LambdaExpr *LE) {
  for (const LambdaCapture &C : LE->captures())
    if (C.capturesVariable())
      if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar());
          VD && classifyType(VD->getType()) != DeviceCarrier::None)
        Model.recordCapture(LE->getLambdaClass(), VD,
                            lookup(canonical(VD), LE));
}

//--- across the translation unit -------------------------------------------

DeviceModel::DeviceModel(ASTContext &Ctx, ApiTable Api, AnalysisOptions Opts)
    : Ctx(Ctx), Api(std::move(Api)), Opts(Opts) {}

DeviceModel::~DeviceModel() = default;

DeviceCarrier DeviceModel::classify(QualType T) {
  if (T.isNull())
    return DeviceCarrier::None;
  const Type *Key = T.getNonReferenceType().getCanonicalType().getTypePtr();
  auto It = Carriers.find(Key);
  if (It != Carriers.end())
    return It->second;
  DeviceCarrier C = classifyType(T);
  Carriers[Key] = C;
  return C;
}

llvm::StringRef DeviceModel::qualifiedName(const NamedDecl *D) {
  if (!D)
    return "";
  auto [It, New] = Names.try_emplace(D);
  if (New)
    It->second = save(clang::devplace::qualifiedName(D));
  return It->second;
}

const ModuleRegistrations &DeviceModel::registrations(const CXXRecordDecl *RD) {
  auto &Slot = Registrations[RD];
  if (!Slot)
    Slot = std::make_unique<ModuleRegistrations>(scanRegistrations(RD, Api));
  return *Slot;
}

bool DeviceModel::isBaseClass(const CXXRecordDecl *RD) {
  if (!BaseClasses) {
    // Once per translation unit, declarations only (no bodies), skipping
    // what system headers declare.
    BaseClasses.emplace();
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::SmallVector<const DeclContext *, 16> Work{
        Ctx.getTranslationUnitDecl()};
    while (!Work.empty()) {
      const DeclContext *DC = Work.pop_back_val();
      for (const Decl *D : DC->decls()) {
        if (SM.isInSystemHeader(D->getLocation()))
          continue;
        if (const auto *CT = dyn_cast<ClassTemplateDecl>(D))
          D = CT->getTemplatedDecl();
        if (const auto *C = dyn_cast<CXXRecordDecl>(D);
            C && C->isThisDeclarationADefinition())
          for (const CXXBaseSpecifier &B : C->bases())
            if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
              BaseClasses->insert(Base->getCanonicalDecl());
        if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D))
          Work.push_back(cast<DeclContext>(D));
      }
    }
  }
  return BaseClasses->contains(RD->getCanonicalDecl());
}

std::optional<Fact> DeviceModel::memberSummary(const FieldDecl *FD) const {
  auto It = FieldFacts.find(FD);
  if (It == FieldFacts.end())
    return std::nullopt;
  return It->second;
}

void DeviceModel::recordMember(const FieldDecl *FD, const Fact &F) {
  Fact &Slot = FieldFacts[FD];
  Slot = join(Slot, F);
}

void DeviceModel::recordCapture(const CXXRecordDecl *Lambda, const VarDecl *VD,
                                const Fact &F) {
  Fact &Slot = CaptureFacts[{Lambda, VD}];
  Slot = join(Slot, F);
}

AnalysisStats &analysisStats() {
  static AnalysisStats Stats;
  return Stats;
}

const FunctionFacts &DeviceModel::analyze(const FunctionDecl *FD) {
  auto &Slot = Results[FD];
  if (Slot)
    return *Slot;
  auto Result = std::make_unique<FunctionFacts>();
  InProgress[FD] = true;
  FunctionAnalyzer(*this, FD, *Result).run();
  InProgress[FD] = false;
  AnalysisStats &Stats = analysisStats();
  ++Stats.Functions;
  Stats.Blocks += Result->Blocks;
  Stats.Visits += Result->Visits;
  Stats.CutShort += !Result->Complete;
  if (Result->Blocks) {
    uint64_t Ratio = uint64_t(Result->Visits) * 100 / Result->Blocks;
    uint64_t Seen = Stats.MaxVisitsPerBlockX100;
    while (Ratio > Seen &&
           !Stats.MaxVisitsPerBlockX100.compare_exchange_weak(Seen, Ratio))
      ;
  }
  // The map may have grown while callees were analysed.
  auto &Final = Results[FD];
  Final = std::move(Result);
  return *Final;
}

void DeviceModel::trace(const FunctionDecl *FD, TraceFn Fn) {
  FunctionFacts Scratch;
  InProgress[FD] = true;
  FunctionAnalyzer(*this, FD, Scratch, Fn).run();
  InProgress[FD] = false;
}

void DeviceModel::analyzeAll(
    const std::vector<const FunctionDecl *> &Functions) {
  auto Snapshot = [&] {
    std::vector<std::pair<const FieldDecl *, std::pair<Mask, Mask>>> S;
    for (const auto &[FD, F] : FieldFacts)
      S.push_back({FD, {F.Host, F.Dev}});
    llvm::sort(S, [](const auto &A, const auto &B) {
      return std::less<const FieldDecl *>()(A.first, B.first);
    });
    return S;
  };
  for (const FunctionDecl *FD : Functions)
    analyze(FD);
  // Members may pass device values to one another (a = b in one method,
  // b = x.cuda() in another): analyse again until the member summaries stop
  // changing. Summaries only grow, so this ends; the bound keeps it short.
  for (unsigned Round = 0; Round < MaxMemberRounds; ++Round) {
    bool DeviceMembers = llvm::any_of(
        FieldFacts, [](const auto &Entry) { return Entry.second.Dev != 0; });
    if (!DeviceMembers)
      return;
    auto Before = Snapshot();
    Results.clear();
    for (const FunctionDecl *FD : Functions)
      analyze(FD);
    if (Snapshot() == Before)
      return;
  }
  MembersSettled = false;
}

} // namespace clang::devplace
