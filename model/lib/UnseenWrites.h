//===--- UnseenWrites.h - writes no summary says ---------------*- C++ -*-===//
#ifndef DEVPLACE_MODEL_UNSEENWRITES_H
#define DEVPLACE_MODEL_UNSEENWRITES_H

#include "AnalysisUnit.h"

namespace clang::devplace {

class UnseenWrites : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// What a call may write that no summary says: a value passed by
  /// non-const reference to code not summarised (`torch::load(t, path)`,
  /// a function defined in another file), or by address to any function,
  /// is unknown after the call, as the Clang Static Analyzer invalidates
  /// what a call can reach. The table names the exceptions: calls that
  /// only read (std::begin), write in place and keep the device (`_out`),
  /// or exchange their arguments (std::swap). A forwarding reference
  /// (`T &&` of a template) passes its argument on and counts as a read.
  /// \p Summarised: \p E's callee has a summary that says what it writes
  /// through references (helperCall in non-system scope).
  void invalidateUnseenWrites(const Expr *E, bool Summarised);
};

} // namespace clang::devplace

#endif
