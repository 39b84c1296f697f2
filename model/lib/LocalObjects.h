//===--- LocalObjects.h - local objects, member by member ------*- C++ -*-===//
//
// A local object of a plain class (tensor members, no base classes) keeps a
// fact per member, as a variable does; functions returning such a class
// summarise each member, and methods say how they change their object
// (members are symbolic at their entry, after the parameters), so that
// `h.add(loss)` and `h.plot()` are followed for `h` alone.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_LOCALOBJECTS_H
#define DEVPLACE_MODEL_LOCALOBJECTS_H

#include "AnalysisUnit.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::devplace {

class LocalObjects : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// The class of method \p M when its members are symbolic in M's
  /// analysis (a non-static method of a class that splitsIntoMembers).
  const CXXRecordDecl *objectClass(const FunctionDecl *M);
  /// The members of \p M's object class with their symbolic bits (after
  /// M's parameters; only those below 32).
  llvm::SmallVector<std::pair<const FieldDecl *, unsigned>, 4>
  memberBits(const FunctionDecl *M);
  /// The class whose members constructor \p M sets, when its objects keep
  /// per-member facts (not a copy or move constructor).
  const CXXRecordDecl *constructedClass(const FunctionDecl *M);
  /// This function is a constructor that nothing else sees its object
  /// through before it returns (no method of its own, no `this` handed
  /// out): other functions see its members as they are at its exit, not
  /// each value it gives them on the way (`m_ = load(p); m_.to(kCUDA);`).
  bool membersPrivateUntilExit() const;
  /// The members, by field index, of the object \p CE constructs with a
  /// constructor of this code: what its summary says it leaves in each
  /// (MemberOut), in terms of \p CE's arguments.
  std::optional<llvm::SmallVector<Fact, 2>>
  constructedMembers(const CXXConstructExpr *CE);
  /// The local object \p E names, when it keeps per-member facts.
  const VarDecl *memberObjectOf(const Expr *E) const;
  /// The local object a member call goes through (`h` in `h.add(x)`), when
  /// it keeps per-member facts.
  const VarDecl *receiverObject(const CallExpr *CE) const;
  /// The member of a local object \p E names (`s.loss`), when that object
  /// keeps per-member facts.
  std::optional<MemberSlot> memberSlotOf(const Expr *E);
  /// A plain class's member at the entry of one of its methods: every
  /// object's (the TU-wide summary) and, symbolically, this object's.
  /// (\p WithOrigin: with the step that names the member, for notes; a
  /// comparison needs none.)
  Fact memberAtEntry(const FieldDecl *Field, unsigned Bit,
                     bool WithOrigin = true);
  /// Member facts of the receiver after a call to a method whose summary
  /// says how it changes them (only those it changes); none when \p E is no
  /// such call.
  std::optional<llvm::SmallVector<std::pair<MemberSlot, Fact>, 4>>
  memberUpdates(const Expr *E);
};

} // namespace clang::devplace

#endif
