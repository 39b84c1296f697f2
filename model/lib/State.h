//===--- State.h - the abstract state at one program point ------*- C++ -*-===//
#ifndef DEVPLACE_MODEL_STATE_H
#define DEVPLACE_MODEL_STATE_H

#include "devplace/model/Lattice.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <utility>

namespace clang {
class Expr;
class ValueDecl;
class VarDecl;
class FieldDecl;
namespace devplace {

/// The facts of the values live at one program point, sorted by key. A
/// point has a handful of live tracked variables, and a function has
/// thousands of points: a sorted small vector is both smaller and faster
/// here than a hash map (which allocates 64 buckets for its first entry).
template <typename KeyT, typename ValueT = Fact> class FactMap {
public:
  using Entry = std::pair<KeyT, ValueT>;
  using iterator = typename llvm::SmallVector<Entry, 4>::iterator;
  using const_iterator = typename llvm::SmallVector<Entry, 4>::const_iterator;

  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }

  iterator find(const KeyT &K) {
    iterator It = lowerBound(K);
    return It != end() && It->first == K ? It : end();
  }
  const ValueT *lookup(const KeyT &K) const {
    auto It = const_cast<FactMap *>(this)->find(K);
    return It == Entries.end() ? nullptr : &It->second;
  }
  ValueT &operator[](const KeyT &K) {
    iterator It = lowerBound(K);
    if (It == end() || It->first != K)
      It = Entries.insert(It, Entry(K, ValueT{}));
    return It->second;
  }
  void erase(const KeyT &K) {
    iterator It = find(K);
    if (It != end())
      Entries.erase(It);
  }
  /// Keeps the entries \p Keep accepts.
  template <typename Pred> void retain(Pred Keep) {
    llvm::erase_if(Entries, [&](const Entry &E) { return !Keep(E.first); });
  }
  bool empty() const { return Entries.empty(); }

private:
  iterator lowerBound(const KeyT &K) {
    return llvm::lower_bound(Entries, K, [](const Entry &E, const KeyT &Key) {
      return std::less<KeyT>()(E.first, Key);
    });
  }
  llvm::SmallVector<Entry, 4> Entries;
};

/// Tracked variables, parameters and members of `this`.
using VarFacts = FactMap<const ValueDecl *>;
/// A member of a local object of a plain struct (`s.loss` of `Stats s`):
/// each object keeps its own facts, as a variable does.
using MemberSlot = std::pair<const VarDecl *, const FieldDecl *>;
using MemberFacts = FactMap<MemberSlot>;

/// A host copy made with non_blocking=true of a tensor that may be on a
/// device: it returns before the data has arrived, so until something waits
/// for the device its memory may not hold the values yet.
struct PendingCopy {
  Mask When = 0;              ///< valuations under which nothing has waited
  const Expr *Copy = nullptr; ///< the `.to(kCPU, true)` call
  bool operator==(const PendingCopy &O) const {
    return When == O.When && Copy == O.Copy;
  }
};
/// Locals that hold such a copy.
using PendingCopies = FactMap<const ValueDecl *, PendingCopy>;

/// The abstract state at one program point.
struct State {
  Mask Reach = 0; ///< valuations that reach this point; 0 = unreachable
  VarFacts Vals;
  MemberFacts Members;
  PendingCopies Pending;
};

/// Joins \p In into \p Into; returns true when \p Into changed.
bool joinInto(State &Into, const State &In);

} // namespace devplace
} // namespace clang

#endif
