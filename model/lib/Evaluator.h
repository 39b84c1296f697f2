//===--- Evaluator.h - the device of an expression --------------*- C++ -*-===//
//
// The transfer functions over expressions: what device the value of an
// expression may be on, given the state before it. Calls are CallResults';
// knowledge of the API comes from the table (TorchApi.def); nothing here
// decides a finding.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_EVALUATOR_H
#define DEVPLACE_MODEL_EVALUATOR_H

#include "AnalysisUnit.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::devplace {

class Evaluator : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// The device of \p E in the current state, remembered for the block.
  Fact eval(const Expr *E);
  /// A new block's state: nothing evaluated yet.
  void startBlock() { Cache.clear(); }
  /// \p F on the device of index \p IndexArg (`Device(kCUDA, rank)`,
  /// `options.device(kCUDA, 1)`): a number the code fixes, or a variable
  /// this function does not change. Anything else, and -1 (the current
  /// device), leaves the index unsaid.
  Fact withIndex(Fact F, const Expr *IndexArg);
  /// The device a string names: a literal ("cuda:0", "cpu"), or a choice
  /// of literals (`gpu ? "cuda:0" : "cpu"`); a name chosen at run time is
  /// the environment's choice; anything else is unknown.
  Fact evalDeviceString(const Expr *Arg, SourceLocation Loc);

private:
  /// A device constant: the host, or an accelerator of \p DeviceType.
  Fact evalDeviceConstant(const Expr *E, bool OnDevice,
                          llvm::StringRef DeviceType);
  Fact evalUncached(const Expr *E);
  Fact evalMember(const MemberExpr *ME);
  Fact evalConditional(const AbstractConditionalOperator *CO);
  Fact evalOperatorCall(const CXXOperatorCallExpr *OC);
  Fact evalConstruct(const CXXConstructExpr *CE);
  /// `c ? a : b`: each arm's fact (from \p Arm) under its side of the
  /// condition, joined; a device on one side only is noted as chosen by it.
  Fact chosen(const AbstractConditionalOperator *CO,
              llvm::function_ref<Fact(const Expr *)> Arm);

  /// "cuda:" + \p Index, for messages.
  llvm::StringRef spelling(const Fact &F, llvm::StringRef Index);

  llvm::DenseMap<const Expr *, Fact> Cache; // per block visit
};

} // namespace clang::devplace

#endif
