//===--- FunctionAnalysis.cpp - the units of one function's analysis ------===//

#include "FunctionAnalysis.h"

namespace clang::devplace {

FunctionAnalysis::FunctionAnalysis(DeviceModel &Model, const FunctionDecl *FD,
                                   FunctionFacts &Out,
                                   std::optional<TraceFn> Trace)
    : Scope(Model, FD), Env(*this, Scope, Model, Out),
      Eval(*this, Scope, Model, Out), Calls(*this, Scope, Model, Out),
      Summaries(*this, Scope, Model, Out), Writes(*this, Scope, Model, Out),
      Conditions(*this, Scope, Model, Out), Objects(*this, Scope, Model, Out),
      Modules(*this, Scope, Model, Out), Elements(*this, Scope, Model, Out),
      Copies(*this, Scope, Model, Out), Statements(*this, Scope, Model, Out),
      Accesses(*this, Scope, Model, Out), Syncs(*this, Scope, Model, Out),
      Meetings(*this, Scope, Model, Out),
      Driver(*this, Scope, Model, Out, Trace),
      Summary(*this, Scope, Model, Out) {}

void FunctionAnalysis::statement(const Stmt *S, bool Final) {
  const auto *E = dyn_cast<Expr>(S);
  if (Final && E && Env.state().Reach) {
    Eval.eval(E); // the state before the statement's own writes
    Accesses.observe(E);
    Syncs.observe(E);
    Copies.observe(E);
    Meetings.observe(E);
  }
  Statements.transfer(S);
}

} // namespace clang::devplace
