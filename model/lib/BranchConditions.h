//===--- BranchConditions.h - what a branch condition tells -----*- C++ -*-===//
#ifndef DEVPLACE_MODEL_BRANCHCONDITIONS_H
#define DEVPLACE_MODEL_BRANCHCONDITIONS_H

#include "AnalysisUnit.h"
#include "Atoms.h"

namespace clang::devplace {

/// What a branch condition tells about each side.
struct Branch {
  Mask TrueReach = AllValuations, FalseReach = AllValuations;
  const ValueDecl *Var = nullptr; ///< a value whose device the test reveals
  bool VarOnDeviceWhenTrue = true;
};

/// The function's atoms, and the valuations under which each side of a
/// condition runs.
class BranchConditions : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// The atom of an accelerator-availability call (one per device type,
  /// its key in Shared), or an origin with a null key when \p E is no such
  /// call.
  AtomOrigin availabilityAtom(const Expr *E);
  Branch evalCondition(const Expr *C);
  /// A device named at run time (`torch::Device(name)` with a string
  /// variable, parameter or member): an atom that the environment decides,
  /// as it decides is_available(); the true side is an accelerator. No atom
  /// (both sides everything) when \p Name is not such a place.
  Branch runTimeDeviceName(const Expr *Name);

  const Atoms &atoms() const { return FunctionAtoms; }

private:
  Atoms FunctionAtoms;
};

} // namespace clang::devplace

#endif
