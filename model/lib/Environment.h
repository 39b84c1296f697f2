//===--- Environment.h - the state, and every change of it -----*- C++ -*-===//
//
// The only unit that changes the state: what a variable, a member of a
// local object, a tuple's element or a pending copy holds at the current
// statement, and what becomes unknown when a write reaches a place the
// model cannot name. It also makes the steps of provenance, which name the
// valuations under which the current statement runs.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_ENVIRONMENT_H
#define DEVPLACE_MODEL_ENVIRONMENT_H

#include "AnalysisUnit.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang::devplace {

class Environment : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// The state the next statements read and change (the driver's).
  void enter(State *S) { Cur = S; }
  const State &state() const { return *Cur; }

  //--- steps ---------------------------------------------------------------
  /// A new step; it names \p DeviceType, or else the one \p Prev names.
  /// \p DeviceType must outlive the model (the table's text, an
  /// identifier of the AST, or a string saved in the model).
  const Step *makeStep(Step::Kind K, SourceLocation Loc,
                       llvm::StringRef Subject, llvm::StringRef Detail,
                       const Step *Prev, llvm::StringRef DeviceType = {});

  //--- lookups -------------------------------------------------------------
  Fact lookup(const ValueDecl *Key, const Expr *Use);
  /// A member's TU-wide summary, widened (it was computed under other
  /// functions' conditions).
  /// A tensor member that its module registers (or may: the class's methods
  /// are not all here) is also where the module was last moved, which
  /// `->to(device)` anywhere may change: unknown as well.
  std::optional<Fact> memberSummary(const FieldDecl *FD);
  /// The element facts of tuple variable \p K, if kept.
  std::optional<llvm::SmallVector<Fact, 2>>
  elementsOf(const ValueDecl *K) const;

  //--- assignments ---------------------------------------------------------
  void assign(const ValueDecl *Key, Fact F, SourceLocation Loc, bool Weak,
              const Expr *Value);
  void assignMember(MemberSlot Slot, Fact F, SourceLocation Loc, bool Weak,
                    const Expr *Value);
  /// \p F as the value \p Name takes at \p Loc: its step names \p Name.
  Fact named(Fact F, llvm::StringRef Name, QualType T, SourceLocation Loc,
             bool Weak, const Expr *Value);
  /// Every member of the local object \p VD takes its element of \p Facts
  /// (by field index), or \p Otherwise when the model could not split the
  /// value into members.
  void setMembers(const VarDecl *VD,
                  const std::optional<llvm::SmallVector<Fact, 2>> &Facts,
                  const Fact &Otherwise, SourceLocation Loc);
  /// \p Key holds \p F from here, with no step of its own (a callee's
  /// write, a swap, a module's move).
  void set(const ValueDecl *Key, const Fact &F) { Cur->Vals[Key] = F; }
  /// Member \p Slot of a local object holds \p F (a method's update).
  void setMember(MemberSlot Slot, const Fact &F) { Cur->Members[Slot] = F; }
  /// \p Key is no longer tracked (a pointer nothing is known of).
  void erase(const ValueDecl *Key) { Cur->Vals.erase(Key); }
  /// Records \p F as a value of the class member \p Key for the other
  /// functions, unless this constructor records its members at its exit.
  void recordOwnMember(const ValueDecl *Key, const Fact &F);
  /// A constructor that nothing else sees its object through before it
  /// returns records its members at its exit (SummaryBuilder).
  void deferMemberWrites(bool Defer) { DeferMemberWrites = Defer; }
  bool membersDeferred() const { return DeferMemberWrites; }

  //--- containers and tuples -----------------------------------------------
  /// \p Value as it is once written into an element of \p Container
  /// (the note names the container).
  Fact elementWritten(const ValueDecl *Container, const Expr *Value,
                      SourceLocation Loc);
  /// `c[i] = v`, `c.front() = v`, `m[k] = v`: one element of \p Container
  /// is replaced, which one the model cannot tell, so what the container
  /// held before is unknown; it also holds \p Value.
  void replaceElement(const ValueDecl *Container, const Expr *Value,
                      SourceLocation Loc);
  /// `for (auto &t : batch) t = v`: \p Range also holds \p Value.
  void addElement(const ValueDecl *Range, const Expr *Value,
                  SourceLocation Loc);
  void setElements(const ValueDecl *K, llvm::ArrayRef<Fact> Facts);
  /// The range's value where each range-for (by its loop variable)
  /// evaluated it.
  std::optional<Fact> rangeValue(const VarDecl *LoopVar) const;
  void setRangeValue(const VarDecl *LoopVar, const Fact &F) {
    RangeValues[LoopVar] = F;
  }
  /// The value of a conditional operator's arm where it ran.
  std::optional<Fact> armValue(const Expr *Arm) const;
  void setArmValue(const Expr *Arm, const Fact &F) { ArmFacts[Arm] = F; }

  //--- pending copies ------------------------------------------------------
  void holdPending(const ValueDecl *K, std::optional<PendingCopy> P);
  void releasePending(const ValueDecl *K) { Cur->Pending.erase(K); }
  /// The device was waited for under \p Waits: copies pending only under
  /// those valuations have arrived.
  void waited(Mask Waits);

  //--- forgetting ----------------------------------------------------------
  /// The value stored at \p Place (a variable, a module, a container's
  /// element) is unknown from here on.
  void forgetValueAt(const Expr *Place, SourceLocation Loc);
  /// Every member of the local object \p Obj (when it keeps facts per
  /// member) and every reference into it is unknown: a write reached it
  /// that the model cannot place.
  void forgetMembers(const VarDecl *Obj);
  /// The object's references above become unknown.
  void forgetReferencesInto(const VarDecl *Obj);
  /// Each element of tuple \p K is unknown.
  void forgetElements(const ValueDecl *K);
  /// A write through a pointer to a tracked type (`*p = …`, a call given a
  /// `Tensor *`): every value whose address was taken is unknown.
  void forgetAddressTaken();

private:
  /// True when \p S describes \p E itself: \p E is the step's expression,
  /// or reaches it through conversions and chained calls on the same value
  /// (`x.cuda().to(kDouble)`, `TensorOptions().dtype(f).device(kCUDA)`),
  /// not through another value passed as an argument (`net(x.cuda())`).
  bool describesDirectly(const Step *S, const Expr *E);
  /// The local object \p Place is a part of, through members, std::get and
  /// subscripts (`r` in `std::get<0>(r).first`); null for the object itself
  /// or a place that is not part of a local.
  const VarDecl *enclosingObject(const Expr *Place) const;
  llvm::StringRef whenText();

  State *Cur = nullptr;
  // std::pair / std::tuple variables: one fact per element (joined over the
  // function), so that a (device, host) pair keeps its host element host.
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<Fact, 2>> Elements;
  llvm::DenseMap<const VarDecl *, Fact> RangeValues;
  // The values of conditional operators' arms where they ran.
  llvm::DenseMap<const Expr *, Fact> ArmFacts;
  bool DeferMemberWrites = false;
};

} // namespace clang::devplace

#endif
