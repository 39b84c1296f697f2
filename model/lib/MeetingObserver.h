//===--- MeetingObserver.h - values that meet in one operation --*- C++ -*-===//
//
// In the final pass, the tensors that meet in one operation (arithmetic,
// LibTorch functions, same-device methods) and a module with its inputs
// (FunctionFacts::Meetings): whether two devices meet is for the rules.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_MEETINGOBSERVER_H
#define DEVPLACE_MODEL_MEETINGOBSERVER_H

#include "AnalysisUnit.h"

namespace clang::devplace {

class MeetingObserver : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  void observe(const Expr *E);

private:
  void meet(const Expr *Where, const Expr *First, const Expr *Second,
            Meeting::Kind K);
  /// The module may hold no parameters, so it runs on inputs of any device:
  /// a module the table calls parameterless, one of the code's own that
  /// holds nothing, or one whose shape could hold nothing and whose
  /// constructors are not seen (what they register is not known).
  bool parameterless(const Expr *Module) const;
  /// A call whose callee's parameter meets a value on a device
  /// (ParamMeeting): the argument meets that value. A virtual method
  /// without a body here stands for its overriders that have one.
  void throughCall(const CallExpr *CE);
};

} // namespace clang::devplace

#endif
