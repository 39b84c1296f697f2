//===--- State.cpp - the abstract state and its join ----------------------===//

#include "State.h"

namespace clang::devplace {

/// Joins the facts of \p In (reached under \p InReach) into \p Into (reached
/// under \p OldReach so far); returns true when \p Into changed.
template <typename KeyT>
static bool joinFacts(FactMap<KeyT> &Into, Mask OldReach,
                      const FactMap<KeyT> &In, Mask InReach) {
  bool Changed = false;
  for (const auto &[Key, F] : In) {
    Fact Incoming = restrict(F, InReach);
    auto It = Into.find(Key);
    if (It == Into.end()) {
      Into[Key] = Incoming;
      Changed = true;
      continue;
    }
    Fact J = join(restrict(It->second, OldReach), Incoming);
    if (!J.sameAs(It->second))
      Changed = true;
    It->second = J;
  }
  return Changed;
}

/// Pending copies: a copy is still pending where it is on some path (a
/// read on the path where nothing waited is a read too early).
static bool joinPending(PendingCopies &Into, Mask OldReach,
                        const PendingCopies &In, Mask InReach) {
  bool Changed = false;
  for (const auto &[Key, P] : In) {
    Mask Incoming = P.When & InReach;
    if (!Incoming)
      continue;
    auto It = Into.find(Key);
    if (It == Into.end()) {
      Into[Key] = PendingCopy{Incoming, P.Copy};
      Changed = true;
      continue;
    }
    Mask J = (It->second.When & OldReach) | Incoming;
    Changed |= J != It->second.When;
    It->second.When = J;
  }
  return Changed;
}

bool joinInto(State &Into, const State &In) {
  if (!In.Reach)
    return false;
  bool Changed = (Into.Reach | In.Reach) != Into.Reach;
  Mask OldReach = Into.Reach;
  Into.Reach |= In.Reach;
  Changed |= joinFacts(Into.Vals, OldReach, In.Vals, In.Reach);
  Changed |= joinFacts(Into.Members, OldReach, In.Members, In.Reach);
  Changed |= joinPending(Into.Pending, OldReach, In.Pending, In.Reach);
  return Changed;
}

} // namespace clang::devplace
