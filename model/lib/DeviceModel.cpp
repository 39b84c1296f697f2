//===--- DeviceModel.cpp - the model of one translation unit --------------===//
//
// The public entry points: analyze (memoised per function), analyzeAll
// (rounds until class members' summaries settle) and trace. What the model
// keeps across the translation unit is TranslationUnitState's.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalysis.h"
#include "SummaryPorting.h"
#include "TranslationUnitState.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

DeviceModel::DeviceModel(ASTContext &Ctx, ApiTable Api, AnalysisOptions Opts)
    : Ctx(Ctx), Api(std::move(Api)), Opts(Opts),
      Unit(std::make_unique<TranslationUnitState>(Ctx, this->Api,
                                                  this->Opts.Project)) {}

DeviceModel::~DeviceModel() = default;

AnalysisStats &analysisStats() {
  static AnalysisStats Stats;
  return Stats;
}

const FunctionFacts &DeviceModel::analyze(const FunctionDecl *FD) {
  if (!FD->hasBody())
    if (const FunctionFacts *Facts = imported(FD))
      return *Facts;
  auto &Slot = Results[FD];
  if (Slot)
    return *Slot;
  auto Result = std::make_unique<FunctionFacts>();
  Unit->setInProgress(FD, true);
  FunctionAnalysis(*this, FD, *Result).run();
  Unit->setInProgress(FD, false);
  AnalysisStats &Stats = analysisStats();
  ++Stats.Functions;
  Stats.Blocks += Result->Blocks;
  Stats.Visits += Result->Visits;
  Stats.CutShort += !Result->Complete;
  if (Result->Blocks) {
    uint64_t Ratio = uint64_t(Result->Visits) * 100 / Result->Blocks;
    uint64_t Seen = Stats.MaxVisitsPerBlockX100;
    while (Ratio > Seen &&
           !Stats.MaxVisitsPerBlockX100.compare_exchange_weak(Seen, Ratio))
      ;
  }
  // The map may have grown while callees were analysed.
  auto &Final = Results[FD];
  Final = std::move(Result);
  return *Final;
}

const FunctionFacts *DeviceModel::imported(const FunctionDecl *FD) {
  SummaryExchange *Project = Opts.Project;
  if (!Project || !FD || FD->hasBody())
    return nullptr;
  FD = FD->getCanonicalDecl();
  if (auto It = Imports.find(FD); It != Imports.end())
    return It->second.get();
  std::unique_ptr<FunctionFacts> &Slot = Imports[FD];
  // LibTorch's own functions are declared in its headers and defined in
  // its libraries: never the project's.
  SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) ||
      Api.inNamespace(Unit->qualifiedName(FD), ApiRole::LibraryNamespace))
    return nullptr;
  std::string Name = linkageName(FD);
  if (Name.empty())
    return nullptr;
  uint64_t Hash = 0;
  const PortableSummary *S =
      Project->Imports ? Project->Imports->usable(Name, Hash) : nullptr;
  Project->Used[Name] = Hash;
  if (S)
    Slot = importSummary(*S, FD, *Unit, SM);
  return Slot.get();
}

std::optional<PortableSummary> DeviceModel::exported(const FunctionDecl *FD) {
  // A kernel's facts assume the dispatcher's arguments (FunctionScope's
  // summarisable): not a direct caller's.
  if (Unit->kernelRegistration(FD))
    return std::nullopt;
  return exportSummary(FD, analyze(FD), Ctx.getSourceManager());
}

std::optional<PortableSummary> DeviceModel::exported(const CXXRecordDecl *RD) {
  // This file's own scan, never one made whole from another file's
  // summary: a file speaks only for the methods it defines.
  if (!isNNModuleClass(RD))
    return std::nullopt;
  return exportRegistrations(RD, scanRegistrations(RD, Api));
}

void DeviceModel::trace(const FunctionDecl *FD, TraceFn Fn) {
  FunctionFacts Scratch;
  Unit->setInProgress(FD, true);
  FunctionAnalysis(*this, FD, Scratch, Fn).run();
  Unit->setInProgress(FD, false);
}

void DeviceModel::analyzeAll(
    const std::vector<const FunctionDecl *> &Functions) {
  // Every part of each member's fact: a round that adds only unknown
  // valuations or parameter bits has not settled either.
  auto Same = [](const auto &Before, const auto &After) {
    return Before.size() == After.size() &&
           llvm::all_of(llvm::zip(Before, After), [](const auto &Pair) {
             const auto &[B, A] = Pair;
             return B.first == A.first && B.second.sameAs(A.second);
           });
  };
  for (const FunctionDecl *FD : Functions)
    analyze(FD);
  // Members may pass device values to one another (a = b in one method,
  // b = x.cuda() in another): analyse again until the member summaries stop
  // changing. Summaries only grow, so this ends; the bound keeps it short.
  for (unsigned Round = 0; Round < MaxMemberRounds; ++Round) {
    if (!Unit->deviceMembers())
      return;
    auto Before = Unit->memberSummaries();
    Results.clear();
    for (const FunctionDecl *FD : Functions)
      analyze(FD);
    if (Same(Before, Unit->memberSummaries()))
      return;
  }
  MembersSettled = false;
}

} // namespace clang::devplace
