//===--- Worklist.cpp - the CFG, liveness and the fixpoint ----------------===//

#include "FunctionAnalyzer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

/// Joins the facts of \p In (reached under \p InReach) into \p Into (reached
/// under \p OldReach so far); returns true when \p Into changed.
template <typename KeyT>
static bool joinFacts(FactMap<KeyT> &Into, Mask OldReach,
                      const FactMap<KeyT> &In, Mask InReach) {
  bool Changed = false;
  for (const auto &[Key, F] : In) {
    Fact Incoming = restrict(F, InReach);
    auto It = Into.find(Key);
    if (It == Into.end()) {
      Into[Key] = Incoming;
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

/// Pending copies: a copy is still pending where it is on some path (a
/// read on the path where nothing waited is a read too early).
static bool joinPending(PendingCopies &Into, Mask OldReach,
                        const PendingCopies &In, Mask InReach) {
  bool Changed = false;
  for (const auto &[Key, P] : In) {
    Mask Incoming = P.When & InReach;
    if (!Incoming)
      continue;
    auto It = Into.find(Key);
    if (It == Into.end()) {
      Into[Key] = PendingCopy{Incoming, P.Copy};
      Changed = true;
      continue;
    }
    Mask J = (It->second.When & OldReach) | Incoming;
    Changed |= J != It->second.When;
    It->second.When = J;
  }
  return Changed;
}

bool joinInto(State &Into, const State &In) {
  if (!In.Reach)
    return false;
  bool Changed = (Into.Reach | In.Reach) != Into.Reach;
  Mask OldReach = Into.Reach;
  Into.Reach |= In.Reach;
  Changed |= joinFacts(Into.Vals, OldReach, In.Vals, In.Reach);
  Changed |= joinFacts(Into.Members, OldReach, In.Members, In.Reach);
  Changed |= joinPending(Into.Pending, OldReach, In.Pending, In.Reach);
  return Changed;
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

void FunctionAnalyzer::setUpEntry(State &Entry) {
  Entry.Reach = AllValuations;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    // Raw pointer parameters are not tracked: nothing says where they point.
    DeviceCarrier PC = classifyType(P->getType());
    if (PC == DeviceCarrier::None || PC == DeviceCarrier::Pointer)
      continue;
    Fact F;
    F.Params = I < 32 ? 1u << I : 0;
    F.Unknown = I >= 32 ? AllValuations : 0;
    F.Why = new (Model.arena().Allocate<Step>()) Step{Step::UnknownOrigin,
                                                      P->getLocation(),
                                                      Model.save(P->getName()),
                                                      "",
                                                      "",
                                                      nullptr,
                                                      0};
    Entry.Vals[P] = F;
    // Its value at the exit is part of the summary: keep it to the end.
    if (isOutParam(P))
      Storage.keepAlive(P);
  }
  // A plain class's members: what every object's members hold (the
  // translation unit's summary), and symbolically this object's own.
  for (auto [Field, Bit] : memberBits(FD))
    Entry.Vals[Field] = memberAtEntry(Field, Bit);
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda())
    Model.forEachCapture(
        MD->getParent(),
        [&](const VarDecl *VD, const Fact &F) { Entry.Vals[VD] = F; });
}

namespace {
/// The trace's view of the state after a statement.
class PointView : public ProgramPoint {
public:
  PointView(const State &S, const Atoms &A) : S(S), A(A) {}
  Mask reach() const override { return S.Reach; }
  std::optional<Fact> valueOf(const ValueDecl *D) const override {
    if (const Fact *F = S.Vals.lookup(D))
      return *F;
    return std::nullopt;
  }
  std::optional<Fact> memberOf(const VarDecl *Object,
                               const FieldDecl *Member) const override {
    if (const Fact *F = S.Members.lookup(MemberSlot(Object, Member)))
      return *F;
    return std::nullopt;
  }
  Mask pendingCopyIn(const ValueDecl *D) const override {
    const PendingCopy *P = S.Pending.lookup(D);
    return P ? P->When & S.Reach : 0;
  }
  std::vector<std::string> atoms() const override {
    return {A.texts().begin(), A.texts().end()};
  }

private:
  const State &S;
  const Atoms &A;
};
} // namespace

void FunctionAnalyzer::visit(const CFGBlock *B, State &S, bool Final) {
  Cur = &S;
  Cache.clear();
  for (const CFGElement &El : *B) {
    if (auto CS = El.getAs<CFGStmt>()) {
      if (Final)
        observe(CS->getStmt());
      transfer(CS->getStmt());
      if (Final && Trace)
        (*Trace)(CS->getStmt(), PointView(S, FunctionAtoms));
    } else if (auto CI = El.getAs<CFGInitializer>()) {
      transferInitializer(CI->getInitializer());
    }
  }
}

void FunctionAnalyzer::run() {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return;
  // Code that does not compile is not analysed: what clang recovered from
  // it says nothing reliable about devices, and callers see an unknown.
  if (hasErrors(FD)) {
    Out.Broken = true;
    Out.MayWait = true;
    Out.Return = Fact::unknown();
    return;
  }
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  BO.AddImplicitDtors = false;
  BO.AddTemporaryDtors = false;
  BO.AddInitializers = true;
  BO.AddCXXDefaultInitExprInCtors = true;
  Graph = CFG::buildCFG(FD, const_cast<Stmt *>(Body), &Ctx, BO);
  if (!Graph)
    return;
  DeferMemberWrites = membersPrivateUntilExit();
  computeLiveness();
  Out.Parents = std::make_shared<ParentMap>(const_cast<Stmt *>(Body));
  Mutations.TraverseStmt(const_cast<Stmt *>(Body));
  Storage.scan(FD);

  unsigned NumBlocks = Graph->getNumBlockIDs();
  std::vector<State> In(NumBlocks);
  setUpEntry(In[Graph->getEntry().getBlockID()]);

  PostOrderCFGView POV(Graph.get());
  ForwardDataflowWorklist Worklist(*Graph, &POV);
  Worklist.enqueueBlock(&Graph->getEntry());
  unsigned Budget = NumBlocks * Model.options().MaxVisitsPerBlock + 16;

  Out.Blocks = NumBlocks;
  while (const CFGBlock *B = Worklist.dequeue()) {
    if (Out.Visits++ == Budget) {
      Out.Complete = false;
      Out.MayWait = true; // what the rest would have found is not known
      break;
    }
    State S = In[B->getBlockID()];
    if (!S.Reach)
      continue;
    visit(B, S, /*Final=*/false);
    // Drop locals that no later statement reads (references keep their
    // targets alive: a write through `r` is a write to the target).
    auto Live = [&](const ValueDecl *D) {
      const auto *VD = dyn_cast<VarDecl>(D);
      return !VD || Storage.keptAlive(VD) || liveAfter(B, VD);
    };
    S.Vals.retain(Live);
    S.Pending.retain(Live);
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
            Fact &F = It->second;
            if (OnDevice) {
              F.Host = 0;
            } else if (unknownUnder(F, AllValuations)) {
              // A parameter (or a value from elsewhere) that the guard
              // proves is on the host here: `if (t.is_cuda()) t = t.cpu();`
              // leaves t on the host on both sides.
              F = Fact::host();
            } else {
              F.Dev = 0;
            }
          }
        }
      }
      if (joinInto(In[SB->getBlockID()], Edge))
        Worklist.enqueueBlock(SB);
    }
  }

  // The facts the rules read, with the converged states, in source order of
  // blocks.
  for (const CFGBlock *B : POV) {
    State S = In[B->getBlockID()];
    if (S.Reach)
      visit(B, S, /*Final=*/true);
  }
  finish(In[Graph->getExit().getBlockID()]);
  Cur = nullptr;
}

void FunctionAnalyzer::finish(const State &Exit) {
  if (!Out.Complete) {
    // Cut short, the states are below the fixpoint: every device
    // possibility found is real (joins only add), but "on every path" and
    // "only on the host" are not proven. Keep what still holds.
    for (HostAccess &A : Out.Accesses)
      A.Definite = false;
    for (HostSync &S : Out.Syncs)
      S.Definite = false;
    Out.Return = Fact::unknown();
    Out.ReturnElements.clear();
  }
  llvm::sort(Out.Accesses, [&](const HostAccess &A, const HostAccess &B) {
    return SM.isBeforeInTranslationUnit(A.Sink->getBeginLoc(),
                                        B.Sink->getBeginLoc());
  });
  // By-reference parameters the function writes: their value at the exit
  // (unknown when it gives them a value it cannot follow, or when the
  // analysis was cut short and the writes are not all known).
  for (unsigned I = 0; I < FD->getNumParams() && I < 32; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    if (!isOutParam(P) || !Exit.Reach)
      continue;
    const Fact *F = Exit.Vals.lookup(P);
    if (!Out.Complete)
      Out.ParamOut.emplace_back(I, Fact::unknown());
    else if (F && (F->Host || F->Dev || F->Unknown))
      Out.ParamOut.emplace_back(I, *F);
  }
  // A plain class's members at the exit, for callers' objects: those a
  // method may change, and those a constructor sets.
  if (Exit.Reach && Out.Complete) {
    for (auto [Field, Bit] : memberBits(FD))
      if (const Fact *F = Exit.Vals.lookup(Field))
        Out.MemberOut.emplace_back(Field, *F);
    if (const CXXRecordDecl *RD = constructedClass(FD))
      for (const FieldDecl *Field : RD->fields())
        if (const Fact *F = Exit.Vals.lookup(Field); F && hasMemberFact(Field))
          Out.MemberOut.emplace_back(Field, *F);
  }
  // A constructor that keeps its object to itself gives the other functions
  // its members as they are at its exit (unknown when cut short).
  if (DeferMemberWrites && Exit.Reach)
    for (const auto &[Key, F] : Exit.Vals)
      if (const auto *Field = dyn_cast<FieldDecl>(Key))
        Model.recordMember(Field, Out.Complete ? F : Fact::unknown());
  // Which parameters reach host code: the first access of each, and the
  // valuations under which any does.
  for (const HostAccess &A : Out.Accesses)
    for (unsigned I = 0; I < 32; ++I) {
      if (!(A.Params & (1u << I)))
        continue;
      auto It = llvm::find_if(Out.ParamSinks,
                              [&](const ParamSink &S) { return S.Index == I; });
      if (It == Out.ParamSinks.end())
        Out.ParamSinks.push_back({I, &A, A.ParamsWhen});
      else
        It->When |= A.ParamsWhen;
    }
  if (!Out.Complete) // masks below the fixpoint prove no guard
    for (ParamSink &S : Out.ParamSinks)
      S.When = AllValuations;
  Out.AtomOrigins.assign(FunctionAtoms.origins().begin(),
                         FunctionAtoms.origins().end());
}

} // namespace clang::devplace
