//===--- WorklistDriver.cpp - the CFG, liveness and the fixpoint ----------===//

#include "FunctionAnalysis.h"
#include "ProgramPointView.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"

namespace clang::devplace {

void WorklistDriver::computeLiveness() {
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

void WorklistDriver::setUpEntry(State &Entry) {
  Entry.Reach = AllValuations;
  // A kernel the code registers for an accelerator: the dispatcher calls
  // it with its tensors there.
  const KernelRegistration *Kernel = Model.unit().kernelRegistration(Scope.FD);
  for (unsigned I = 0; I < Scope.FD->getNumParams(); ++I) {
    const ParmVarDecl *P = Scope.FD->getParamDecl(I);
    Fact F;
    F.Params = I < 32 ? 1u << I : 0;
    F.Unknown = I >= 32 ? AllValuations : 0;
    F.Why = Model.unit().originStep(P->getLocation(), P->getName());
    if (Kernel && classifyType(P->getType()) == DeviceCarrier::Tensor) {
      auto *Why = new (Model.unit().arena().Allocate<Step>()) Step{
          Step::KernelArgument,
          Kernel->At,
          Model.unit().save(P->getName()),
          Model.unit().save("'" + Scope.FD->getNameAsString() +
                            "' is registered as its kernel for " + Kernel->Key),
          "",
          nullptr,
          0};
      Why->DeviceType = Kernel->DeviceType;
      F = Fact::device(Why);
    }
    // A reference to a plain struct: each member is the caller's, and what
    // is left in them at the exit is part of the summary.
    if (I < 32 && Scope.Storage.keepsMembers(P)) {
      Scope.Storage.keepAlive(P);
      for (const FieldDecl *Field :
           P->getType().getNonReferenceType()->getAsCXXRecordDecl()->fields())
        if (Scope.hasMemberFact(Field))
          Entry.Members[MemberSlot(P, Field)] = F;
    }
    // Raw pointer parameters are not tracked: nothing says where they point.
    DeviceCarrier PC = classifyType(P->getType());
    if (PC == DeviceCarrier::None || PC == DeviceCarrier::Pointer)
      continue;
    Entry.Vals[P] = F;
    // Its value at the exit is part of the summary: keep it to the end.
    if (Scope.isOutParam(P))
      Scope.Storage.keepAlive(P);
  }
  // A plain class's members: what every object's members hold (the
  // translation unit's summary), and symbolically this object's own.
  for (auto [Field, Bit] : A.Objects.memberBits(Scope.FD))
    Entry.Vals[Field] = A.Objects.memberAtEntry(Field, Bit);
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Scope.FD);
      MD && MD->getParent()->isLambda())
    Model.unit().forEachCapture(
        MD->getParent(),
        [&](const VarDecl *VD, const Fact &F) { Entry.Vals[VD] = F; });
}

void WorklistDriver::visit(const CFGBlock *B, State &S, bool Final) {
  A.Env.enter(&S);
  A.Eval.startBlock();
  for (const CFGElement &El : *B) {
    if (auto CS = El.getAs<CFGStmt>()) {
      A.statement(CS->getStmt(), Final);
      if (Final && Trace)
        (*Trace)(CS->getStmt(), ProgramPointView(S, A.Conditions.atoms()));
    } else if (auto CI = El.getAs<CFGInitializer>()) {
      A.Statements.transferInitializer(CI->getInitializer());
    }
  }
}

void WorklistDriver::run() {
  const Stmt *Body = Scope.FD->getBody();
  if (!Body)
    return;
  // Code that does not compile is not analysed: what clang recovered from
  // it says nothing reliable about devices, and callers see an unknown.
  if (hasErrors(Scope.FD)) {
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
  Graph = CFG::buildCFG(Scope.FD, const_cast<Stmt *>(Body), &Scope.Ctx, BO);
  if (!Graph)
    return;
  A.Env.deferMemberWrites(A.Objects.membersPrivateUntilExit());
  computeLiveness();
  Out.Parents = std::make_shared<ParentMap>(const_cast<Stmt *>(Body));
  Scope.Mutations.TraverseStmt(const_cast<Stmt *>(Body));
  Scope.Storage.scan(Scope.FD);

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
      return !VD || Scope.Storage.keptAlive(VD) || liveAfter(B, VD);
    };
    S.Vals.retain(Live);
    S.Pending.retain(Live);
    Branch Br;
    if (B->succ_size() == 2)
      Br = A.Conditions.evalCondition(B->getLastCondition());
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
  A.Summary.finish(In[Graph->getExit().getBlockID()]);
  A.Env.enter(nullptr);
}

} // namespace clang::devplace
