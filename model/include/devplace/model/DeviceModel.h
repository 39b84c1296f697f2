//===--- DeviceModel.h - where may each tensor live? ------------*- C++ -*-===//
//
// The device model of one translation unit: a per-function, flow-sensitive
// analysis of the device of every LibTorch value a function touches
// (tensors, devices, tensor options, IValues, modules, containers of them,
// and raw pointers into tensor memory), with summaries that carry facts
// across calls, class members and lambda captures.
//
// The model knows the API through its table (ApiTable) and knows nothing of
// any rule: it records facts (Facts.h); rules in checks/ read them.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_DEVICEMODEL_H
#define DEVPLACE_MODEL_DEVICEMODEL_H

#include "devplace/model/ApiTable.h"
#include "devplace/model/Facts.h"
#include "devplace/model/Modules.h"
#include "devplace/model/ProjectSummaries.h"
#include "devplace/model/Types.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class FieldDecl;
class ValueDecl;
class VarDecl;
class Stmt;
namespace devplace {

class TranslationUnitState;

/// What the model knows at one point of a function, after its fixpoint: the
/// view a trace (and the model's unit tests) gets after each statement.
class ProgramPoint {
public:
  virtual ~ProgramPoint() = default;
  /// Valuations of the atoms under which this point is reached.
  virtual Mask reach() const = 0;
  /// The fact of a tracked local, parameter or member here, if tracked.
  virtual std::optional<Fact> valueOf(const ValueDecl *D) const = 0;
  /// The fact of member \p Member of the local object \p Object here, when
  /// that object keeps a fact per member (a plain struct of tensors).
  virtual std::optional<Fact> memberOf(const VarDecl *Object,
                                       const FieldDecl *Member) const = 0;
  /// Valuations under which the local \p D holds a host copy made with
  /// non_blocking=true that nothing has waited for since (0 when none).
  virtual Mask pendingCopyIn(const ValueDecl *D) const = 0;
  /// The atoms, in the order they were found ("'use_gpu'").
  virtual std::vector<std::string> atoms() const = 0;
};
using TraceFn = llvm::function_ref<void(const Stmt *, const ProgramPoint &)>;

/// Analyses functions of one translation unit, memoising per function so
/// that each is analysed once and callers can use callee summaries.
class DeviceModel {
public:
  DeviceModel(ASTContext &Ctx, ApiTable Api, AnalysisOptions Opts);
  ~DeviceModel();

  /// Analyses \p FD (which must have a body, or a summary from another
  /// translation unit: imported()); memoised.
  const FunctionFacts &analyze(const FunctionDecl *FD);

  /// The facts of \p FD, declared here and defined in another translation
  /// unit of the project, from that unit's summary; null when the project
  /// has none (or \p FD has a body here). Memoised; each name looked up is
  /// recorded in the exchange, found or not.
  const FunctionFacts *imported(const FunctionDecl *FD);
  /// The summary of \p FD (defined here) for other translation units;
  /// none for a kernel registered for an accelerator (its facts assume the
  /// dispatcher's arguments).
  std::optional<PortableSummary> exported(const FunctionDecl *FD);
  /// The registrations of module class \p RD, when this unit defines
  /// every one of its methods, for units that see only its declaration.
  std::optional<PortableSummary> exported(const CXXRecordDecl *RD);

  /// Analyses all of \p Functions. Class members are summarised across the
  /// translation unit (the join of every value written to them, whichever
  /// object and method); when some member may hold a device value, the
  /// functions are analysed again (at most MaxMemberRounds times) until the
  /// member summaries stop changing, so that reads see every write.
  void analyzeAll(const std::vector<const FunctionDecl *> &Functions);

  /// Runs the analysis of \p FD once more and calls \p Fn after each
  /// statement of the final pass, in the order the blocks run.
  void trace(const FunctionDecl *FD, TraceFn Fn);

  /// False when member summaries were still changing after the last round
  /// analyzeAll allows: reads of members may miss some writes.
  bool membersSettled() const { return MembersSettled; }

  ASTContext &context() const { return Ctx; }
  const ApiTable &api() const { return Api; }
  const AnalysisOptions &options() const { return Opts; }

  /// What the model keeps across the translation unit (model/lib's
  /// TranslationUnitState): for the model's own units.
  TranslationUnitState &unit() const { return *Unit; }

private:
  ASTContext &Ctx;
  ApiTable Api;
  AnalysisOptions Opts;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Results;
  /// imported()'s answers, by canonical declaration (null: none).
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Imports;
  static constexpr unsigned MaxMemberRounds = 4;
  bool MembersSettled = true;
  std::unique_ptr<TranslationUnitState> Unit;
};

/// Renders a step as the text of a note.
std::string describe(const Step &S);

} // namespace devplace
} // namespace clang

#endif
