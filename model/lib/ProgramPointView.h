//===--- ProgramPointView.h - the trace's view of a state -------*- C++ -*-===//
#ifndef DEVPLACE_MODEL_PROGRAMPOINTVIEW_H
#define DEVPLACE_MODEL_PROGRAMPOINTVIEW_H

#include "Atoms.h"
#include "State.h"
#include "devplace/model/DeviceModel.h"

namespace clang::devplace {

/// The trace's view of the state after a statement.
class ProgramPointView : public ProgramPoint {
public:
  ProgramPointView(const State &S, const Atoms &A) : S(S), A(A) {}
  Mask reach() const override { return S.Reach; }
  std::optional<Fact> valueOf(const ValueDecl *D) const override {
    if (const Fact *F = S.Vals.lookup(D))
      return *F;
    return std::nullopt;
  }
  std::optional<Fact> memberOf(const VarDecl *Object,
                               const FieldDecl *Member) const override {
    if (const Fact *F = S.Members.lookup(MemberSlot(Object, Member)))
      return *F;
    return std::nullopt;
  }
  Mask pendingCopyIn(const ValueDecl *D) const override {
    const PendingCopy *P = S.Pending.lookup(D);
    return P ? P->When & S.Reach : 0;
  }
  std::vector<std::string> atoms() const override {
    return {A.texts().begin(), A.texts().end()};
  }

private:
  const State &S;
  const Atoms &A;
};

} // namespace clang::devplace

#endif
