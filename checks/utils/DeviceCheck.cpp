//===--- DeviceCheck.cpp - base of the analysis-based checks --------------===//

#include "utils/DeviceCheck.h"
#include "utils/MainFileDecls.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include <map>
#include <set>

using namespace clang::ast_matchers;

namespace clang::tidy::devplace {

namespace {
/// The analyses of the translation unit being checked, one per
/// configuration. Thread-local because clangd builds translation units on
/// worker threads; cleared at the start of every translation unit, before
/// any check runs, so that no analysis outlives its AST.
struct Shared {
  const ASTContext *Ctx = nullptr;
  std::map<std::string, std::unique_ptr<DeviceModel>> Analyses;
  std::set<const DeviceModel *> Analysed; // analyzeAll has run
  std::set<const Decl *> Remarked;        // cut-short remarks already emitted
  /// The unit's exchange when the front end gave none but the process
  /// has summaries (an editor's server): imports only.
  SummaryExchange Imports;

  void reset(const ASTContext *For) {
    Imports = SummaryExchange();
    Imports.Imports = processSummaries();
    Imports.Exported = true; // nobody collects them
    Remarked.clear();
    Analysed.clear();
    Analyses.clear();
    Ctx = For;
  }
};
thread_local Shared SharedAnalyses;
} // namespace

DeviceCheck::DeviceCheck(StringRef Name, ClangTidyContext *Context)
    : MainFileCheck(Name, Context),
      AnalyzeHeaders(Options.getLocalOrGlobal("AnalyzeHeaders", false)),
      ReportAnalysisLimits(
          Options.getLocalOrGlobal("ReportAnalysisLimits", false)),
      VisitsPerBlockLimit(Options.getLocalOrGlobal(
          "VisitsPerBlockLimit", AnalysisOptions().MaxVisitsPerBlock)) {}

void DeviceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  MainFileCheck::storeOptions(Opts);
  Options.store(Opts, "AnalyzeHeaders", AnalyzeHeaders);
  Options.store(Opts, "ReportAnalysisLimits", ReportAnalysisLimits);
  Options.store(Opts, "VisitsPerBlockLimit", VisitsPerBlockLimit);
}

void DeviceCheck::onStartOfTranslationUnit() {
  MainFileCheck::onStartOfTranslationUnit();
  SharedAnalyses.reset(nullptr);
}

void DeviceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (SharedAnalyses.Ctx != &Ctx)
    SharedAnalyses.reset(&Ctx);
  std::string Key = tableOptions() + (AnalyzeHeaders ? "\nheaders" : "") +
                    "\n" + std::to_string(VisitsPerBlockLimit);
  std::unique_ptr<DeviceModel> &DA = SharedAnalyses.Analyses[Key];
  std::set<const DeviceModel *> &Analysed = SharedAnalyses.Analysed;
  if (!DA) {
    AnalysisOptions Opts;
    Opts.MaxVisitsPerBlock = std::max(1u, VisitsPerBlockLimit);
    Opts.Project = currentSummaryExchange();
    if (!Opts.Project && SharedAnalyses.Imports.Imports)
      Opts.Project = &SharedAnalyses.Imports;
    DA = std::make_unique<DeviceModel>(Ctx, api(), Opts);
  }
  std::vector<const FunctionDecl *> Functions =
      mainFileFunctions(Ctx, AnalyzeHeaders);
  if (!Analysed.count(DA.get())) {
    DA->analyzeAll(Functions);
    Analysed.insert(DA.get());
    exportSummaries(*DA, Functions, Ctx.getSourceManager());
  }
  startTranslationUnit();
  if (ReportAnalysisLimits && !DA->membersSettled() && !Functions.empty() &&
      SharedAnalyses.Remarked.insert(Ctx.getTranslationUnitDecl()).second)
    diag(Functions.front()->getLocation(),
         "class members' device summaries were still changing after the last "
         "analysis round; findings that go through members may be missing",
         DiagnosticIDs::Remark);
  for (const FunctionDecl *FD : Functions) {
    const FunctionFacts &R = DA->analyze(FD);
    // Said once per function, by whichever analysis check gets there first.
    if (!R.Complete && ReportAnalysisLimits &&
        SharedAnalyses.Remarked.insert(FD).second)
      diag(FD->getLocation(),
           "analysis of %0 stopped after %1 block visits (the bound is %2 per "
           "block of its %3); findings later in it may be missing",
           DiagnosticIDs::Remark)
          << FD << R.Visits - 1 << DA->options().MaxVisitsPerBlock << R.Blocks;
    Model = DA.get();
    report(FD, R, Ctx);
  }
}

void DeviceCheck::exportSummaries(
    DeviceModel &DA, const std::vector<const FunctionDecl *> &Functions,
    const SourceManager &SM) {
  // The first analysis of a unit speaks for it: the summaries of the
  // functions the main file defines, for the project's other files.
  SummaryExchange *Project = currentSummaryExchange();
  if (!Project || Project->Exported)
    return;
  Project->Exported = true;
  for (const FunctionDecl *FD : Functions) {
    if (!SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      continue;
    if (std::string Name = linkageName(FD); !Name.empty())
      if (std::optional<PortableSummary> S = DA.exported(FD))
        Project->Exports[Name] = std::move(*S);
    // And the registrations of the module classes whose methods it defines.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (std::string Key = classKey(MD->getParent());
          !Key.empty() && !Project->Exports.count(Key))
        if (std::optional<PortableSummary> S = DA.exported(MD->getParent()))
          Project->Exports[Key] = std::move(*S);
  }
}

void DeviceCheck::addProvenanceNotes(const Step *Why, SourceLocation At,
                                     const SourceManager &SM) {
  std::vector<const Step *> Chain;
  for (const Step *S = Why; S; S = S->Prev)
    Chain.push_back(S);
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const Step *S = *It;
    // A pointer step on the warning's own line says nothing new.
    if (S->K == Step::PointsInto && S->Subject.empty() &&
        SM.getExpansionLineNumber(S->Loc) == SM.getExpansionLineNumber(At))
      continue;
    diag(S->Loc, describe(*S), DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::devplace
