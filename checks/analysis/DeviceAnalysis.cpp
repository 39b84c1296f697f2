//===--- DeviceAnalysis.cpp - where may each tensor live? -----------------===//

#include "analysis/DeviceAnalysis.h"
#include "utils/TensorTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "llvm/ADT/BitVector.h"
#include <optional>
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

namespace clang::tidy::devplace {

Fact join(const Fact &A, const Fact &B) {
  // "No information" is the identity (so that a 0-dim operand stays 0-dim).
  if (!B.hasInfo() && !B.Scalar)
    return A;
  if (!A.hasInfo() && !A.Scalar)
    return B;
  Fact R;
  R.Scalar = A.Scalar && B.Scalar;
  R.Host = A.Host | B.Host;
  R.Dev = A.Dev | B.Dev;
  R.Params = A.Params | B.Params;
  R.Unknown = A.Unknown || B.Unknown;
  // Keep the shortest explanation of how the value may reach a device; on a
  // tie keep A's, so that a loop's fixpoint does not churn the chain.
  const Step *WA = A.Dev ? A.Why : nullptr, *WB = B.Dev ? B.Why : nullptr;
  if (!WA && !WB) {
    WA = A.Why;
    WB = B.Why;
  }
  if (WA && WB)
    R.Why = WB->Depth < WA->Depth ? WB : WA;
  else
    R.Why = WA ? WA : WB;
  return R;
}

namespace {

constexpr unsigned MaxAtoms = 6;

/// Valuations in which atom I is true: bit V of the mask is set when bit I of
/// V is set.
Mask atomTrueMask(unsigned I) {
  static const Mask Patterns[MaxAtoms] = {
      0xAAAAAAAAAAAAAAAAULL, 0xCCCCCCCCCCCCCCCCULL, 0xF0F0F0F0F0F0F0F0ULL,
      0xFF00FF00FF00FF00ULL, 0xFFFF0000FFFF0000ULL, 0xFFFFFFFF00000000ULL};
  return Patterns[I];
}

Fact restrict(Fact F, Mask Reach) {
  F.Host &= Reach;
  F.Dev &= Reach;
  return F;
}

/// The facts of the variables live at one program point, sorted by key. A
/// point has a handful of live tracked variables, and a function has
/// thousands of points: a sorted small vector is both smaller and faster
/// here than a hash map (which allocates 64 buckets for its first entry).
class VarFacts {
public:
  using Entry = std::pair<const ValueDecl *, Fact>;
  using iterator = llvm::SmallVector<Entry, 4>::iterator;
  using const_iterator = llvm::SmallVector<Entry, 4>::const_iterator;

  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }

  iterator find(const ValueDecl *K) {
    iterator It = lowerBound(K);
    return It != end() && It->first == K ? It : end();
  }
  Fact &operator[](const ValueDecl *K) {
    iterator It = lowerBound(K);
    if (It == end() || It->first != K)
      It = Entries.insert(It, Entry(K, Fact{}));
    return It->second;
  }
  void erase(const ValueDecl *K) {
    iterator It = find(K);
    if (It != end())
      Entries.erase(It);
  }
  /// Keeps the entries \p Keep accepts.
  template <typename Pred> void retain(Pred Keep) {
    llvm::erase_if(Entries, [&](const Entry &E) { return !Keep(E.first); });
  }

private:
  iterator lowerBound(const ValueDecl *K) {
    return llvm::lower_bound(Entries, K, [](const Entry &E, const ValueDecl *Key) {
      return std::less<const ValueDecl *>()(E.first, Key);
    });
  }
  llvm::SmallVector<Entry, 4> Entries;
};

/// The abstract state at one program point.
struct State {
  Mask Reach = 0; ///< valuations that reach this point; 0 = unreachable
  VarFacts Vals;
};

/// Joins \p In into \p Into; returns true when \p Into changed.
bool joinInto(State &Into, const State &In) {
  if (!In.Reach)
    return false;
  bool Changed = (Into.Reach | In.Reach) != Into.Reach;
  Mask OldReach = Into.Reach;
  Into.Reach |= In.Reach;
  for (const auto &[Key, F] : In.Vals) {
    Fact Incoming = restrict(F, In.Reach);
    auto It = Into.Vals.find(Key);
    if (It == Into.Vals.end()) {
      Into.Vals[Key] = Incoming;
      Changed = true;
      continue;
    }
    Fact J = join(restrict(It->second, OldReach), Incoming);
    if (!J.sameAs(It->second))
      Changed = true;
    It->second = J;
  }
  return Changed;
}

/// What a branch condition tells about each side.
struct Branch {
  Mask TrueReach = AllValuations, FalseReach = AllValuations;
  const ValueDecl *Var = nullptr; ///< a value whose device the test reveals
  bool VarOnDeviceWhenTrue = true;
};

StringRef methodName(const CXXMemberCallExpr *MC) {
  if (const auto *MD = MC->getMethodDecl())
    if (MD->getIdentifier())
      return MD->getName();
  return "";
}

const Expr *strip(const Expr *E) { return stripValue(E); }


bool inTorchNamespace(StringRef QName) {
  return QName.starts_with("at::") || QName.starts_with("torch::") ||
         QName.starts_with("c10::");
}

bool isCudaAvailableCall(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(strip(E));
  if (!CE)
    return false;
  std::string N = calleeName(CE);
  return N == "torch::cuda::is_available" || N == "at::cuda::is_available" ||
         N == "at::hasCUDA" || N == "at::Context::hasCUDA" ||
         N == "torch::cuda::cudnn_is_available";
}

/// Collects the variables and fields a function writes, so that a boolean
/// flag is taken as a stable condition only when it is not reassigned.
class MutationScanner : public RecursiveASTVisitor<MutationScanner> {
public:
  llvm::DenseSet<const ValueDecl *> Mutated;
  void note(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      Mutated.insert(DRE->getDecl());
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      Mutated.insert(ME->getMemberDecl());
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      note(UO->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // A flag passed by non-const reference may be changed by the callee.
    const FunctionDecl *FD = CE->getDirectCallee();
    for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
      const Expr *Arg = CE->getArg(I);
      if (!Arg->getType()->isBooleanType())
        continue;
      if (!FD || I >= FD->getNumParams()) {
        note(Arg);
        continue;
      }
      QualType PT = FD->getParamDecl(I)->getType();
      if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
        note(Arg);
    }
    return true;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// FunctionAnalyzer: one run of the worklist over one function's CFG.
//===----------------------------------------------------------------------===//

class FunctionAnalyzer {
public:
  FunctionAnalyzer(DeviceAnalysis &DA, const FunctionDecl *FD,
                   FunctionResult &Out)
      : DA(DA), Ctx(DA.Ctx), SM(Ctx.getSourceManager()), FD(FD), Out(Out) {}

  void run();

private:
  DeviceAnalysis &DA;
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl *FD;
  FunctionResult &Out;

  std::unique_ptr<CFG> Graph;
  std::unique_ptr<ParentMap> Parents;
  // Which tracked locals a later statement may still read, per block exit:
  // the states drop the others, so that a long function does not copy every
  // variable it ever declared into every block's state.
  llvm::DenseMap<const VarDecl *, unsigned> LocalIndex;
  std::vector<llvm::BitVector> LiveOut;
  void computeLiveness();
  bool liveAfter(const CFGBlock *B, const VarDecl *VD) const {
    auto It = LocalIndex.find(VD);
    return It == LocalIndex.end() || LiveOut[B->getBlockID()].test(It->second);
  }
  MutationScanner Mutations;
  llvm::DenseMap<const VarDecl *, const Expr *> RangeForInits;
  // The hidden __range variable of each range-for, to its loop variable, and
  // the range's value where it was evaluated.
  llvm::DenseMap<const VarDecl *, const VarDecl *> RangeLoopVars;
  llvm::DenseMap<const VarDecl *, Fact> RangeValues;
  // std::pair / std::tuple variables: one fact per element (joined over the
  // function), so that a (device, host) pair keeps its host element host.
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<Fact, 2>> Elements;
  // Loop variables that iterate a map: `.second` is one of its values.
  llvm::DenseSet<const VarDecl *> MapEntries;

  static bool isTupleLike(QualType T) {
    const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    if (!RD)
      return false;
    std::string N = qualifiedName(RD);
    return N == "std::pair" || N == "std::tuple";
  }
  /// The element facts of a tuple-like expression, when they are known.
  std::optional<llvm::SmallVector<Fact, 2>> elementFacts(const Expr *E);
  /// Element \p I of the tuple-like value \p Obj; unknown (silent) when the
  /// elements cannot be told apart.
  Fact elementOf(const Expr *Obj, unsigned I);
  void bindElements(const VarDecl *VD, const Expr *Init);
  void setElements(const ValueDecl *K, llvm::ArrayRef<Fact> Facts) {
    auto &Slot = Elements[K];
    if (Slot.size() < Facts.size())
      Slot.resize(Facts.size());
    for (unsigned I = 0; I < Facts.size(); ++I)
      Slot[I] = join(Slot[I], Facts[I]);
  }
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> Aliases;
  llvm::DenseSet<const ValueDecl *> AliasTargets;
  // Arms of conditional operators, and their values where they ran.
  llvm::DenseSet<const Expr *> Arms;
  llvm::DenseMap<const Expr *, Fact> ArmFacts;

  // Conditions that decide devices, up to MaxAtoms.
  llvm::SmallVector<const void *, MaxAtoms> AtomKeys;
  llvm::SmallVector<std::string, MaxAtoms> AtomTexts;

  State *Cur = nullptr;
  llvm::DenseMap<const Expr *, Fact> Cache; // per block visit
  bool Reporting = false;
  llvm::DenseSet<const Expr *> Reported;

  //--- helpers -------------------------------------------------------------
  // Hides the free function: member code classifies through the memo.
  DeviceCarrier classifyType(QualType T) { return DA.classify(T); }

  const Step *makeStep(Step::Kind K, SourceLocation Loc, StringRef Subject,
                       StringRef Detail, const Step *Prev) {
    // A constant whose only role is to feed a step on the same line (the
    // kCUDA in `x.to(torch::kCUDA)`) adds nothing to the story.
    if (Prev && Prev->K == Step::DeviceConstant && Prev->Subject.empty() &&
        Prev->When.empty() && sameLine(Prev->Loc, Loc))
      Prev = Prev->Prev;
    auto *S = new (DA.Arena.Allocate<Step>()) Step{
        K, Loc, DA.save(Subject), DA.save(Detail), whenText(), Prev,
        Prev ? Prev->Depth + 1 : 0};
    return S;
  }

  bool sameLine(SourceLocation A, SourceLocation B) const {
    if (A.isInvalid() || B.isInvalid())
      return false;
    A = SM.getExpansionLoc(A);
    B = SM.getExpansionLoc(B);
    return SM.getFileID(A) == SM.getFileID(B) &&
           SM.getSpellingLineNumber(A) == SM.getSpellingLineNumber(B);
  }

  StringRef whenText() {
    if (!Cur || Cur->Reach == AllValuations || !Cur->Reach)
      return "";
    return DA.save(describeMask(Cur->Reach));
  }

  std::string describeMask(Mask M) const {
    std::string S;
    for (unsigned I = 0; I < AtomKeys.size(); ++I) {
      Mask T = atomTrueMask(I);
      const char *Val = nullptr;
      if ((M & ~T) == 0)
        Val = "true";
      else if ((M & T) == 0)
        Val = "false";
      if (!Val)
        continue;
      if (!S.empty())
        S += " and ";
      S += "'" + AtomTexts[I] + "' is " + Val;
    }
    return S;
  }

  std::string text(const Expr *E) const { return exprText(E, Ctx); }

  int atomFor(const void *Key, const Expr *E) {
    for (unsigned I = 0; I < AtomKeys.size(); ++I)
      if (AtomKeys[I] == Key)
        return I;
    if (AtomKeys.size() == MaxAtoms)
      return -1;
    AtomKeys.push_back(Key);
    AtomTexts.push_back(text(E));
    return AtomKeys.size() - 1;
  }

  const ValueDecl *canonical(const ValueDecl *D) const {
    auto It = Aliases.find(D);
    return It == Aliases.end() ? D : It->second;
  }

  /// The variable or this-field an lvalue expression names, if any.
  const ValueDecl *keyOf(const Expr *E) const {
    E = strip(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (isa<VarDecl>(DRE->getDecl()))
        return canonical(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (isa<FieldDecl>(ME->getMemberDecl()) &&
          isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return ME->getMemberDecl();
    return nullptr;
  }

  /// The container variable an element access reads or writes (v[i],
  /// v.at(i), v.back()), if any.
  const ValueDecl *containerOf(const Expr *E) const {
    E = strip(E);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
      if (OC->getOperator() == OO_Subscript)
        return keyOf(OC->getArg(0));
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return keyOf(AS->getBase());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      StringRef N = methodName(MC);
      if (N == "at" || N == "back" || N == "front")
        return keyOf(MC->getImplicitObjectArgument());
    }
    return nullptr;
  }

  /// A member's TU-wide summary, its masks widened (they were computed under
  /// other functions' conditions).
  std::optional<Fact> fieldSummary(const FieldDecl *FD) const {
    auto It = DA.FieldFacts.find(FD);
    if (It == DA.FieldFacts.end())
      return std::nullopt;
    Fact F = It->second;
    F.Host = F.Host ? AllValuations : 0;
    F.Dev = F.Dev ? AllValuations : 0;
    F.Params = 0; // parameters of another function
    return F;
  }

  void recordField(const FieldDecl *FD, const Fact &F) {
    Fact &Slot = DA.FieldFacts[FD];
    Slot = join(Slot, F);
  }

  Fact lookup(const ValueDecl *Key, const Expr *Use) {
    auto It = Cur->Vals.find(Key);
    if (It != Cur->Vals.end())
      return It->second;
    if (const auto *FD = dyn_cast<FieldDecl>(Key))
      if (std::optional<Fact> F = fieldSummary(FD))
        return *F;
    if (isa<FieldDecl>(Key) ||
        (isa<VarDecl>(Key) && cast<VarDecl>(Key)->hasGlobalStorage())) {
      return Fact::unknown(makeStep(Step::UnknownOrigin,
                                    Use ? Use->getExprLoc() : Key->getLocation(),
                                    Key->getName(), "", nullptr));
    }
    return Fact{};
  }

  /// True when \p S describes \p E itself: \p E is the step's expression,
  /// or reaches it through conversions and chained calls on the same value
  /// (`x.cuda().to(kDouble)`, `TensorOptions().dtype(f).device(kCUDA)`),
  /// not through another value passed as an argument (`net(x.cuda())`).
  bool describesDirectly(const Step *S, const Expr *E) {
    if (!E || !S)
      return false;
    E = strip(E);
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

  void assign(const ValueDecl *Key, Fact F, SourceLocation Loc, bool Weak,
              const Expr *Value) {
    if (F.Dev && F.Why) {
      StringRef Name = Key->getName();
      if (!Weak && F.Why->Subject.empty() && describesDirectly(F.Why, Value)) {
        // Name the step that happened on this line after the variable.
        Step Renamed = *F.Why;
        Renamed.Subject = DA.save(Name);
        DeviceCarrier C = classifyType(Key->getType());
        Renamed.SubjectIsDevice = C == DeviceCarrier::Device ||
                                  C == DeviceCarrier::DeviceType ||
                                  C == DeviceCarrier::Options;
        F.Why = new (DA.Arena.Allocate<Step>()) Step(Renamed);
      } else if (!(F.Why->Subject == Name && sameLine(F.Why->Loc, Loc))) {
        F.Why = makeStep(Weak ? Step::Inserted : Step::Assigned, Loc, Name, "",
                         F.Why);
      }
    }
    if (Weak) {
      auto It = Cur->Vals.find(Key);
      if (It != Cur->Vals.end())
        F = join(It->second, F);
    }
    Cur->Vals[Key] = F;
    if (const auto *FD = dyn_cast<FieldDecl>(Key))
      recordField(FD, F);
  }

  /// The module variable a call goes through: `model->f()`, `(*model).f()`,
  /// `module.f()`, `model(x)`.
  const ValueDecl *moduleKeyOf(const Expr *Obj) {
    Obj = strip(Obj);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Obj);
        OC && (OC->getOperator() == OO_Arrow || OC->getOperator() == OO_Star))
      Obj = strip(OC->getArg(0));
    else if (const auto *UO = dyn_cast<UnaryOperator>(Obj);
             UO && UO->getOpcode() == UO_Deref)
      Obj = strip(UO->getSubExpr());
    if (classifyType(Obj->getType()) != DeviceCarrier::Module)
      return nullptr;
    return keyOf(Obj);
  }

  /// The module variable a member chain starts from: `net` in
  /// `net->fc->weight`.
  const ValueDecl *moduleRootOf(const Expr *Base) {
    for (unsigned Depth = 0; Base && Depth < 8; ++Depth) {
      Base = strip(Base);
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Base);
          OC && OC->getOperator() == OO_Arrow)
        Base = OC->getArg(0);
      else if (const auto *ME = dyn_cast<MemberExpr>(Base))
        Base = ME->getBase();
      else if (isa<DeclRefExpr>(Base))
        return classifyType(Base->getType()) == DeviceCarrier::Module ? keyOf(Base)
                                                                      : nullptr;
      else
        return nullptr;
    }
    return nullptr;
  }

  void checkMismatch(const Expr *Where, const Expr *A, const Expr *B,
                     DeviceMismatch::Kind K);
  void checkOperation(const Expr *E);
  void noteSync(const Expr *Call, const Expr *Tensor, StringRef What);
  llvm::DenseSet<const Expr *> MismatchReported, SyncReported;

  //--- evaluation ----------------------------------------------------------
  Fact eval(const Expr *E);
  Fact evalUncached(const Expr *E);
  Fact evalMemberCall(const CXXMemberCallExpr *MC);
  Fact evalCall(const CallExpr *CE);
  Fact evalConstruct(const CXXConstructExpr *CE);
  Fact evalDeviceConstant(const Expr *E, bool OnDevice);
  Fact joinArgs(const CallExpr *CE, bool TensorsOnly);
  Fact deviceArg(const CallExpr *CE, const FunctionDecl *Callee,
                 const Expr **ArgOut, bool TensorTarget);
  Fact callSummary(const CallExpr *CE, const FunctionDecl *Callee);

  Branch evalCondition(const Expr *C);
  void transfer(const Stmt *S);
  void checkSinks(const Stmt *S);
  void report(HostAccess::Kind K, const Expr *Sink, const Expr *Operand,
              const Fact &F, StringRef Callee);
  void checkHelperCall(const Expr *E);
  void applyParamMoves(const Expr *E);
  /// A direct call to a function of the main file whose summary can be
  /// used, with that summary; Sum is null when \p E is no such call.
  struct HelperCall {
    const CallExpr *Call = nullptr;
    const FunctionDecl *Def = nullptr;
    const FunctionResult *Sum = nullptr;
    unsigned First = 0; ///< argument that binds parameter 0
  };
  HelperCall mainFileHelper(const Expr *E);
  /// Where a callee's summary may be used: all non-system code, or only
  /// the main file (where findings inside helpers can be shown).
  enum class Scope { NonSystem, MainFile };
  /// The definition behind \p CE whose summary can be used (a
  /// non-dependent body in \p Where, not under analysis: recursion is cut),
  /// or null. \p ArgShift is 1 when the call's first argument is the object
  /// (a member operator call), so that parameter i is argument i + ArgShift.
  const FunctionDecl *summarisable(const CallExpr *CE, const FunctionDecl *Callee,
                                   Scope Where, unsigned &ArgShift) const {
    const FunctionDecl *Def = nullptr;
    if (!Callee || !Callee->hasBody(Def) || !Def || Def->isDependentContext() ||
        DA.InProgress.lookup(Def))
      return nullptr;
    if (Where == Scope::NonSystem ? SM.isInSystemHeader(Def->getLocation())
                                  : !SM.isInMainFile(SM.getExpansionLoc(Def->getLocation())))
      return nullptr;
    ArgShift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) ? 1 : 0;
    return Def;
  }
  bool isOutParam(const ParmVarDecl *P) {
    QualType T = P->getType();
    return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() &&
           classifyType(T) != DeviceCarrier::None;
  }
  const HostAccess *Inner = nullptr; // set while reporting a Helper access
  std::string tensorNameOf(const Expr *Operand, const Fact &F) const;
};

Fact FunctionAnalyzer::eval(const Expr *E) {
  if (!E)
    return Fact{};
  auto It = Cache.find(E);
  if (It != Cache.end())
    return It->second;
  Fact F = evalUncached(E);
  Cache[E] = F;
  return F;
}

Fact FunctionAnalyzer::evalDeviceConstant(const Expr *E, bool OnDevice) {
  if (!OnDevice)
    return Fact::host();
  return Fact::device(makeStep(Step::DeviceConstant, E->getExprLoc(), "",
                               "'" + text(E) + "'", nullptr));
}

Fact FunctionAnalyzer::evalUncached(const Expr *E) {
  E = E->IgnoreParens();
  // Look through wrappers that do not change the value.
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    return eval(ICE->getSubExpr());
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(E)) {
    // A cast to bool or to a number reads no memory and has no device.
    QualType T = EC->getType();
    if (T->isArithmeticType() && !T->isEnumeralType())
      return Fact{};
    return eval(EC->getSubExpr());
  }
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return eval(EWC->getSubExpr());
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(MTE->getSubExpr());
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(BTE->getSubExpr());
  if (const auto *DAE = dyn_cast<CXXDefaultArgExpr>(E))
    return isa<CXXConstructExpr, InitListExpr>(strip(DAE->getExpr()))
               ? Fact{}
               : eval(DAE->getExpr());

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
      if (qualifiedName(cast<NamedDecl>(EC->getDeclContext())) !=
          "c10::DeviceType")
        return Fact{};
      return evalDeviceConstant(E, EC->getName() != "CPU");
    }
    if (const auto *BD = dyn_cast<BindingDecl>(D))
      return lookup(BD, E);
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      DeviceCarrier C = classifyType(VD->getType());
      if (C == DeviceCarrier::None)
        return Fact{};
      // Library constants such as c10::kCUDA: their initialiser is the fact.
      if (VD->hasGlobalStorage() && VD->getType().isConstQualified() &&
          VD->getInit() && C == DeviceCarrier::DeviceType) {
        Fact Init = eval(VD->getInit());
        if (Init.Dev && !Init.Host)
          return evalDeviceConstant(E, true);
        return Init;
      }
      return lookup(canonical(VD), E);
    }
    return Fact{};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && isTupleLike(ME->getBase()->getType()) &&
      classifyType(ME->getType()) != DeviceCarrier::None) {
    StringRef N = ME->getMemberDecl()->getName();
    if (N == "first" || N == "second")
      return elementOf(ME->getBase(), N == "second");
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (classifyType(AS->getType()) != DeviceCarrier::None &&
        classifyType(AS->getBase()->getType()) == DeviceCarrier::Container)
      return eval(AS->getBase()); // an element of an array of tensors
    return Fact{};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (const ValueDecl *K = keyOf(ME))
      if (classifyType(ME->getType()) != DeviceCarrier::None)
        return lookup(K, E);
    // A member of a module reached through a module variable
    // (`net->fc->weight`): registered members move with the module.
    if (DeviceCarrier C = classifyType(ME->getType());
        C == DeviceCarrier::Tensor || C == DeviceCarrier::Module)
      if (const ValueDecl *Root = moduleRootOf(ME->getBase())) {
        Fact M = lookup(Root, E);
        if (M.Dev)
          return M;
      }
    // Members of other objects (stats.correct): the TU-wide summary.
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
        FD && classifyType(ME->getType()) != DeviceCarrier::None)
      if (std::optional<Fact> F = fieldSummary(FD))
        return *F;
    // batch.data and batch.target of a data loader's torch::data::Example
    // are host tensors: datasets build them on the CPU.
    if (const auto *RD = ME->getBase()->getType()->getPointeeOrArrayElementType()
                             ->getAsCXXRecordDecl();
        RD && classifyType(ME->getType()) == DeviceCarrier::Tensor &&
        qualifiedName(RD) == "torch::data::Example")
      return Fact::host();
    return Fact{};
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    // The arms ran in blocks of their own; their values were recorded there
    // (the variables they read may be dead by the join).
    auto Arm = [&](const Expr *A) {
      auto It = ArmFacts.find(A);
      return It != ArmFacts.end() ? It->second : eval(A);
    };
    Branch B = evalCondition(CO->getCond());
    Fact T = restrict(Arm(CO->getTrueExpr()), B.TrueReach);
    Fact F = restrict(Arm(CO->getFalseExpr()), B.FalseReach);
    Fact R = join(T, F);
    if (R.Dev && R.Host && R.Why) {
      std::string Cond = describeMask(R.Dev);
      if (Cond.empty())
        Cond = "depending on '" + text(CO->getCond()) + "'";
      R.Why = makeStep(Step::DeviceConstant, CO->getExprLoc(), "", Cond,
                       R.Why->K == Step::DeviceConstant ? nullptr : R.Why);
    }
    return R;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return eval(BO->getRHS());
    // Pointer arithmetic stays inside the same memory.
    if (BO->getType()->isPointerType()) {
      Fact L = eval(BO->getLHS());
      return L.hasInfo() ? L : eval(BO->getRHS());
    }
    return Fact{};
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getType()->isPointerType() &&
        (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
      return eval(UO->getSubExpr());
    return Fact{};
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    OverloadedOperatorKind Op = OC->getOperator();
    if (Op == OO_Equal)
      return eval(OC->getArg(1));
    if (Op == OO_LessLess && OC->getNumArgs() == 2 &&
        classifyType(OC->getArg(1)->getType()) == DeviceCarrier::Tensor)
      noteSync(OC, OC->getArg(1), "operator<<");
    if (Op == OO_Subscript || Op == OO_Star || Op == OO_Arrow) {
      // Element access into a container of tensors, or an iterator.
      if (classifyType(OC->getType()) != DeviceCarrier::None)
        return eval(OC->getArg(0));
      return Fact{};
    }
    if (classifyType(OC->getType()) == DeviceCarrier::Tensor ||
        classifyType(OC->getType()) == DeviceCarrier::Device) {
      // Tensor arithmetic keeps its operands' device.
      Fact R;
      for (const Expr *Arg : OC->arguments())
        R = join(R, eval(Arg));
      return R;
    }
    return Fact{};
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return evalMemberCall(MC);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evalCall(CE);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return evalConstruct(CE);
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    Fact R;
    for (const Expr *Init : ILE->inits())
      R = join(R, eval(Init));
    return R;
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    return eval(SIL->getSubExpr());
  return Fact{};
}

Fact FunctionAnalyzer::evalConstruct(const CXXConstructExpr *CE) {
  DeviceCarrier C = classifyType(CE->getType());
  if (C == DeviceCarrier::None)
    return Fact{};
  if (C == DeviceCarrier::Device && CE->getNumArgs() >= 1) {
    // Device("cuda:0") and Device(std::string) parse a device string.
    const Expr *Arg = strip(CE->getArg(0));
    if (classifyType(Arg->getType()) == DeviceCarrier::None) {
      const StringLiteral *Lit = nullptr;
      if (const auto *Inner = dyn_cast<CXXConstructExpr>(Arg);
          Inner && Inner->getNumArgs() >= 1)
        Lit = dyn_cast<StringLiteral>(strip(Inner->getArg(0)));
      if (!Lit)
        Lit = dyn_cast<StringLiteral>(Arg);
      if (Lit) {
        if (Lit->getString().starts_with("cpu"))
          return Fact::host();
        return Fact::device(makeStep(Step::DeviceConstant, CE->getExprLoc(),
                                     "", "\"" + Lit->getString().str() + "\"",
                                     nullptr));
      }
      return Fact::unknown();
    }
  }
  if (CE->getNumArgs() == 0 && C == DeviceCarrier::Tensor)
    return Fact::host(); // an undefined tensor owns no memory
  if (C == DeviceCarrier::Module)
    return Fact::host(); // a new module's parameters are on the host
  Fact R;
  for (const Expr *Arg : CE->arguments())
    if (classifyType(Arg->getType()) != DeviceCarrier::None)
      R = join(R, eval(Arg));
  return R;
}

Fact FunctionAnalyzer::joinArgs(const CallExpr *CE, bool TensorsOnly) {
  Fact R;
  for (const Expr *Arg : CE->arguments()) {
    DeviceCarrier C = classifyType(Arg->getType());
    if (C == DeviceCarrier::None || C == DeviceCarrier::Pointer)
      continue;
    if (TensorsOnly && C != DeviceCarrier::Tensor && C != DeviceCarrier::IValue &&
        C != DeviceCarrier::Container)
      continue;
    R = join(R, eval(Arg));
  }
  return R;
}

/// The fact of the argument that says where a result goes: a Device,
/// DeviceType, TensorOptions or (for `.to(other)`) a tensor parameter.
Fact FunctionAnalyzer::deviceArg(const CallExpr *CE, const FunctionDecl *Callee,
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

Fact FunctionAnalyzer::evalMemberCall(const CXXMemberCallExpr *MC) {
  const Expr *Obj = MC->getImplicitObjectArgument();
  DeviceCarrier ObjC = Obj ? classifyType(Obj->getType()) : DeviceCarrier::None;
  DeviceCarrier RetC = classifyType(MC->getType());
  StringRef Name = methodName(MC);
  std::string QName = qualifiedName(MC->getMethodDecl());

  if (DA.Cat.HostSanitizers.contains(QName))
    return Fact::host();
  if (DA.Cat.DeviceSources.contains(QName))
    return Fact::device(makeStep(Step::Returned, MC->getExprLoc(), "", QName,
                                 nullptr));

  if (ObjC == DeviceCarrier::Tensor) {
    Fact Self = eval(Obj);
    if (Name == "cpu" || Name == "pin_memory") {
      if (Name == "cpu")
        noteSync(MC, Obj, ".cpu()");
      Fact H = Fact::host();
      H.Scalar = Self.Scalar;
      return H;
    }
    auto Moved = [&](const Step *S) {
      // `x.to(d)` passed on without a name: the note names x.
      if (S && isa<DeclRefExpr>(strip(Obj))) {
        auto *Copy = new (DA.Arena.Allocate<Step>()) Step(*S);
        Copy->Object = DA.save(text(Obj));
        return static_cast<const Step *>(Copy);
      }
      return S;
    };
    if (Name == "cuda")
      return Fact::device(Moved(makeStep(Step::MovedTo, MC->getExprLoc(), "", "",
                                         Self.Dev ? Self.Why : nullptr)));
    if (Name == "to") {
      const Expr *DevArg = nullptr;
      Fact Target = deviceArg(MC, MC->getMethodDecl(), &DevArg, true);
      if (!Target.hasInfo())
        return Self; // .to(dtype) keeps the device
      if (!Target.Dev && Target.Host)
        noteSync(MC, Obj, ".to(" + (DevArg ? text(DevArg) : std::string()) + ")");
      Target.Scalar = Self.Scalar;
      if (Target.Dev)
        Target.Why = Moved(makeStep(Step::MovedTo, MC->getExprLoc(), "",
                                    DevArg ? "'" + text(DevArg) + "'" : "",
                                    Target.Why));
      return Target;
    }
    if (isDataPtrMethod(Name)) {
      if (!MC->getType()->isPointerType())
        return Fact{};
      if (Self.Dev)
        Self.Why = makeStep(Step::PointsInto, MC->getExprLoc(), "", text(Obj),
                            Self.Why);
      return Self;
    }
    if (Name == "item" || Name == "is_nonzero" || Name == "tolist")
      noteSync(MC, Obj, ("." + Name + "()").str());
    if (RetC != DeviceCarrier::None && RetC != DeviceCarrier::Pointer) {
      // options(), device(), contiguous(), float(), sum(), …
      static const llvm::StringSet<> Reductions = {
          "sum", "mean", "max", "min", "prod", "norm", "all", "any", "std",
          "var", "median", "amax", "amin"};
      static const llvm::StringSet<> Reshapes = {
          "view", "reshape", "unsqueeze", "expand", "flatten", "repeat",
          "view_as", "reshape_as", "expand_as", "unflatten"};
      if (Reductions.contains(Name))
        Self.Scalar = llvm::none_of(MC->arguments(), [&](const Expr *A) {
          return !isa<CXXDefaultArgExpr>(A) &&
                 !A->getType()->isEnumeralType() &&
                 classifyType(A->getType()) != DeviceCarrier::Options;
        });
      else if (Reshapes.contains(Name))
        Self.Scalar = false;
      return Self;
    }
    return Fact{};
  }
  if (ObjC == DeviceCarrier::Options) {
    if (Name == "device") {
      if (MC->getNumArgs() == 0)
        return eval(Obj);
      return eval(MC->getArg(0));
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
  // A module's parameters and buffers are where the module is.
  if (Name == "parameters" || Name == "buffers" || Name == "named_parameters" ||
      Name == "named_buffers")
    if (const ValueDecl *K = moduleKeyOf(Obj))
      return lookup(K, MC);
  // Any other method that returns a tensor (a module's forward, a holder's
  // call operator): its result follows its inputs.
  if (const FunctionDecl *Callee = MC->getMethodDecl();
      Callee && Callee->hasBody() && !inTorchNamespace(QName))
    return callSummary(MC, Callee);
  Fact R = joinArgs(MC, /*TensorsOnly=*/true);
  return R.hasInfo() ? R : Fact::unknown();
}

Fact FunctionAnalyzer::callSummary(const CallExpr *CE,
                                   const FunctionDecl *Callee) {
  unsigned First = 0;
  const FunctionDecl *Def = summarisable(CE, Callee, Scope::NonSystem, First);
  if (!Def) {
    Fact R = joinArgs(CE, /*TensorsOnly=*/true);
    return R.hasInfo() ? R : Fact::unknown();
  }
  const FunctionResult &Sum = DA.analyze(Def);
  Fact R;
  R.Unknown = Sum.Return.Unknown;
  if (Sum.Return.Host)
    R.Host = AllValuations;
  if (Sum.Return.Dev) {
    R.Dev = AllValuations;
    R.Why = makeStep(Step::Returned, CE->getExprLoc(), "",
                     Def->getNameAsString(), Sum.Return.Why);
  }
  for (unsigned I = 0; I + First < CE->getNumArgs() && I < 32; ++I)
    if (Sum.Return.Params & (1u << I))
      R = join(R, eval(CE->getArg(I + First)));
  return R;
}

Fact FunctionAnalyzer::evalCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  DeviceCarrier RetC = classifyType(CE->getType());
  if (RetC == DeviceCarrier::None)
    return Fact{};
  std::string QName = Callee ? qualifiedName(Callee) : "";
  if (DA.Cat.HostSanitizers.contains(QName))
    return Fact::host();
  if (DA.Cat.DeviceSources.contains(QName))
    return Fact::device(makeStep(Step::Returned, CE->getExprLoc(), "", QName,
                                 nullptr));
  if (QName == "std::move" || QName == "std::forward" || QName == "std::ref" ||
      QName == "std::cref")
    return CE->getNumArgs() == 1 ? eval(CE->getArg(0)) : Fact{};
  if (QName == "std::get" && CE->getNumArgs() == 1 && Callee &&
      isTupleLike(CE->getArg(0)->getType())) {
    // std::get<I>(t): the index is the first template argument.
    if (const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
        Args && Args->size() >= 1 && Args->get(0).getKind() == TemplateArgument::Integral)
      return elementOf(CE->getArg(0), Args->get(0).getAsIntegral().getZExtValue());
    return Fact::unknown();
  }
  if (RetC == DeviceCarrier::Pointer)
    return Fact{};
  if (RetC == DeviceCarrier::Module &&
      (QName == "std::make_shared" || inTorchNamespace(QName))) {
    // make_shared<Net>(…) builds on the host; torch::jit::load(path, device)
    // loads onto its device argument.
    const Expr *DevArg = nullptr;
    Fact Target = deviceArg(CE, Callee, &DevArg, false);
    return Target.hasInfo() ? Target : Fact::host();
  }
  if (Callee && !inTorchNamespace(QName) && !QName.empty() &&
      !StringRef(QName).starts_with("std::"))
    return callSummary(CE, Callee);

  const Expr *DevArg = nullptr;
  Fact Target = deviceArg(CE, Callee, &DevArg, false);
  // A function returning a device or options: torch::device(d), dtype(…).
  if (RetC == DeviceCarrier::Device || RetC == DeviceCarrier::DeviceType ||
      RetC == DeviceCarrier::Options)
    return Target;

  Fact Inputs = joinArgs(CE, /*TensorsOnly=*/true);
  if (StringRef(QName).ends_with("_like") && !Target.hasInfo()) {
    if (Inputs.Dev && CE->getNumArgs() > 0)
      Inputs.Why = makeStep(Step::CreatedOn, CE->getExprLoc(), "",
                            "the device of '" + text(CE->getArg(0)) + "'",
                            Inputs.Why);
    return Inputs;
  }
  // torch::tensor(0.5), torch::zeros({}): 0-dim tensors.
  bool ZeroDim = false;
  if (inTorchNamespace(QName) && CE->getNumArgs() > 0) {
    const Expr *Shape = strip(CE->getArg(0));
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Shape);
        Ctor && Ctor->getNumArgs() == 1)
      Shape = strip(Ctor->getArg(0));
    if (const auto *IL = dyn_cast<InitListExpr>(Shape))
      ZeroDim = IL->getNumInits() == 0;
    else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Shape))
      ZeroDim = Ctor->getNumArgs() == 0 && !Ctor->isListInitialization()
                    ? false
                    : Ctor->getNumArgs() == 0;
    if (StringRef(QName).ends_with("::tensor"))
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
  // A LibTorch function without tensor inputs or device options is a
  // factory, and factories allocate on the host by default.
  if (inTorchNamespace(QName)) {
    Fact F = Fact::host();
    F.Scalar = ZeroDim;
    return F;
  }
  return Fact::unknown();
}

Branch FunctionAnalyzer::evalCondition(const Expr *C) {
  Branch B;
  if (!C)
    return B;
  C = C->IgnoreParenImpCasts();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(C))
    C = EWC->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(C);
      UO && UO->getOpcode() == UO_LNot) {
    Branch Inner = evalCondition(UO->getSubExpr());
    std::swap(Inner.TrueReach, Inner.FalseReach);
    Inner.VarOnDeviceWhenTrue = !Inner.VarOnDeviceWhenTrue;
    return Inner;
  }
  auto FromAtom = [&](const void *Key, const Expr *E) {
    int I = atomFor(Key, E);
    if (I >= 0) {
      B.TrueReach = atomTrueMask(I);
      B.FalseReach = ~atomTrueMask(I);
    }
    return B;
  };
  static const char CudaAvailableKey = 0;
  if (isCudaAvailableCall(C))
    return FromAtom(&CudaAvailableKey, C);
  // torch::cuda::device_count() > 0 and friends mean the same.
  if (const auto *BO = dyn_cast<BinaryOperator>(C);
      BO && BO->isComparisonOp()) {
    if (const auto *Call = dyn_cast<CallExpr>(strip(BO->getLHS()))) {
      std::string N = calleeName(Call);
      if (N == "torch::cuda::device_count" || N == "at::cuda::device_count") {
        static const char DeviceCountKey = 0;
        return FromAtom(&DeviceCountKey, C);
      }
    }
  }
  // A boolean flag that the function never reassigns.
  if (const ValueDecl *K = keyOf(C); K && C->getType()->isBooleanType()) {
    if (Mutations.Mutated.contains(K))
      return B;
    if (const auto *VD = dyn_cast<VarDecl>(K);
        VD && VD->getInit() && isCudaAvailableCall(VD->getInit()))
      return FromAtom(&CudaAvailableKey, VD->getInit());
    return FromAtom(K, C);
  }
  // Guards on a tensor's or device's own placement.
  auto Guard = [&](const Expr *Subject, bool TrueMeansDevice) {
    Subject = strip(Subject);
    // t.device().is_cuda() and t.device().type() are about t.
    while (const auto *MC = dyn_cast<CXXMemberCallExpr>(Subject)) {
      StringRef N = methodName(MC);
      if (N != "device" && N != "type")
        break;
      Subject = strip(MC->getImplicitObjectArgument());
    }
    Fact F = eval(Subject);
    if (!F.Unknown && !F.Params && (F.Host || F.Dev)) {
      B.TrueReach = TrueMeansDevice ? F.Dev : F.Host;
      B.FalseReach = TrueMeansDevice ? F.Host : F.Dev;
    }
    B.Var = keyOf(Subject);
    B.VarOnDeviceWhenTrue = TrueMeansDevice;
    return B;
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
    StringRef N = methodName(MC);
    DeviceCarrier ObjC = classifyType(MC->getImplicitObjectArgument()->getType());
    if ((N == "is_cuda" || N == "is_cpu") &&
        (ObjC == DeviceCarrier::Tensor || ObjC == DeviceCarrier::Device))
      return Guard(MC->getImplicitObjectArgument(), N == "is_cuda");
  }
  // t.device() == torch::kCPU, d.type() != torch::kCUDA, …
  const Expr *L = nullptr, *R = nullptr;
  bool Equal = true;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
      OC && (OC->getOperator() == OO_EqualEqual ||
             OC->getOperator() == OO_ExclaimEqual)) {
    L = OC->getArg(0);
    R = OC->getArg(1);
    Equal = OC->getOperator() == OO_EqualEqual;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(C);
             BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
    L = BO->getLHS();
    R = BO->getRHS();
    Equal = BO->getOpcode() == BO_EQ;
  }
  if (L && R) {
    auto IsConstant = [&](const Expr *E, bool &OnDevice) {
      Fact F = eval(E);
      const Expr *S = strip(E);
      bool Literal = isa<DeclRefExpr>(S) &&
                     (isa<EnumConstantDecl>(cast<DeclRefExpr>(S)->getDecl()) ||
                      cast<DeclRefExpr>(S)->getDecl()->getType().isConstQualified());
      if (!Literal && !isa<CXXConstructExpr>(S))
        return false;
      if (F.Unknown || F.Params || (F.Host && F.Dev) || (!F.Host && !F.Dev))
        return false;
      OnDevice = F.Dev != 0;
      return true;
    };
    bool OnDevice = false;
    if (IsConstant(R, OnDevice))
      return Guard(L, OnDevice == Equal);
    if (IsConstant(L, OnDevice))
      return Guard(R, OnDevice == Equal);
  }
  return B;
}

std::optional<llvm::SmallVector<Fact, 2>>
FunctionAnalyzer::elementFacts(const Expr *E) {
  E = strip(E);
  llvm::ArrayRef<const Expr *> Parts;
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    std::string N = calleeName(CE);
    if (N != "std::make_pair" && N != "std::make_tuple" && N != "std::tie" &&
        N != "std::forward_as_tuple")
      return std::nullopt;
    Parts = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && isTupleLike(CE->getType()) && CE->getNumArgs() >= 2) {
    Parts = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  } else if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    Parts = llvm::ArrayRef(IL->getInits(), IL->getNumInits());
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
    else if (Tuple && MapEntries.contains(VD) && I == 1)
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
  if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(Obj)))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && MapEntries.contains(VD) && I == 1)
      return eval(Obj);
  return Fact::unknown();
}

void FunctionAnalyzer::noteSync(const Expr *Call, const Expr *Tensor,
                                StringRef What) {
  if (!Reporting || !Cur->Reach || !SyncReported.insert(Call).second)
    return;
  Fact F = eval(Tensor);
  Mask OnDev = F.Dev & Cur->Reach;
  if (!OnDev)
    return;
  Out.Syncs.push_back(HostSync{Call, text(Tensor), What.str(),
                               OnDev == Cur->Reach && !(F.Host & Cur->Reach),
                               F.Why});
}

void FunctionAnalyzer::checkMismatch(const Expr *Where, const Expr *A,
                                     const Expr *B, DeviceMismatch::Kind K) {
  Fact FA = eval(A), FB = eval(B);
  if (FA.Unknown || FA.Params || FB.Unknown || FB.Params)
    return;
  // Valuations under which one side is surely on the device and the other
  // surely on the host. A 0-dim host tensor may meet a device tensor.
  Mask ADev = FA.Dev & ~FA.Host, AHost = FA.Host & ~FA.Dev;
  Mask BDev = FB.Dev & ~FB.Host, BHost = FB.Host & ~FB.Dev;
  Mask ADevBHost = FB.Scalar ? 0 : ADev & BHost & Cur->Reach;
  Mask AHostBDev = FA.Scalar ? 0 : AHost & BDev & Cur->Reach;
  Mask Mis = ADevBHost | AHostBDev;
  if (!Mis || !MismatchReported.insert(Where).second)
    return;
  Out.Mismatches.push_back(DeviceMismatch{K, Where, A, B, text(A), text(B), FA,
                                          FB, ADevBHost != 0,
                                          Mis == Cur->Reach});
}

namespace {
/// Modules without parameters or buffers run on inputs of any device.
bool parameterless(const Expr *Module) {
  QualType T = Module->getType().getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  // For holders and shared_ptrs, the module class is the template argument.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      Spec && Spec->getTemplateArgs().size() >= 1 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    if (const CXXRecordDecl *Inner =
            Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl())
      RD = Inner;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            B.getType()->getAsCXXRecordDecl());
        Spec && Spec->getName() == "ModuleHolder" &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      RD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  StringRef N = RD->getName();
  N.consume_back("Impl");
  static const llvm::StringSet<> Known = {
      "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "GELU", "SiLU", "Mish",
      "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Softplus", "Hardtanh",
      "Dropout", "Dropout2d", "Dropout3d", "AlphaDropout", "Flatten",
      "Unflatten", "Identity", "MaxPool1d", "MaxPool2d", "MaxPool3d",
      "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
      "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool2d",
      "Upsample", "PixelShuffle", "ZeroPad2d", "ReflectionPad2d"};
  return N.ends_with("Loss") || Known.contains(N);
}
} // namespace

void FunctionAnalyzer::checkOperation(const Expr *E) {
  if (!Reporting || !Cur->Reach)
    return;
  auto IsTensor = [&](const Expr *X) {
    DeviceCarrier C = classifyType(X->getType());
    return C == DeviceCarrier::Tensor;
  };
  // All tensor operands against the first one.
  auto Pairwise = [&](const Expr *Where, llvm::ArrayRef<const Expr *> Ops) {
    llvm::SmallVector<const Expr *, 4> Tensors;
    for (const Expr *Op : Ops) {
      const Expr *S = strip(Op);
      // A TensorList written as {a, b}: its elements.
      if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
          CE && CE->getNumArgs() == 1)
        S = strip(CE->getArg(0));
      if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(S))
        S = strip(SIL->getSubExpr());
      if (const auto *IL = dyn_cast<InitListExpr>(S)) {
        for (const Expr *Init : IL->inits())
          if (IsTensor(Init))
            Tensors.push_back(Init);
      } else if (IsTensor(Op)) {
        Tensors.push_back(Op);
      }
    }
    for (size_t I = 1; I < Tensors.size(); ++I)
      checkMismatch(Where, Tensors[0], Tensors[I], DeviceMismatch::Operands);
  };
  auto ModuleCall = [&](const Expr *Where, const Expr *Module,
                        llvm::ArrayRef<const Expr *> Args) {
    if (!parameterless(Module))
      for (const Expr *Arg : Args)
        if (IsTensor(Arg) || classifyType(Arg->getType()) == DeviceCarrier::Container) {
          checkMismatch(Where, Module, Arg, DeviceMismatch::ModuleInput);
          break;
        }
    Pairwise(Where, Args);
  };

  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    switch (OC->getOperator()) {
    case OO_Plus: case OO_Minus: case OO_Star: case OO_Slash: case OO_Percent:
    case OO_EqualEqual: case OO_ExclaimEqual: case OO_Less: case OO_Greater:
    case OO_LessEqual: case OO_GreaterEqual: case OO_Amp: case OO_Pipe:
    case OO_Caret: case OO_PlusEqual: case OO_MinusEqual: case OO_StarEqual:
    case OO_SlashEqual:
      if (OC->getNumArgs() == 2 && IsTensor(OC->getArg(0)) && IsTensor(OC->getArg(1)))
        checkMismatch(OC, OC->getArg(0), OC->getArg(1), DeviceMismatch::Operands);
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
    StringRef N = methodName(MC);
    llvm::ArrayRef<const Expr *> Args(MC->getArgs(), MC->getNumArgs());
    if (N == "forward") {
      const Expr *Module = strip(Obj);
      if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Module);
          Arrow && Arrow->getOperator() == OO_Arrow)
        Module = strip(Arrow->getArg(0));
      if (classifyType(Module->getType()) == DeviceCarrier::Module)
        ModuleCall(MC, Module, Args);
      return;
    }
    static const llvm::StringSet<> SameDevice = {
        "add", "sub", "mul", "div", "matmul", "mm", "bmm", "addmm", "dot",
        "eq", "ne", "lt", "gt", "le", "ge", "where", "index_select", "gather",
        "scatter", "scatter_add", "masked_fill", "masked_select", "add_",
        "sub_", "mul_", "div_", "masked_fill_", "index_add_", "lerp",
        "maximum", "minimum", "pow", "remainder", "fmod", "logical_and",
        "logical_or", "bitwise_and", "bitwise_or", "cross", "mv", "outer",
        "addcmul", "addcdiv"};
    if (IsTensor(Obj) && SameDevice.contains(N))
      for (const Expr *Arg : Args)
        if (IsTensor(Arg))
          checkMismatch(MC, Obj, Arg, DeviceMismatch::Operands);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (!IsTensor(CE))
      return;
    std::string Q = calleeName(CE);
    if (inTorchNamespace(Q))
      Pairwise(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
  }
}

std::string FunctionAnalyzer::tensorNameOf(const Expr *Operand,
                                           const Fact &F) const {
  for (const Step *S = F.Why; S; S = S->Prev)
    if (S->K == Step::PointsInto)
      return S->Detail.str();
  // t.data_ptr<T>() used in place names t.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(strip(Operand)))
    if (MC->getImplicitObjectArgument() && MC->getType()->isPointerType())
      return text(MC->getImplicitObjectArgument());
  return text(Operand);
}

void FunctionAnalyzer::report(HostAccess::Kind K, const Expr *Sink,
                              const Expr *Operand, const Fact &F,
                              StringRef Callee) {
  if (!Reporting || !Cur->Reach)
    return;
  Mask OnDev = F.Dev & Cur->Reach;
  if (!OnDev && !F.Unknown && !F.Params)
    return;
  if (!Reported.insert(Sink).second)
    return;
  bool Definite = OnDev == Cur->Reach && !(F.Host & Cur->Reach) &&
                  !F.Unknown && !F.Params;
  HostAccess A{K, Sink, Operand,
               K == HostAccess::Accessor || K == HostAccess::Helper
                   ? text(Operand)
                   : tensorNameOf(Operand, F),
               Callee.str(), Definite, F.Why, !OnDev};
  A.Params = F.Params;
  A.Inner = Inner;
  Out.Accesses.push_back(std::move(A));
}

FunctionAnalyzer::HelperCall FunctionAnalyzer::mainFileHelper(const Expr *E) {
  HelperCall H;
  H.Call = dyn_cast<CallExpr>(E);
  if (H.Call)
    H.Def = summarisable(H.Call, H.Call->getDirectCallee(), Scope::MainFile, H.First);
  if (H.Def)
    H.Sum = &DA.analyze(H.Def);
  return H;
}

void FunctionAnalyzer::applyParamMoves(const Expr *E) {
  // `to_device(x)` with `void to_device(torch::Tensor &t) { t = t.cuda(); }`.
  auto [CE, Def, Summary, First] = mainFileHelper(E);
  if (!Summary)
    return;
  const FunctionResult &Sum = *Summary;
  for (const auto &[Index, Exit] : Sum.ParamOut) {
    if (Index + First >= CE->getNumArgs())
      continue;
    const ValueDecl *K = keyOf(CE->getArg(Index + First));
    if (!K)
      continue;
    Fact F;
    F.Host = Exit.Host ? AllValuations : 0;
    F.Dev = Exit.Dev ? AllValuations : 0;
    F.Unknown = Exit.Unknown;
    for (unsigned I = 0; I + First < CE->getNumArgs() && I < 32; ++I)
      if (Exit.Params & (1u << I))
        F = join(F, eval(CE->getArg(I + First)));
    if (F.Dev)
      F.Why = makeStep(Step::MovedByCall, CE->getExprLoc(), K->getName(),
                       Def->getNameAsString(), Exit.Dev ? Exit.Why : F.Why);
    Cur->Vals[K] = F;
  }
}

void FunctionAnalyzer::checkHelperCall(const Expr *E) {
  // A call to a function of this file whose parameter reaches a host sink:
  // the device argument is reported at the call, the sink in a note.
  if (!Reporting)
    return;
  auto [CE, Def, Summary, First] = mainFileHelper(E);
  if (!Summary)
    return;
  const FunctionResult &Sum = *Summary;
  if (Sum.ParamSinks.empty())
    return;
  for (const auto &[Index, Sink] : Sum.ParamSinks) {
    if (Index + First >= CE->getNumArgs())
      continue;
    const Expr *Arg = CE->getArg(Index + First);
    Fact F = eval(Arg);
    Inner = Sink;
    // A lambda is named by the variable that holds it.
    std::string Name = Def->getNameAsString();
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && MD->getParent()->isLambda())
      Name = First ? text(CE->getArg(0)) : "the lambda";
    report(HostAccess::Helper, CE, Arg, F, Name);
    Inner = nullptr;
    if (F.Dev & Cur->Reach)
      return; // one report per call
  }
}

void FunctionAnalyzer::checkSinks(const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return;
  auto PointerFact = [&](const Expr *Op) {
    if (!Op->getType()->isPointerType() && !Op->getType()->isArrayType())
      return Fact{};
    return eval(Op);
  };
  auto IsWrite = [&](const Expr *Access) {
    const Stmt *P = Parents->getParentIgnoreParenImpCasts(const_cast<Expr *>(Access));
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
    report(IsWrite(UO) ? HostAccess::Write : HostAccess::Read, UO,
           UO->getSubExpr(), F, "");
    return;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Fact F = PointerFact(AS->getBase());
    report(IsWrite(AS) ? HostAccess::Write : HostAccess::Read, AS,
           AS->getBase(), F, "");
    return;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    StringRef N = methodName(MC);
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (N == "accessor" && Obj &&
        classifyType(Obj->getType()) == DeviceCarrier::Tensor) {
      report(HostAccess::Accessor, MC, Obj, eval(Obj), "");
      return;
    }
  }
  auto CheckArgs = [&](const Expr *Call, llvm::ArrayRef<const Expr *> Args,
                       HostAccess::Kind K, StringRef Name) {
    // A known device pointer first; an unknown one only when there is none.
    const Expr *Unknown = nullptr;
    Fact UnknownFact;
    for (const Expr *Arg : Args) {
      Fact F = PointerFact(Arg);
      if (F.Dev & Cur->Reach) {
        report(K, Call, Arg, F, Name);
        return;
      }
      if (!Unknown && (F.Unknown || F.Params)) {
        Unknown = Arg;
        UnknownFact = F;
      }
    }
    if (Unknown)
      report(K, Call, Unknown, UnknownFact, Name);
  };
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    std::string N = calleeName(CE);
    if (!N.empty() && DA.Cat.isHostMemoryCall(N))
      CheckArgs(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                HostAccess::Call, N);
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    std::string N = calleeName(CE);
    if (DA.Cat.HostMemoryClasses.contains(N))
      CheckArgs(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                HostAccess::Construct, N);
  }
}

void FunctionAnalyzer::transfer(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      DeviceCarrier C = classifyType(VD->getType());
      if (C == DeviceCarrier::None)
        continue;
      const Expr *Init = VD->getInit();
      if (auto It = RangeForInits.find(VD); It != RangeForInits.end()) {
        // The range was evaluated before the loop (the variables it read
        // may be dead by now): take the value recorded there.
        auto R = RangeValues.find(VD);
        assign(VD, R != RangeValues.end() ? R->second : eval(It->second),
               VD->getLocation(), false, nullptr);
        bindElements(VD, nullptr);
        continue;
      }
      // A reference to a tracked variable is that variable.
      if (VD->getType()->isReferenceType() && Init) {
        if (const ValueDecl *Target = keyOf(Init)) {
          Aliases[VD] = Target;
          AliasTargets.insert(Target);
          continue;
        }
      }
      if (!Init) {
        Cur->Vals[VD] = C == DeviceCarrier::Tensor ? Fact::host() : Fact{};
        continue;
      }
      Fact F = eval(Init);
      if (auto L = RangeLoopVars.find(VD); L != RangeLoopVars.end())
        RangeValues[L->second] = F;
      if (isTupleLike(VD->getType()))
        if (auto Facts = elementFacts(Init))
          setElements(VD, *Facts);
      bindElements(VD, Init);
      if (C == DeviceCarrier::Pointer && !F.hasInfo()) {
        Cur->Vals.erase(VD);
        continue;
      }
      assign(VD, F, VD->getLocation(), false, Init);
    }
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (RS->getRetValue())
      Out.Return = join(Out.Return, restrict(eval(RS->getRetValue()), Cur->Reach));
    return;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return;
  Fact Value = eval(E); // cached for the enclosing expression
  if (Arms.contains(E))
    ArmFacts[E] = Value;
  checkSinks(E);
  checkHelperCall(E);
  applyParamMoves(E);

  // Writes to tracked variables.
  const Expr *LHS = nullptr, *RHS = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Assign) {
    LHS = BO->getLHS();
    RHS = BO->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
             OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    LHS = OC->getArg(0);
    RHS = OC->getArg(1);
    // Tensor::operator=(Scalar) fills in place and keeps the device.
    if (classifyType(RHS->getType()) == DeviceCarrier::None)
      return;
  }
  if (LHS && RHS) {
    if (const auto *Tie = dyn_cast<CallExpr>(strip(LHS));
        Tie && calleeName(Tie) == "std::tie") {
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
    if (const auto *ME = dyn_cast<MemberExpr>(strip(LHS));
        ME && !keyOf(LHS) && isa<FieldDecl>(ME->getMemberDecl()) &&
        classifyType(ME->getType()) != DeviceCarrier::None) {
      Fact F = eval(RHS);
      if (F.Dev && F.Why)
        F.Why = makeStep(Step::Assigned, E->getExprLoc(), text(LHS), "", F.Why);
      recordField(cast<FieldDecl>(ME->getMemberDecl()), F);
      return;
    }
    if (const ValueDecl *K = keyOf(LHS)) {
      if (classifyType(K->getType()) != DeviceCarrier::None)
        assign(K, eval(RHS), E->getExprLoc(), false, RHS);
    } else if (const ValueDecl *K = containerOf(LHS)) {
      assign(K, eval(RHS), E->getExprLoc(), true, RHS);
    }
    return;
  }
  checkOperation(E);
  // A lambda sees its captures as they were where it was made.
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar());
            VD && classifyType(VD->getType()) != DeviceCarrier::None) {
          Fact &Slot = DA.CaptureFacts[{LE->getLambdaClass(), VD}];
          Slot = join(Slot, lookup(canonical(VD), E));
        }
    return;
  }
  // module->to(device) moves the module's parameters in place.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && methodName(MC) == "to") {
    if (const ValueDecl *K = moduleKeyOf(MC->getImplicitObjectArgument())) {
      const Expr *DevArg = nullptr;
      Fact Target = deviceArg(MC, MC->getMethodDecl(), &DevArg, false);
      if (Target.hasInfo()) {
        if (Target.Dev)
          Target.Why = makeStep(Step::MovedTo, MC->getExprLoc(), K->getName(),
                                DevArg ? "'" + text(DevArg) + "'" : "",
                                Target.Why);
        Cur->Vals[K] = Target;
      }
      return;
    }
  }
  // Insertions into containers of tensors join into the container.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    StringRef N = methodName(MC);
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Obj && classifyType(Obj->getType()) == DeviceCarrier::Container &&
        (N == "push_back" || N == "emplace_back" || N == "insert" ||
         N == "emplace" || N == "push_front" || N == "emplace_front" ||
         N == "assign")) {
      if (const ValueDecl *K = keyOf(Obj)) {
        Fact F;
        for (const Expr *Arg : MC->arguments())
          if (classifyType(Arg->getType()) != DeviceCarrier::None &&
              classifyType(Arg->getType()) != DeviceCarrier::Pointer)
            F = join(F, eval(Arg));
        assign(K, F, E->getExprLoc(), /*Weak=*/true, nullptr);
      }
    }
  }
}

void FunctionAnalyzer::computeLiveness() {
  // Uses per block; a use anywhere after a block keeps a variable alive at
  // its exit. Without kills this is conservative (a variable lives until its
  // last read), which is all that pruning needs.
  unsigned NumBlocks = Graph->getNumBlockIDs();
  std::vector<llvm::SmallVector<unsigned, 4>> Uses(NumBlocks);
  for (const CFGBlock *B : *Graph)
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *DRE = dyn_cast<DeclRefExpr>(CS->getStmt()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
              VD && VD->hasLocalStorage() &&
              classifyType(VD->getType()) != DeviceCarrier::None) {
            auto [It, New] = LocalIndex.try_emplace(VD, LocalIndex.size());
            Uses[B->getBlockID()].push_back(It->second);
          }
  unsigned N = LocalIndex.size();
  LiveOut.assign(NumBlocks, llvm::BitVector(N));
  std::vector<llvm::BitVector> LiveIn(NumBlocks, llvm::BitVector(N));
  // Round-robin in post order (successors before predecessors): a loop-free
  // function converges in one pass, each loop nest adds one.
  PostOrderCFGView POV(Graph.get()); // iterates in reverse post order
  std::vector<const CFGBlock *> PostOrder(POV.begin(), POV.end());
  std::reverse(PostOrder.begin(), PostOrder.end());
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const CFGBlock *B : PostOrder) {
      llvm::BitVector Out(N);
      for (const CFGBlock::AdjacentBlock &Succ : B->succs())
        if (const CFGBlock *SB = Succ.getReachableBlock())
          Out |= LiveIn[SB->getBlockID()];
      llvm::BitVector In = Out;
      for (unsigned I : Uses[B->getBlockID()])
        In.set(I);
      if (Out != LiveOut[B->getBlockID()] || In != LiveIn[B->getBlockID()]) {
        LiveOut[B->getBlockID()] = std::move(Out);
        LiveIn[B->getBlockID()] = std::move(In);
        Changed = true;
      }
    }
  }
}

void FunctionAnalyzer::run() {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return;
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  BO.AddImplicitDtors = false;
  BO.AddTemporaryDtors = false;
  BO.AddInitializers = true;
  BO.AddCXXDefaultInitExprInCtors = true;
  Graph = CFG::buildCFG(FD, const_cast<Stmt *>(Body), &Ctx, BO);
  if (!Graph)
    return;
  computeLiveness();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  Mutations.TraverseStmt(const_cast<Stmt *>(Body));
  // Range-for loop variables take the device of the range; conditional
  // operators' arms are remembered.
  struct RangeForFinder : RecursiveASTVisitor<RangeForFinder> {
    llvm::DenseMap<const VarDecl *, const Expr *> *Out;
    llvm::DenseMap<const VarDecl *, const VarDecl *> *LoopVarsOut;
    llvm::DenseSet<const VarDecl *> *MapEntriesOut;
    bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
      (*Out)[RF->getLoopVariable()] = RF->getRangeInit();
      if (const auto *RD = RF->getRangeInit()->getType()->getAsCXXRecordDecl()) {
        std::string N = qualifiedName(RD);
        if (N == "std::map" || N == "std::unordered_map")
          MapEntriesOut->insert(RF->getLoopVariable());
      }
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(RF->getRangeStmt());
          DS && DS->isSingleDecl())
        if (const auto *Range = dyn_cast<VarDecl>(DS->getSingleDecl()))
          (*LoopVarsOut)[Range] = RF->getLoopVariable();
      return true;
    }
    llvm::DenseSet<const Expr *> *ArmsOut;
    bool VisitAbstractConditionalOperator(AbstractConditionalOperator *CO) {
      ArmsOut->insert(CO->getTrueExpr());
      ArmsOut->insert(CO->getFalseExpr());
      return true;
    }
  } Finder;
  Finder.Out = &RangeForInits;
  Finder.LoopVarsOut = &RangeLoopVars;
  Finder.MapEntriesOut = &MapEntries;
  Finder.ArmsOut = &Arms;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));

  unsigned NumBlocks = Graph->getNumBlockIDs();
  std::vector<State> In(NumBlocks);
  State &Entry = In[Graph->getEntry().getBlockID()];
  Entry.Reach = AllValuations;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    // Raw pointer parameters are not tracked: nothing says where they point.
    DeviceCarrier PC = classifyType(P->getType());
    if (PC == DeviceCarrier::None || PC == DeviceCarrier::Pointer)
      continue;
    Fact F;
    F.Params = I < 32 ? 1u << I : 0;
    F.Unknown = I >= 32;
    F.Why = new (DA.Arena.Allocate<Step>())
        Step{Step::UnknownOrigin, P->getLocation(), DA.save(P->getName()),
             "", "", nullptr, 0};
    Entry.Vals[P] = F;
    // Its value at the exit is part of the summary: keep it to the end.
    if (isOutParam(P))
      AliasTargets.insert(P);
  }

  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    for (const auto &[Key, F] : DA.CaptureFacts)
      if (Key.first == MD->getParent())
        Entry.Vals[Key.second] = F;

  PostOrderCFGView POV(Graph.get());
  ForwardDataflowWorklist Worklist(*Graph, &POV);
  Worklist.enqueueBlock(&Graph->getEntry());
  unsigned Budget = NumBlocks * DA.Opts.MaxVisitsPerBlock + 16;

  auto Visit = [&](const CFGBlock *B, State &S) {
    Cur = &S;
    Cache.clear();
    for (const CFGElement &El : *B) {
      if (auto CS = El.getAs<CFGStmt>())
        transfer(CS->getStmt());
      // Member initialisers: `device_(is_available() ? kCUDA : kCPU)`.
      else if (auto CI = El.getAs<CFGInitializer>())
        if (const CXXCtorInitializer *I = CI->getInitializer();
            I && I->getMember() && I->getInit() &&
            classifyType(I->getMember()->getType()) != DeviceCarrier::None)
          assign(I->getMember(), eval(I->getInit()), I->getMemberLocation(),
                 false, I->getInit());
    }
  };

  Out.Blocks = NumBlocks;
  while (const CFGBlock *B = Worklist.dequeue()) {
    if (Out.Visits++ == Budget) {
      Out.Complete = false;
      break;
    }
    State S = In[B->getBlockID()];
    if (!S.Reach)
      continue;
    Visit(B, S);
    // Drop locals that no later statement reads (references keep their
    // targets alive: a write through `r` is a write to the target).
    S.Vals.retain([&](const ValueDecl *D) {
      const auto *VD = dyn_cast<VarDecl>(D);
      return !VD || AliasTargets.contains(VD) || liveAfter(B, VD);
    });
    Branch Br;
    if (B->succ_size() == 2)
      Br = evalCondition(B->getLastCondition());
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      unsigned I = Index++;
      const CFGBlock *SB = Succ.getReachableBlock();
      if (!SB)
        continue;
      State Edge = S;
      if (B->succ_size() == 2) {
        bool TrueSide = I == 0;
        Edge.Reach &= TrueSide ? Br.TrueReach : Br.FalseReach;
        if (Br.Var) {
          auto It = Edge.Vals.find(Br.Var);
          if (It != Edge.Vals.end()) {
            bool OnDevice = TrueSide == Br.VarOnDeviceWhenTrue;
            (OnDevice ? It->second.Host : It->second.Dev) = 0;
          }
        }
      }
      if (joinInto(In[SB->getBlockID()], Edge))
        Worklist.enqueueBlock(SB);
    }
  }

  // Report with the converged states, in source order of blocks.
  Reporting = true;
  for (const CFGBlock *B : POV) {
    State S = In[B->getBlockID()];
    if (S.Reach)
      Visit(B, S);
  }
  if (!Out.Complete) {
    // Cut short, the states are below the fixpoint: every device
    // possibility found is real (joins only add), but "on every path" and
    // "only on the host" are not proven. Keep what still holds.
    for (HostAccess &A : Out.Accesses)
      A.Definite = false;
    for (HostSync &S : Out.Syncs)
      S.Definite = false;
    Out.Mismatches.clear(); // they need one side proven on the host
    Out.Return = Fact::unknown();
  }
  llvm::sort(Out.Accesses, [&](const HostAccess &A, const HostAccess &B) {
    return SM.isBeforeInTranslationUnit(A.Sink->getBeginLoc(),
                                        B.Sink->getBeginLoc());
  });
  // By-reference parameters the function moves: their value at the exit.
  const State &Exit = In[Graph->getExit().getBlockID()];
  for (unsigned I = 0; I < FD->getNumParams() && I < 32; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    if (!isOutParam(P) || !Exit.Reach || !Out.Complete)
      continue;
    auto It = const_cast<State &>(Exit).Vals.find(P);
    if (It == const_cast<State &>(Exit).Vals.end())
      continue;
    const Fact &F = It->second;
    if (F.Host || F.Dev)
      Out.ParamOut.emplace_back(I, F);
  }
  // Which parameters reach a sink: the first sink of each.
  uint32_t Seen = 0;
  for (const HostAccess &A : Out.Accesses)
    for (unsigned I = 0; I < 32; ++I)
      if ((A.Params & (1u << I)) && !(Seen & (1u << I))) {
        Seen |= 1u << I;
        Out.ParamSinks.emplace_back(I, &A);
      }
  Cur = nullptr;
}

//===----------------------------------------------------------------------===//

DeviceAnalysis::DeviceAnalysis(ASTContext &Ctx, Catalogue Cat,
                               AnalysisOptions Opts)
    : Ctx(Ctx), Cat(std::move(Cat)), Opts(Opts) {}

DeviceAnalysis::~DeviceAnalysis() = default;

DeviceCarrier DeviceAnalysis::classify(QualType T) {
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

AnalysisStats &analysisStats() {
  static AnalysisStats Stats;
  return Stats;
}

const FunctionResult &DeviceAnalysis::analyze(const FunctionDecl *FD) {
  auto &Slot = Results[FD];
  if (Slot)
    return *Slot;
  auto Result = std::make_unique<FunctionResult>();
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
    while (Ratio > Seen && !Stats.MaxVisitsPerBlockX100.compare_exchange_weak(Seen, Ratio))
      ;
  }
  // The map may have grown while callees were analysed.
  auto &Final = Results[FD];
  Final = std::move(Result);
  return *Final;
}

void DeviceAnalysis::analyzeAll(const std::vector<const FunctionDecl *> &Functions) {
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

std::string DeviceAnalysis::describe(const Step &S) {
  std::string Subject = S.Subject.empty() ? "" : "'" + S.Subject.str() + "' ";
  std::string Msg;
  switch (S.K) {
  case Step::DeviceConstant: {
    const char *Be = S.SubjectIsDevice ? "is a CUDA device" : "is on a CUDA device";
    if (S.Detail.starts_with("depending on"))
      Msg = (Subject.empty() ? std::string("a CUDA device may be chosen here, ")
                             : Subject + (S.SubjectIsDevice
                                              ? "may be a CUDA device, "
                                              : "may be on a CUDA device, ")) +
            S.Detail.str();
    else if (S.Detail.contains(" is true") || S.Detail.contains(" is false"))
      Msg = Subject.empty()
                ? "a CUDA device is chosen here when " + S.Detail.str()
                : Subject + Be + " when " + S.Detail.str();
    else
      Msg = Subject.empty() ? S.Detail.str() + " is chosen here"
                            : Subject + "is set to " + S.Detail.str() + " here";
    break;
  }
  case Step::MovedTo:
  case Step::CreatedOn:
    Msg = (!Subject.empty()       ? Subject
           : !S.Object.empty()    ? "'" + S.Object.str() + "' "
                                  : std::string("the tensor ")) +
          (S.K == Step::MovedTo ? "is moved to " : "is created on ") +
          (S.Detail.empty() ? std::string("a CUDA device") : S.Detail.str()) +
          " here";
    break;
  case Step::Assigned:
    Msg = Subject + "is assigned here";
    break;
  case Step::Inserted:
    Msg = "an element is added to " + Subject + "here";
    break;
  case Step::PointsInto:
    Msg = (Subject.empty() ? std::string("a pointer ") : Subject) +
          "points into the memory of '" + S.Detail.str() + "'";
    break;
  case Step::Returned:
    // A configured source function has no chain behind it; a summarised
    // helper has the chain of its own return value.
    Msg = (Subject.empty() ? std::string("the tensor ") : Subject) +
          "comes from '" + S.Detail.str() + "', which returns " +
          (S.Prev ? "a result that may be on a CUDA device" : "a CUDA tensor");
    break;
  case Step::MovedByCall:
    Msg = Subject + "is moved by '" + S.Detail.str() + "' here";
    break;
  case Step::UnknownOrigin:
    Msg = Subject + "comes from outside this function; its device is unknown";
    break;
  }
  if (!S.When.empty())
    Msg += ", when " + S.When.str();
  return Msg;
}

} // namespace clang::tidy::devplace

