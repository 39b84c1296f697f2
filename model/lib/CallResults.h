//===--- CallResults.h - the device of a call's result ----------*- C++ -*-===//
//
// What a call gives: the table's answer for LibTorch's functions and
// tensor methods (moves, factories, accessors, reductions), a module's or a
// TorchScript module's output, and for the code's own functions their
// summaries (CalleeSummaries).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_CALLRESULTS_H
#define DEVPLACE_MODEL_CALLRESULTS_H

#include "AnalysisUnit.h"

namespace clang::devplace {

class CallResults : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  Fact evalCall(const CallExpr *CE);
  Fact evalMemberCall(const CXXMemberCallExpr *MC);
  /// The result of a call to the code's own \p Callee: its summary, or,
  /// without one, unknown or its inputs' device.
  Fact callSummary(const CallExpr *CE, const FunctionDecl *Callee);
  Fact joinArgs(const CallExpr *CE, bool TensorsOnly);
  /// The fact of the argument that says where a result goes: a Device,
  /// DeviceType, TensorOptions or (for `.to(other)`) a tensor parameter.
  Fact deviceArg(const CallExpr *CE, const FunctionDecl *Callee,
                 const Expr **ArgOut, bool TensorTarget);

private:
  Fact evalTensorMethod(const CXXMemberCallExpr *MC, const Expr *Obj);
  /// \p T is a class template the table does not know whose arguments
  /// carry tensors (a tensor list type of another LibTorch version).
  bool holdsTensorsUnknown(QualType T);
};

} // namespace clang::devplace

#endif
