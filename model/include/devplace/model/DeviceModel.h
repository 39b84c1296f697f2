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
#include "devplace/model/Types.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
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

  /// Analyses \p FD (which must have a body); memoised.
  const FunctionFacts &analyze(const FunctionDecl *FD);

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

  /// classifyType(), remembered per canonical type for this translation
  /// unit: it is asked for on nearly every expression.
  DeviceCarrier classify(QualType T);
  /// qualifiedName(), remembered per declaration for this translation unit:
  /// the table is asked about the same callees at every visit of a block,
  /// and printing a qualified name costs more than the question.
  llvm::StringRef qualifiedName(const NamedDecl *D);

  /// Arena for steps; lives as long as the model.
  llvm::BumpPtrAllocator &arena() { return Arena; }
  /// Interned strings for steps. Not a UniqueStringSaver over the arena:
  /// its out-of-line allocation path (in libLLVM) does not unpoison what the
  /// inline, ASan-instrumented one poisons, so sanitizer builds would trip.
  llvm::StringRef save(llvm::StringRef S) {
    return Strings.insert(S).first->getKey();
  }

  /// The join of every value written to \p FD anywhere in the translation
  /// unit (so far), if any.
  std::optional<Fact> memberSummary(const FieldDecl *FD) const;
  void recordMember(const FieldDecl *FD, const Fact &F);
  /// The values lambdas of class \p Lambda captured, by variable.
  void recordCapture(const CXXRecordDecl *Lambda, const VarDecl *VD,
                     const Fact &F);
  template <typename Fn>
  void forEachCapture(const CXXRecordDecl *Lambda, Fn Each) const {
    for (const auto &[Key, F] : CaptureFacts)
      if (Key.first == Lambda)
        Each(Key.second, F);
  }
  /// How the module class \p RD registers its members (memoised).
  const ModuleRegistrations &registrations(const CXXRecordDecl *RD);
  /// \p RD is a base of a class of this code (not of a system header):
  /// a derived class may register its members.
  bool isBaseClass(const CXXRecordDecl *RD);
  /// \p Flag, a member of its class, is set by constructors alone: it is
  /// not public, the class has no friends, and no other method defined in
  /// the translation unit writes it (memoised).
  bool setOnlyByConstructors(const FieldDecl *Flag);
  /// True while \p FD is being analysed (recursion is cut there).
  bool inProgress(const FunctionDecl *FD) const {
    return InProgress.lookup(FD);
  }

private:
  ASTContext &Ctx;
  ApiTable Api;
  AnalysisOptions Opts;
  llvm::BumpPtrAllocator Arena;
  llvm::StringSet<> Strings;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Results;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
  llvm::DenseMap<const Type *, DeviceCarrier> Carriers;
  llvm::DenseMap<const NamedDecl *, llvm::StringRef> Names;
  llvm::DenseMap<const CXXRecordDecl *, std::unique_ptr<ModuleRegistrations>>
      Registrations;
  std::optional<llvm::DenseSet<const CXXRecordDecl *>> BaseClasses;
  llvm::DenseMap<const FieldDecl *, bool> ConstructorFlags;
  /// Per member, the join of the values written to it anywhere in the TU.
  llvm::DenseMap<const FieldDecl *, Fact> FieldFacts;
  static constexpr unsigned MaxMemberRounds = 4;
  bool MembersSettled = true;
  /// Per lambda class and captured variable, the value at the capture.
  llvm::DenseMap<std::pair<const CXXRecordDecl *, const VarDecl *>, Fact>
      CaptureFacts;
};

/// Renders a step as the text of a note.
std::string describe(const Step &S);

} // namespace devplace
} // namespace clang

#endif
