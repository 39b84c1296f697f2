//===--- TranslationUnitState.h - what the model keeps per unit -*- C++ -*-===//
//
// The model's bookkeeping across one translation unit, behind the public
// DeviceModel: memos of type classes and qualified names, the steps' arena
// and strings, module registrations, base classes, constructor-set flags,
// the join of every value written to each class member, lambdas' captures,
// and which functions are being analysed (recursion is cut there).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_TRANSLATIONUNITSTATE_H
#define DEVPLACE_MODEL_TRANSLATIONUNITSTATE_H

#include "KernelRegistrations.h"
#include "devplace/model/DeviceModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::devplace {

class TranslationUnitState {
public:
  /// \p Project, when a front end runs one, gives the registrations of
  /// module classes whose methods another file defines.
  TranslationUnitState(ASTContext &Ctx, const ApiTable &Api,
                       SummaryExchange *Project = nullptr)
      : Ctx(Ctx), Api(Api), Project(Project) {}

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
  /// The first step of a value that comes from outside the function (a
  /// parameter, a member at a method's entry), named \p Name: no condition,
  /// nothing before it.
  const Step *originStep(SourceLocation Loc, llvm::StringRef Name) {
    return new (Arena.Allocate<Step>())
        Step{Step::UnknownOrigin, Loc, save(Name), "", "", nullptr, 0};
  }

  /// The join of every value written to \p FD anywhere in the translation
  /// unit (so far), if any.
  std::optional<Fact> memberSummary(const FieldDecl *FD) const;
  void recordMember(const FieldDecl *FD, const Fact &F);
  /// Every member's summary, in a stable order: what analyzeAll compares
  /// between rounds.
  std::vector<std::pair<const FieldDecl *, Fact>> memberSummaries() const;
  /// Some member may hold a device value.
  bool deviceMembers() const;
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
  /// The registration of \p FD as a kernel for an accelerator, if the
  /// translation unit makes one (memoised: one scan of its declarations).
  const KernelRegistration *kernelRegistration(const FunctionDecl *FD);
  /// \p RD is a base of a class of this code (not of a system header):
  /// a derived class may register its members.
  bool isBaseClass(const CXXRecordDecl *RD);
  /// The methods that override \p MD in the classes of this code
  /// (memoised; one scan of the declarations serves every method).
  llvm::ArrayRef<const CXXMethodDecl *> overriders(const CXXMethodDecl *MD);
  /// \p Flag, a member of its class, is set by constructors alone: it is
  /// not public, the class has no friends, and no other method defined in
  /// the translation unit writes it (memoised).
  bool setOnlyByConstructors(const FieldDecl *Flag);
  /// True while \p FD is being analysed (recursion is cut there).
  bool inProgress(const FunctionDecl *FD) const {
    return InProgress.lookup(FD);
  }
  void setInProgress(const FunctionDecl *FD, bool On) { InProgress[FD] = On; }

private:
  ASTContext &Ctx;
  const ApiTable &Api;
  SummaryExchange *Project;
  llvm::BumpPtrAllocator Arena;
  llvm::StringSet<> Strings;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
  llvm::DenseMap<const Type *, DeviceCarrier> Carriers;
  llvm::DenseMap<const NamedDecl *, llvm::StringRef> Names;
  llvm::DenseMap<const CXXRecordDecl *, std::unique_ptr<ModuleRegistrations>>
      Registrations;
  /// The declarations of this code (not of system headers) that the unit
  /// asks about: class definitions, the classes they derive from
  /// directly, and variables at namespace scope.
  struct CodeDeclarations {
    std::vector<const CXXRecordDecl *> Classes;
    llvm::DenseSet<const CXXRecordDecl *> Bases;
    std::vector<const VarDecl *> Variables;
  };
  std::optional<CodeDeclarations> Code;
  void scanDeclarations();
  llvm::DenseMap<const CXXMethodDecl *, std::vector<const CXXMethodDecl *>>
      Overriders;
  std::optional<llvm::DenseMap<const FunctionDecl *, KernelRegistration>>
      Kernels;
  llvm::DenseMap<const FieldDecl *, bool> ConstructorFlags;
  /// Per member, the join of the values written to it anywhere in the TU.
  llvm::DenseMap<const FieldDecl *, Fact> FieldFacts;
  /// Per lambda class and captured variable, the value at the capture.
  llvm::DenseMap<std::pair<const CXXRecordDecl *, const VarDecl *>, Fact>
      CaptureFacts;
};

} // namespace clang::devplace

#endif
