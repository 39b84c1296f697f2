//===--- FunctionAnalysis.h - one function's analysis ----------*- C++ -*-===//
//
// The seam of the model's private units. One function is analysed by a
// worklist over its CFG (WorklistDriver); each statement of each block goes
// through one pipeline, FunctionAnalysis::statement:
//
//   Stmt ─┬─ (final pass) Evaluator::eval        the state before the statement
//         │               HostAccessObserver     ⇒ FunctionFacts::Accesses,
//         │                                        HostToDevice
//         │               SyncObserver           ⇒ Syncs
//         │               HostCopies::observe    ⇒ AsyncReads
//         │               MeetingObserver        ⇒ Meetings
//         └─ StatementTransfer::transfer         ⇒ the next state
//              pending copies · helpers' writes · unseen writes ·
//              object updates · assignments · captures · module moves ·
//              insertions
//
// An expression's device is the Evaluator's (with CallResults for calls);
// every change of the state goes through the Environment. After the
// fixpoint, the SummaryBuilder writes what callers need.
//
// The units, one class per file (this map is checked by a test: every
// source of model/lib is named here):
//   FunctionAnalysis.cpp  this aggregate and the pipeline
//   AnalysisUnit.h        the base of every unit: the scope's shortcuts
//   FunctionScope.cpp     the function, its code's shape: names, keys,
//                         lambdas, types (no state)
//   Environment.cpp       the state: lookups, assignments, places,
//                         elements, pending copies, forgetting; steps
//   Evaluator.cpp         the device of an expression
//   CallResults.cpp       the device of a call's result: the table, tensor
//                         methods, factories, callees' summaries
//   CalleeSummaries.cpp   callees' summaries seen at a call: parameters,
//                         guards, moves of by-reference arguments, members
//   UnseenWrites.cpp      what a call may write that no summary says
//   BranchConditions.cpp  atoms and what a branch condition tells
//   LocalObjects.cpp      local objects of plain classes, member by member
//   ModuleMembers.cpp     modules and the members that follow their moves
//   TupleElements.cpp     pairs, tuples, structs returned, algorithms' ranges
//   HostCopies.cpp        asynchronous host copies and what waits for them
//   StatementTransfer.cpp what a statement does to the state
//   HostAccessObserver.cpp host code touching memory
//   SyncObserver.cpp      host synchronisations
//   MeetingObserver.cpp   values that meet in one operation
//   WorklistDriver.cpp    the CFG, liveness, the fixpoint, branch refinement
//   ProgramPointView.h    the trace's view of a state
//   SummaryBuilder.cpp    the function's summary at its exit
// and the pieces they share:
//   State.cpp             the abstract state and its join
//   Places.cpp            where values live, read from the body first
//   Atoms.cpp             the atoms of one function
//   MutationScanner.cpp   the variables a body writes
//   KernelRegistrations.cpp kernels the code registers for an accelerator,
//                         whose tensor parameters start there
//   DeviceModel.cpp       the public entry points: analyze, analyzeAll, trace
//   TranslationUnitState.cpp what the model keeps across the translation
//                         unit: memos, members' summaries, captures,
//                         registrations, the steps' arena
//   ProjectSummaries.cpp  summaries that cross translation units, keyed by
//                         linkage name, and their JSON
//   SummaryPorting.cpp    a function's facts to and from that portable form
//                         (steps placed by file, line and column)
//   ApiTable.cpp Lattice.cpp Modules.cpp Provenance.cpp Questions.cpp
//   Types.cpp             the table, the lattice, module registrations,
//                         notes, the rules' questions, type classes
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_FUNCTIONANALYSIS_H
#define DEVPLACE_MODEL_FUNCTIONANALYSIS_H

#include "BranchConditions.h"
#include "CallResults.h"
#include "CalleeSummaries.h"
#include "Environment.h"
#include "Evaluator.h"
#include "FunctionScope.h"
#include "HostAccessObserver.h"
#include "HostCopies.h"
#include "LocalObjects.h"
#include "MeetingObserver.h"
#include "ModuleMembers.h"
#include "StatementTransfer.h"
#include "SummaryBuilder.h"
#include "SyncObserver.h"
#include "TupleElements.h"
#include "UnseenWrites.h"
#include "WorklistDriver.h"

namespace clang::devplace {

/// The units of one function's analysis, each knowing the others through
/// this aggregate.
class FunctionAnalysis {
public:
  FunctionAnalysis(DeviceModel &Model, const FunctionDecl *FD,
                   FunctionFacts &Out,
                   std::optional<TraceFn> Trace = std::nullopt);

  void run() { Driver.run(); }

  /// One statement: in the final pass (\p Final) the observers record what
  /// the rules read, from the state before it; then its transfer.
  void statement(const Stmt *S, bool Final);

  FunctionScope Scope;
  Environment Env;
  Evaluator Eval;
  CallResults Calls;
  CalleeSummaries Summaries;
  UnseenWrites Writes;
  BranchConditions Conditions;
  LocalObjects Objects;
  ModuleMembers Modules;
  TupleElements Elements;
  HostCopies Copies;
  StatementTransfer Statements;
  HostAccessObserver Accesses;
  SyncObserver Syncs;
  MeetingObserver Meetings;
  WorklistDriver Driver;
  SummaryBuilder Summary;
};

//--- the shortcuts of AnalysisUnit -------------------------------------------

inline DeviceCarrier AnalysisUnit::classifyType(QualType T) const {
  return Model.unit().classify(T);
}
inline llvm::StringRef AnalysisUnit::qualifiedName(const NamedDecl *D) const {
  return Model.unit().qualifiedName(D);
}
inline std::string AnalysisUnit::text(const Expr *E) const {
  return exprText(E, Model.context());
}
inline Fact AnalysisUnit::eval(const Expr *E) { return A.Eval.eval(E); }
inline const Step *AnalysisUnit::makeStep(Step::Kind K, SourceLocation Loc,
                                          llvm::StringRef Subject,
                                          llvm::StringRef Detail,
                                          const Step *Prev,
                                          llvm::StringRef DeviceType) {
  return A.Env.makeStep(K, Loc, Subject, Detail, Prev, DeviceType);
}
inline const State &AnalysisUnit::now() const { return A.Env.state(); }

} // namespace clang::devplace

#endif
