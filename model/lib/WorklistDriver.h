//===--- WorklistDriver.h - the CFG, liveness and the fixpoint --*- C++ -*-===//
//
// Builds the function's CFG, runs its blocks' statements through the
// pipeline (FunctionAnalysis::statement) to a fixpoint with a worklist,
// refines each branch's state by its condition, drops the locals no later
// statement reads, and at the fixpoint runs every block once more with the
// observers on; then the SummaryBuilder.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_WORKLISTDRIVER_H
#define DEVPLACE_MODEL_WORKLISTDRIVER_H

#include "AnalysisUnit.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::devplace {

class WorklistDriver : AnalysisUnit {
public:
  WorklistDriver(FunctionAnalysis &A, FunctionScope &Scope, DeviceModel &Model,
                 FunctionFacts &Out, std::optional<TraceFn> Trace)
      : AnalysisUnit(A, Scope, Model, Out), Trace(Trace) {}

  void run();

private:
  void computeLiveness();
  bool liveAfter(const CFGBlock *B, const VarDecl *VD) const {
    auto It = LocalIndex.find(VD);
    return It == LocalIndex.end() || LiveOut[B->getBlockID()].test(It->second);
  }
  void setUpEntry(State &Entry);
  /// Runs the block's statements on \p S; in the final pass (\p Final) also
  /// records the facts the rules read.
  void visit(const CFGBlock *B, State &S, bool Final);

  std::optional<TraceFn> Trace;
  std::unique_ptr<CFG> Graph;
  // Which tracked locals a later statement may still read, per block exit:
  // the states drop the others, so that a long function does not copy every
  // variable it ever declared into every block's state.
  llvm::DenseMap<const VarDecl *, unsigned> LocalIndex;
  std::vector<llvm::BitVector> LiveOut;
};

} // namespace clang::devplace

#endif
