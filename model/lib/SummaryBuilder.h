//===--- SummaryBuilder.h - the function's summary at its exit --*- C++ -*-===//
//
// What callers and the rules need once the fixpoint is reached: accesses
// in source order, by-reference parameters' values at the exit, a plain
// class's members as methods and constructors leave them, which
// parameters reach host code and under which valuations, and the atoms'
// origins; all weakened when the analysis was cut short.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_SUMMARYBUILDER_H
#define DEVPLACE_MODEL_SUMMARYBUILDER_H

#include "AnalysisUnit.h"

namespace clang::devplace {

class SummaryBuilder : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  void finish(const State &Exit);

private:
  /// FunctionFacts::ParamMeetings, from the function's meetings.
  void recordParamMeetings();
};

} // namespace clang::devplace

#endif
