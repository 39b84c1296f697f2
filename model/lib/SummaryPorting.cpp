//===--- SummaryPorting.cpp - summaries to and from their portable form ---===//

#include "SummaryPorting.h"
#include "devplace/Compat.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

namespace {

/// \p Loc's file (absolute), line and column, where the expansion is.
void place(const SourceManager &SM, SourceLocation Loc, std::string &File,
           unsigned &Line, unsigned &Column) {
  if (Loc.isInvalid())
    return;
  SourceLocation E = SM.getExpansionLoc(Loc);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(E));
  if (!FE)
    return;
  llvm::SmallString<256> Path(FE->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  File = Path.str().str();
  Line = SM.getExpansionLineNumber(E);
  Column = SM.getExpansionColumnNumber(E);
}

PortableFact portable(const Fact &F, const SourceManager &SM) {
  PortableFact P;
  P.Value = F;
  P.Value.Why = nullptr;
  // An index names this unit's declarations and text: not carried.
  P.Value.Index = {};
  for (const Step *S = F.Why; S; S = S->Prev) {
    PortableStep Out;
    Out.K = S->K;
    place(SM, S->Loc, Out.File, Out.Line, Out.Column);
    Out.Subject = S->Subject.str();
    Out.Detail = S->Detail.str();
    Out.When = S->When.str();
    Out.Object = S->Object.str();
    Out.DeviceType = S->DeviceType.str();
    Out.SubjectIsDevice = S->SubjectIsDevice;
    P.Why.push_back(std::move(Out));
  }
  return P;
}

Fact local(const PortableFact &P, const FunctionDecl *FD,
           TranslationUnitState &Unit, SourceManager &SM) {
  Fact F = P.Value;
  // Bits past the parameters are the members of a method's object: this
  // unit does not follow them through another's summary (unknown there).
  if (uint32_t Members = FD->getNumParams() < 32
                             ? F.Params & ~((1u << FD->getNumParams()) - 1)
                             : 0) {
    F.Params &= ~Members;
    F.Unknown |= F.ParamsWhen;
    if (!F.Params)
      F.ParamsWhen = AllValuations;
  }
  const Step *Prev = nullptr;
  for (auto It = P.Why.rbegin(); It != P.Why.rend(); ++It) {
    auto *S = new (Unit.arena().Allocate<Step>())
        Step{It->K,
             compat::locationIn(SM, It->File, It->Line, It->Column),
             Unit.save(It->Subject),
             Unit.save(It->Detail),
             Unit.save(It->When),
             Prev,
             Prev ? Prev->Depth + 1 : 0};
    S->SubjectIsDevice = It->SubjectIsDevice;
    S->Object = Unit.save(It->Object);
    S->DeviceType = Unit.save(It->DeviceType);
    Prev = S;
  }
  F.Why = Prev;
  return F;
}

} // namespace

PortableSummary exportSummary(const FunctionDecl *FD, const FunctionFacts &F,
                              const SourceManager &SM) {
  PortableSummary S;
  S.Name = FD->getNameAsString();
  S.Return = portable(F.Return, SM);
  for (const Fact &E : F.ReturnElements)
    S.ReturnElements.push_back(portable(E, SM));
  for (const ParamSink &P : F.ParamSinks) {
    PortableSink Out;
    Out.Index = P.Index;
    Out.When = P.When;
    Out.UnknownOnly = P.Access->UnknownOnly;
    Out.Tensor = P.Access->Tensor;
    place(SM, P.Access->At, Out.File, Out.Line, Out.Column);
    S.ParamSinks.push_back(std::move(Out));
  }
  for (const AtomOrigin &O : F.AtomOrigins) {
    PortableAtom A;
    A.Param = O.Param;
    if (O.Shared)
      A.DeviceType = O.DeviceType.str();
    if (O.Member)
      A.Member = O.Member->getNameAsString();
    S.Atoms.push_back(std::move(A));
  }
  for (const auto &[Index, Exit] : F.ParamOut)
    S.ParamOut.emplace_back(Index, portable(Exit, SM));
  S.MayWait = F.MayWait;
  S.Complete = F.Complete;
  return S;
}

std::unique_ptr<FunctionFacts> importSummary(const PortableSummary &S,
                                             const FunctionDecl *FD,
                                             TranslationUnitState &Unit,
                                             SourceManager &SM) {
  auto F = std::make_unique<FunctionFacts>();
  F->Return = local(S.Return, FD, Unit, SM);
  for (const PortableFact &E : S.ReturnElements)
    F->ReturnElements.push_back(local(E, FD, Unit, SM));
  // The accesses first, then the sinks that point at them (the vector
  // does not grow after).
  std::vector<PortableSink> Sinks;
  for (const PortableSink &P : S.ParamSinks)
    if (P.Index < FD->getNumParams()) // not a member of the object
      Sinks.push_back(P);
  for (const PortableSink &P : Sinks) {
    HostAccess A{HostAccess::Read, nullptr,      nullptr, P.Tensor, "", false,
                 nullptr,          P.UnknownOnly};
    A.Params = P.Index < 32 ? 1u << P.Index : 0;
    A.ParamsWhen = P.When;
    A.At = compat::locationIn(SM, P.File, P.Line, P.Column);
    F->Accesses.push_back(std::move(A));
  }
  for (size_t I = 0; I < Sinks.size(); ++I)
    F->ParamSinks.push_back({Sinks[I].Index, &F->Accesses[I], Sinks[I].When});
  const auto *Class =
      isa<CXXMethodDecl>(FD) ? cast<CXXMethodDecl>(FD)->getParent() : nullptr;
  for (const PortableAtom &A : S.Atoms) {
    // An atom this unit cannot name stays free: its masks say nothing.
    AtomOrigin O;
    O.Param = A.Param < int(FD->getNumParams()) ? A.Param : -1;
    if (!A.DeviceType.empty()) {
      O.DeviceType = Unit.save(A.DeviceType);
      O.Shared = Unit.save("available:" + A.DeviceType).data();
    }
    if (!A.Member.empty() && Class)
      for (const FieldDecl *Field : Class->fields())
        if (Field->getName() == A.Member)
          O.Member = Field;
    F->AtomOrigins.push_back(O);
  }
  for (const auto &[Index, Exit] : S.ParamOut)
    if (Index < FD->getNumParams())
      F->ParamOut.emplace_back(Index, local(Exit, FD, Unit, SM));
  F->MayWait = S.MayWait;
  F->Complete = S.Complete;
  return F;
}

std::optional<PortableSummary>
exportRegistrations(const CXXRecordDecl *RD, const ModuleRegistrations &R) {
  if (!R.AllMethodsSeen || !R.ConstructorsSeen)
    return std::nullopt;
  PortableSummary S;
  S.Name = RD->getNameAsString();
  S.ModuleClass = true;
  // In declaration order, so that a summary's text is the same each run.
  for (const FieldDecl *Field : RD->fields())
    if (auto It = R.Members.find(Field); It != R.Members.end())
      S.Members.emplace_back(Field->getNameAsString(), It->second.Registered);
  S.RegistersAnything = R.RegistersAnything;
  S.ReadsTrainingMode = R.ReadsTrainingMode;
  return S;
}

void importRegistrations(const PortableSummary &S, const CXXRecordDecl *RD,
                         ModuleRegistrations &R) {
  if (!S.ModuleClass)
    return;
  ModuleRegistrations Whole;
  for (const auto &Member : S.Members) {
    auto Field = llvm::find_if(RD->fields(), [&](const FieldDecl *F) {
      return F->getName() == Member.first;
    });
    // The other file's class has a member this one lacks: not the same
    // class after all.
    if (Field == RD->field_end())
      return;
    Whole.Members[*Field].Registered = Member.second;
  }
  Whole.RegistersAnything = S.RegistersAnything;
  Whole.ReadsTrainingMode = S.ReadsTrainingMode;
  R = std::move(Whole);
}

} // namespace clang::devplace
