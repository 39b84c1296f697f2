//===--- Lattice.cpp - the abstract device of one value -------------------===//

#include "devplace/model/Lattice.h"

namespace clang::devplace {

Mask atomTrueMask(unsigned I) {
  static const Mask Patterns[MaxAtoms] = {
      0xAAAAAAAAAAAAAAAAULL, 0xCCCCCCCCCCCCCCCCULL, 0xF0F0F0F0F0F0F0F0ULL,
      0xFF00FF00FF00FF00ULL, 0xFFFF0000FFFF0000ULL, 0xFFFFFFFF00000000ULL};
  return Patterns[I];
}

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
  // One mask for all parameter bits: the valuations under which any of
  // them may flow (an over-approximation per bit).
  if (A.Params && B.Params)
    R.ParamsWhen = A.ParamsWhen | B.ParamsWhen;
  else if (R.Params)
    R.ParamsWhen = A.Params ? A.ParamsWhen : B.ParamsWhen;
  R.Unknown = A.Unknown | B.Unknown;
  // The index of the paths that put it on a device: one side's, or both
  // sides' when they agree.
  if (!A.Dev)
    R.Index = B.Index;
  else if (!B.Dev || A.Index == B.Index)
    R.Index = A.Index;
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

Fact widen(Fact F) {
  F.Host = F.Host ? AllValuations : 0;
  F.Dev = F.Dev ? AllValuations : 0;
  F.Unknown = F.Unknown ? AllValuations : 0;
  // That function's parameters are whatever its callers passed: unknown
  // here (a member set from a parameter is not known to be on the host).
  if (F.Params)
    F.Unknown = AllValuations;
  F.Params = 0;
  F.ParamsWhen = AllValuations;
  if (F.Index.K == DeviceIndex::Variable)
    F.Index = {};
  return F;
}

bool indicesMayDiffer(const DeviceIndex &A, const DeviceIndex &B) {
  if (A.K == DeviceIndex::Unsaid || B.K == DeviceIndex::Unsaid)
    return false;
  if (A.K == DeviceIndex::Number && B.K == DeviceIndex::Number)
    return A.N != B.N;
  return A.K != B.K;
}

} // namespace clang::devplace
