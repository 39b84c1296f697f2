//===--- SummaryBuilder.cpp - the function's summary at its exit ----------===//

#include "FunctionAnalysis.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

void SummaryBuilder::finish(const State &Exit) {
  if (!Out.Complete) {
    // Cut short, the states are below the fixpoint: every device
    // possibility found is real (joins only add), but "on every path" and
    // "only on the host" are not proven. Keep what still holds.
    for (HostAccess &Access : Out.Accesses)
      Access.Definite = false;
    for (HostSync &S : Out.Syncs)
      S.Definite = false;
    Out.Return = Fact::unknown();
    Out.ReturnElements.clear();
  }
  llvm::sort(Out.Accesses, [&](const HostAccess &X, const HostAccess &Y) {
    return Scope.SM.isBeforeInTranslationUnit(X.Sink->getBeginLoc(),
                                              Y.Sink->getBeginLoc());
  });
  // By-reference parameters the function writes: their value at the exit
  // (unknown when it gives them a value it cannot follow, or when the
  // analysis was cut short and the writes are not all known).
  for (unsigned I = 0; I < Scope.FD->getNumParams() && I < 32; ++I) {
    const ParmVarDecl *P = Scope.FD->getParamDecl(I);
    if (!Scope.isOutParam(P) || !Exit.Reach)
      continue;
    const Fact *F = Exit.Vals.lookup(P);
    if (!Out.Complete)
      Out.ParamOut.emplace_back(I, Fact::unknown());
    else if (F && (F->Host || F->Dev || F->Unknown ||
                   (F->Params & ~(1u << I)))) // another parameter's device
      Out.ParamOut.emplace_back(I, *F);
  }
  // The members of a reference parameter to a plain struct that the
  // function leaves with another value than the caller's.
  for (unsigned I = 0; I < Scope.FD->getNumParams() && I < 32; ++I) {
    const ParmVarDecl *P = Scope.FD->getParamDecl(I);
    if (!Scope.Storage.keepsMembers(P) || !Exit.Reach || !Out.Complete)
      continue;
    Out.ParamMembersFollowed.push_back(I);
    for (const FieldDecl *Field :
         P->getType().getNonReferenceType()->getAsCXXRecordDecl()->fields()) {
      if (!Scope.hasMemberFact(Field))
        continue;
      const Fact *F = Exit.Members.lookup(MemberSlot(P, Field));
      if (!F)
        Out.ParamMemberOut.emplace_back(I, Field, Fact::unknown());
      else if (F->Host || F->Dev || F->Unknown || F->Params != (1u << I))
        Out.ParamMemberOut.emplace_back(I, Field, *F);
    }
  }
  // A plain class's members at the exit, for callers' objects: those a
  // method may change, and those a constructor sets.
  if (Exit.Reach && Out.Complete) {
    for (auto [Field, Bit] : A.Objects.memberBits(Scope.FD))
      if (const Fact *F = Exit.Vals.lookup(Field))
        Out.MemberOut.emplace_back(Field, *F);
    if (const CXXRecordDecl *RD = A.Objects.constructedClass(Scope.FD))
      for (const FieldDecl *Field : RD->fields())
        if (const Fact *F = Exit.Vals.lookup(Field);
            F && Scope.hasMemberFact(Field))
          Out.MemberOut.emplace_back(Field, *F);
  }
  // A constructor that keeps its object to itself gives the other functions
  // its members as they are at its exit (unknown when cut short).
  if (A.Env.membersDeferred() && Exit.Reach)
    for (const auto &[Key, F] : Exit.Vals)
      if (const auto *Field = dyn_cast<FieldDecl>(Key))
        Model.unit().recordMember(Field, Out.Complete ? F : Fact::unknown());
  // Which parameters reach host code: the first access of each, and the
  // valuations under which any does.
  for (const HostAccess &Access : Out.Accesses)
    for (unsigned I = 0; I < 32; ++I) {
      if (!(Access.Params & (1u << I)))
        continue;
      auto It = llvm::find_if(Out.ParamSinks,
                              [&](const ParamSink &S) { return S.Index == I; });
      if (It == Out.ParamSinks.end())
        Out.ParamSinks.push_back({I, &Access, Access.ParamsWhen});
      else
        It->When |= Access.ParamsWhen;
    }
  if (!Out.Complete) // masks below the fixpoint prove no guard
    for (ParamSink &S : Out.ParamSinks)
      S.When = AllValuations;
  recordParamMeetings();
  Out.AtomOrigins.assign(A.Conditions.atoms().origins().begin(),
                         A.Conditions.atoms().origins().end());
}

void SummaryBuilder::recordParamMeetings() {
  // Cut short, a side that looks like the parameter alone may not be.
  if (!Out.Complete)
    return;
  // A side that is one parameter, as the caller passed it, on every path.
  auto OneParam = [&](const Fact &F) -> int {
    if (F.Host || F.Dev || F.Unknown || !llvm::has_single_bit(F.Params))
      return -1;
    unsigned I = llvm::countr_zero(F.Params);
    return I < Scope.FD->getNumParams() ? int(I) : -1;
  };
  for (unsigned I = 0; I < Out.Meetings.size(); ++I) {
    const Meeting &M = Out.Meetings[I];
    int PA = OneParam(M.FA), PB = OneParam(M.FB);
    std::optional<ParamMeeting> Found;
    if (PB >= 0 && deviceUnder(M.FA, M.Reach))
      Found = ParamMeeting{unsigned(PB), I, true};
    // A module parameter fed a tensor on a device is the caller's module.
    else if (PA >= 0 && M.K != Meeting::ModuleInput &&
             deviceUnder(M.FB, M.Reach))
      Found = ParamMeeting{unsigned(PA), I, false};
    if (Found && llvm::none_of(Out.ParamMeetings, [&](const ParamMeeting &P) {
          return P.Index == Found->Index;
        }))
      Out.ParamMeetings.push_back(*Found);
  }
}

} // namespace clang::devplace
