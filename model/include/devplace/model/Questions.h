//===--- Questions.h - what rules may ask of a fact -------------*- C++ -*-===//
//
// A fact is a few masks over the valuations of a function's conditions; what
// each combination means is the model's business, not the rules'. Rules ask
// these questions instead, always about the valuations that reach the
// statement, so that a change to the lattice changes this file and no rule.
//
// The answers keep one principle: a device needs a path on which the code
// chose it, and the host needs every path to be known. A path the analysis
// cannot follow (unknown, or a parameter whose device the caller decides)
// neither proves a device nor refutes one; it only stops "on every path".
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_QUESTIONS_H
#define DEVPLACE_MODEL_QUESTIONS_H

#include "devplace/model/Lattice.h"

namespace clang::devplace {

/// Valuations in \p Reach under which some path puts the value on a device
/// the code chose.
Mask deviceUnder(const Fact &F, Mask Reach);

/// Valuations in \p Reach under which every path leaves the value on the
/// host, with nothing unknown and no parameter's device among them.
Mask hostOnlyUnder(const Fact &F, Mask Reach);

/// Valuations in \p Reach under which some path carries a device the
/// analysis cannot see: unknown, or a parameter's.
Mask unknownUnder(const Fact &F, Mask Reach);

/// The value is on a device on every path that reaches: the code chose a
/// device under every valuation of \p Reach, and no path is the host,
/// unknown or a parameter's. ("is on a CUDA device" rather than "may be".)
bool onDeviceOnEveryPath(const Fact &F, Mask Reach);

/// The value is known to be on the host on every path that reaches.
bool onHostOnEveryPath(const Fact &F, Mask Reach);

/// Two values that must share a device in one operation, under the
/// valuations of \p Reach.
struct MismatchAnswer {
  Mask ADeviceBHost = 0; ///< A may be on a device where B is surely host
  Mask AHostBDevice = 0; ///< and the other way round
  /// Both on devices the code chose, at indices it says and that differ
  /// (`cuda:0` against `cuda:1`, or against `cuda:rank`).
  Mask IndicesDiffer = 0;
  bool Definite = false; ///< the mismatch holds on every path that reaches
  explicit operator bool() const {
    return ADeviceBHost || AHostBDevice || IndicesDiffer;
  }
};

/// A mismatch needs both sides known under one valuation: one side on a
/// device on some path the code chose, the other on the host on every path.
/// A 0-dim tensor on the host may meet a tensor on any device (LibTorch
/// copies it), so a scalar host side is never a mismatch. Two devices of
/// different indices are a mismatch in the same way: one side on its
/// device on some path, the other on its own on every path. A pair that
/// mismatches both ways is answered for the host.
MismatchAnswer mismatchUnder(const Fact &A, const Fact &B, Mask Reach);

} // namespace clang::devplace

#endif
