//===--- Places.h - where values live, and their other names -- -*- C++ -*-===//
//
// Before any flow, what a function's body says about the places its values
// are stored in and the names that reach them:
//   - a reference bound to a variable is that variable (bound as the flow
//     reaches its declaration), and keeps it alive while it lives;
//   - a value whose address is taken may be written through any pointer;
//   - a local object of a plain struct keeps one place per member, unless
//     another name may reach the whole object (a reference, a pointer, a
//     capture by reference); references bound to its members are places
//     of their own that a write to the object makes unknown;
//   - a call given such an object by non-const reference or pointer, or a
//     non-const method called on it, changes it;
//   - a range-for's variable names each element of its range in turn, and
//     a loop that assigns every element replaces the range's contents.
// The transfer functions ask these questions; the state keeps the fact of
// each place.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_PLACES_H
#define DEVPLACE_MODEL_PLACES_H

#include "devplace/model/DeviceModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::devplace {

class Places {
public:
  explicit Places(DeviceModel &Model) : Model(Model) {}

  /// Reads \p FD's body once, before the flow.
  void scan(const FunctionDecl *FD);

  //--- types ---------------------------------------------------------------
  /// A plain struct of this code with members whose device the model
  /// follows (tensors, devices, containers of them), and no base classes:
  /// its objects, and functions returning it, keep a place per member.
  bool splitsIntoMembers(QualType T) const;
  /// A member that gets a place of its own in a local object.
  bool hasMemberPlace(const FieldDecl *Field) const;

  //--- local objects -------------------------------------------------------
  /// \p Obj is a local object that keeps a place per member: no other
  /// name reaches the whole object.
  bool keepsMembers(const VarDecl *Obj) const {
    return MemberObjects.contains(Obj);
  }
  /// The local references bound to members of \p Obj (`auto &m = r.main;`)
  /// when \p Obj keeps a place per member.
  llvm::ArrayRef<const VarDecl *> referencesInto(const VarDecl *Obj) const;
  /// The local objects that keep a place per member and that the call \p E
  /// may change without saying how.
  llvm::ArrayRef<const VarDecl *> objectsChangedBy(const Expr *E) const;

  //--- pointers ------------------------------------------------------------
  /// \p D's address is taken (`&t`): a write through a pointer may reach it.
  bool addressTaken(const ValueDecl *D) const { return AddressTaken.count(D); }
  /// Every value a write through a pointer may reach.
  const llvm::DenseSet<const ValueDecl *> &reachableByPointers() const {
    return AddressTaken;
  }

  //--- range-for -----------------------------------------------------------
  /// The range a range-for's loop variable walks, or null.
  const Expr *rangeOf(const VarDecl *LoopVar) const {
    return RangeInits.lookup(LoopVar);
  }
  bool isLoopVariable(const VarDecl *VD) const { return RangeInits.count(VD); }
  /// The loop variable whose range the hidden `__range` variable holds.
  const VarDecl *loopVariableOf(const VarDecl *RangeVar) const {
    return RangeLoopVars.lookup(RangeVar);
  }
  /// The loop assigns every element through its reference variable
  /// (`for (auto &t : outs) t = t.cpu();`) on every iteration, none of
  /// which leaves early: once it is done, no element holds its old value.
  bool replacesEveryElement(const VarDecl *LoopVar) const {
    return ReplacingLoops.contains(LoopVar);
  }
  /// The loop walks a map: its variable's `.second` is one of the values.
  bool iteratesMap(const VarDecl *LoopVar) const {
    return MapEntries.contains(LoopVar);
  }

  /// \p E is an arm of a conditional operator (`c ? a : b`): its value
  /// where it ran is what the operator gives.
  bool isConditionalArm(const Expr *E) const { return Arms.contains(E); }

  //--- other names ---------------------------------------------------------
  /// \p Ref, a reference, is bound to the variable \p Target.
  void bindReference(const ValueDecl *Ref, const ValueDecl *Target) {
    Aliases[Ref] = Target;
    KeptAlive.insert(Target);
  }
  /// The variable \p D names: its target when \p D is a reference.
  const ValueDecl *canonical(const ValueDecl *D) const {
    auto It = Aliases.find(D);
    return It == Aliases.end() ? D : It->second;
  }
  /// \p D's value is kept to the function's exit (an out-parameter, the
  /// target of a reference), read or not.
  void keepAlive(const ValueDecl *D) { KeptAlive.insert(D); }
  bool keptAlive(const ValueDecl *D) const { return KeptAlive.contains(D); }

private:
  DeviceModel &Model;
  llvm::DenseSet<const VarDecl *> MemberObjects;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const VarDecl *, 2>>
      ReferencesInto;
  llvm::DenseMap<const Expr *, llvm::SmallVector<const VarDecl *, 1>> Changes;
  llvm::DenseSet<const ValueDecl *> AddressTaken;
  llvm::DenseMap<const VarDecl *, const Expr *> RangeInits;
  llvm::DenseMap<const VarDecl *, const VarDecl *> RangeLoopVars;
  llvm::DenseSet<const VarDecl *> ReplacingLoops;
  llvm::DenseSet<const VarDecl *> MapEntries;
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> Aliases;
  llvm::DenseSet<const ValueDecl *> KeptAlive;
  llvm::DenseSet<const Expr *> Arms;
};

} // namespace clang::devplace

#endif
