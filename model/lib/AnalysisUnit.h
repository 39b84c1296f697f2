//===--- AnalysisUnit.h - the base of every unit ---------------*- C++ -*-===//
//
// Every unit of FunctionAnalysis derives from this: the aggregate (to reach
// the other units), the function's scope, and shortcuts to the questions
// every unit asks. Defined in FunctionAnalysis.h, where the units are
// complete.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_ANALYSISUNIT_H
#define DEVPLACE_MODEL_ANALYSISUNIT_H

#include "State.h"
#include "TranslationUnitState.h"
#include "devplace/model/DeviceModel.h"
#include "devplace/model/Questions.h"

namespace clang::devplace {

class FunctionAnalysis;
class FunctionScope;

class AnalysisUnit {
public:
  AnalysisUnit(FunctionAnalysis &A, FunctionScope &Scope, DeviceModel &Model,
               FunctionFacts &Out)
      : A(A), Scope(Scope), Model(Model), Api(Model.api()), Out(Out) {}

protected:
  FunctionAnalysis &A;
  FunctionScope &Scope;
  DeviceModel &Model;
  const ApiTable &Api;
  /// The function's facts: what the observers and the summary write.
  FunctionFacts &Out;

  /// The model's memo of classifyType().
  DeviceCarrier classifyType(QualType T) const;
  /// The model's memo of qualifiedName().
  llvm::StringRef qualifiedName(const NamedDecl *D) const;
  std::string text(const Expr *E) const;
  /// The device of \p E in the current state (Evaluator).
  Fact eval(const Expr *E);
  /// A new step of provenance (Environment::makeStep).
  const Step *makeStep(Step::Kind K, SourceLocation Loc,
                       llvm::StringRef Subject, llvm::StringRef Detail,
                       const Step *Prev, llvm::StringRef DeviceType = {});
  /// The state at the current statement (read only: the Environment
  /// changes it).
  const State &now() const;
};

} // namespace clang::devplace

#endif
