//===--- ProjectRun.cpp - analyse many files, in parallel -----------------===//
//
// The per-file run is clang-tidy's runClangTidy with one addition: a second
// AST consumer records where each function in the project's own files begins
// and ends, so findings can name their enclosing function (baseline keys and
// SARIF logical locations).
//
//===----------------------------------------------------------------------===//

#include "ProjectRun.h"
#include "FileOrder.h"
#include "Preamble.h"
#include "ResultCache.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "devplace/Compat.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <mutex>
#include <set>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

namespace devplace_tool {

namespace {

class FunctionSpans : public RecursiveASTVisitor<FunctionSpans> {
public:
  FunctionSpans(SourceManager &SM, FunctionIndex &Out) : SM(SM), Out(Out) {}

  bool TraverseDecl(Decl *D) {
    // Library headers hold most of a LibTorch TU; findings are not there.
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool TraverseStmt(Stmt *) { return true; } // bodies hold no named functions

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody())
      return true;
    CharSourceRange R = SM.getExpansionRange(FD->getSourceRange());
    auto [BeginFile, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    if (BeginFile != EndFile || BeginFile.isInvalid())
      return true;
    auto Entry = SM.getFileEntryRefForID(BeginFile);
    if (!Entry)
      return true;
    std::string Name = FD->getQualifiedNameAsString();
    Out[absolutePath(Entry->getName(), BuildDir())].push_back({Begin, End, Name});
    return true;
  }

private:
  std::string BuildDir() {
    auto CWD = SM.getFileManager().getVirtualFileSystem().getCurrentWorkingDirectory();
    return CWD ? *CWD : std::string();
  }
  SourceManager &SM;
  FunctionIndex &Out;
};

class FunctionIndexer : public ASTConsumer {
public:
  explicit FunctionIndexer(FunctionIndex &Out) : Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    FunctionSpans(Ctx.getSourceManager(), Out).TraverseAST(Ctx);
  }

private:
  FunctionIndex &Out;
};

/// Limits every later consumer's traversal to the top-level declarations
/// written in the main file, as clangd does (ParsedAST::build): the
/// matchers then never walk LibTorch's headers, which over a precompiled
/// preamble would deserialise most of it. The TU declaration itself is
/// still visited (RecursiveASTVisitor's TraverseTranslationUnitDecl honours
/// the scope), so the checks' translation-unit matcher still fires; the
/// model reaches header functions' bodies on demand, through their
/// declarations.
class MainFileScope : public ASTConsumer {
public:
  explicit MainFileScope(const SourceManager &SM) : SM(SM) {}
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (D->getLocation().isValid() &&
          SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation())))
        Decls.push_back(D);
    return true;
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    Ctx.setTraversalScope(Decls);
  }

private:
  const SourceManager &SM;
  std::vector<Decl *> Decls;
};

class Action : public ASTFrontendAction {
public:
  Action(ClangTidyASTConsumerFactory &Tidy, FunctionIndex &Functions,
         bool MainFileOnly)
      : Tidy(Tidy), Functions(Functions), MainFileOnly(MainFileOnly) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    // First, so that its scope is set before the others run.
    if (MainFileOnly)
      Consumers.push_back(
          std::make_unique<MainFileScope>(CI.getSourceManager()));
    Consumers.push_back(Tidy.createASTConsumer(CI, File));
    Consumers.push_back(std::make_unique<FunctionIndexer>(Functions));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  ClangTidyASTConsumerFactory &Tidy;
  FunctionIndex &Functions;
  bool MainFileOnly;
};

class ActionFactory : public FrontendActionFactory {
public:
  ActionFactory(ClangTidyContext &Context, FunctionIndex &Functions,
                IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS,
                bool MainFileOnly)
      : Tidy(Context, std::move(FS)), Functions(Functions),
        MainFileOnly(MainFileOnly) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Tidy, Functions, MainFileOnly);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    setUpAsAnalysis(*Invocation);
    // No "N errors generated." from each of many parallel files: the
    // summary line counts what failed.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    return FrontendActionFactory::runInvocation(Invocation, Files, PCHContainerOps,
                                                DiagConsumer);
  }

private:
  ClangTidyASTConsumerFactory Tidy;
  FunctionIndex &Functions;
  bool MainFileOnly;
};

} // namespace

/// The cache key of everything but the files the compiler will read.
static std::string cacheKey(ResultCache &Cache, const std::string &File,
                            const CompilationDatabase &Compilations,
                            ClangTidyContext &Context, bool ApplyAnyFix) {
  SmallString<256> Abs(File);
  sys::fs::make_absolute(Abs);
  ClangTidyOptions Options = Context.getOptionsForFile(Abs);
  Options.User.reset(); // read by no devplace check; CI machines differ
  std::vector<std::string> Commands;
  for (const CompileCommand &C : Compilations.getCompileCommands(Abs)) {
    std::string Text = C.Directory + '\0' + C.Filename;
    for (const std::string &Arg : C.CommandLine)
      Text += '\0' + Arg;
    Commands.push_back(std::move(Text));
  }
  return Cache.key(Abs, configurationAsText(Options), Commands, ApplyAnyFix);
}

/// clang-tidy's own adjustments of a file's arguments: the configuration's
/// ExtraArgsBefore and ExtraArgs, plugins stripped; and the bundled
/// resource directory, first, where this binary has one.
static ArgumentsAdjuster tidyAdjuster(ClangTidyContext &Context,
                                      const RunSettings &Settings) {
  return combineAdjusters(
      [&Context, &Settings](const CommandLineArguments &Args,
                            StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        CommandLineArguments Adjusted = Args;
        std::vector<std::string> Before;
        if (!Settings.ResourceDir.empty())
          Before.push_back("-resource-dir=" + Settings.ResourceDir);
        if (Opts.ExtraArgsBefore)
          Before.insert(Before.end(), Opts.ExtraArgsBefore->begin(),
                        Opts.ExtraArgsBefore->end());
        if (!Before.empty()) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
            ++I; // after the compiler's name
          Adjusted.insert(I, Before.begin(), Before.end());
        }
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(), Opts.ExtraArgs->end());
        // A PCH records content hashes, and is checked by them where a
        // checkout changed only the times of its headers.
        Adjusted.push_back("-fpch-validate-input-files-content");
        return Adjusted;
      },
      getStripPluginsAdjuster());
}

/// Whether a parse over a preamble may have failed because of it: some
/// compiler error other than a header not found (the preamble changes no
/// include search: such a file fails alone too, so it is not parsed twice).
static bool mayBePreamblesFault(const FileResult &R) {
  for (const ClangTidyError &E : R.Errors)
    if (E.DiagLevel == ClangTidyError::Error &&
        StringRef(E.DiagnosticName).starts_with("clang-diagnostic-") &&
        !StringRef(E.Message.Message).ends_with("file not found"))
      return true;
  return false;
}

/// Parses and analyses \p File, over \p Preamble when there is one.
static FileResult analyseFile(const std::string &File,
                              const CompilationDatabase &Compilations,
                              const OptionsProviderFactory &MakeOptions,
                              const RunSettings &Settings,
                              const PreambleFile *Preamble) {
  FileResult Result;
  Result.File = File;
  ClangTidyContext Context(MakeOptions());
  ResultCache *Cache = Settings.Cache;
  // A file system with its own working directory: the real one would make
  // ClangTool chdir the whole process, under the other threads. With a
  // cache, it also records every file the compiler looks at.
  IntrusiveRefCntPtr<DependencyRecorder> Recorder;
  IntrusiveRefCntPtr<vfs::FileSystem> Base = vfs::createPhysicalFileSystem();
  if (Cache)
    Base = Recorder = makeIntrusiveRefCnt<DependencyRecorder>(Base);
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Base);
  ClangTool Tool(Compilations, {File},
                 std::make_shared<PCHContainerOperations>(), FS);
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(tidyAdjuster(Context, Settings));
  if (Preamble)
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        PreambleStore::useArguments(*Preamble), ArgumentInsertPosition::END));

  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true,
                                           Settings.ApplyAnyFix);
  clang::devplace::compat::TidyDiagnosticsEngine DE(Context, DiagConsumer);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  // Headers are traversed only where something may be reported in them.
  ClangTidyOptions Effective = Context.getOptionsForFile(File);
  bool MainFileOnly = Settings.MainFileTraversal &&
                      Effective.HeaderFilterRegex.value_or("").empty() &&
                      !Effective.SystemHeaders.value_or(false);
  ActionFactory Factory(Context, Result.Functions, FS, MainFileOnly);
  clang::devplace::SummaryExchange Exchange;
  Exchange.Imports = Settings.Summaries;
  clang::devplace::SummaryExchange *&Current =
      clang::devplace::currentSummaryExchange();
  Current = Settings.Summaries ? &Exchange : nullptr;
  Tool.run(&Factory);
  Current = nullptr;
  Result.Exports = std::move(Exchange.Exports);
  Result.Used = std::move(Exchange.Used);
  Result.Errors = DiagConsumer.take();
  for (ClangTidyError &E : Result.Errors)
    makePathsAbsolute(E);
  // Over a preamble, a compiler error may be the preamble's (a header
  // without include guards read twice): the file is parsed again alone.
  if (Preamble && mayBePreamblesFault(Result)) {
    if (sys::Process::GetEnv("DEVPLACE_CACHE_EXPLAIN"))
      errs() << "devplace: " << File << " parsed again without its preamble\n";
    return analyseFile(File, Compilations, MakeOptions, Settings, nullptr);
  }
  if (Recorder) {
    std::map<std::string, std::string> Dependencies = Recorder->take();
    if (Preamble) {
      // What the preamble read stands for what the parse skipped; the
      // precompiled file itself is named by the key, not a dependency.
      Dependencies.erase(Preamble->Pch);
      for (const auto &[Path, What] : Preamble->Dependencies) {
        std::string &Slot = Dependencies[Path];
        if (Slot.empty() || StringRef(What).starts_with("r:"))
          Slot = What;
      }
    }
    Result.Dependencies = std::move(Dependencies);
  }
  return Result;
}

/// The single compile command of \p File, or none when it has several.
static std::optional<CompileCommand>
singleCommand(const std::string &File,
              const CompilationDatabase &Compilations) {
  std::vector<CompileCommand> Commands = Compilations.getCompileCommands(File);
  if (Commands.size() != 1)
    return std::nullopt;
  return Commands.front();
}

namespace {
/// A file the cache did not answer.
struct Pending {
  std::string File;
  std::string Key; // the cache's
  std::optional<PreamblePlan> Plan;
};
} // namespace

/// Which prefix of its leading lines each file shares, if any. Building a
/// preamble costs about one parse, so one pays when more files than the
/// threads that parse at once share it (the others parse alone while it
/// builds), or when one is kept from an earlier run. A file takes the
/// prefix the most files share, the longer one on a tie: files that all
/// begin with <torch/torch.h> and then differ share that line's preamble.
/// Files whose commands differ only in their include directories count as
/// sharing, and each group of them is given one donor, the preamble its
/// other files are parsed over where they find every header alike.
static void choosePreambles(std::vector<Pending> &Work, PreambleStore &Store,
                            const RunSettings &Settings) {
  unsigned Threshold = std::max(1u, Settings.Jobs);
  std::map<std::string, unsigned> Exact; // prefix key -> files
  auto Worth = [&](const std::string &Key, unsigned Files) {
    return Files > Threshold || Store.kept(Key);
  };
  // With --preamble=always, every plan keeps all its lines.
  if (Settings.Preamble != PreambleUse::Always) {
    std::map<std::string, unsigned> Sharing; // group key -> files
    for (const Pending &P : Work)
      if (P.Plan)
        for (size_t N = 1; N <= P.Plan->Lines.size(); ++N) {
          ++Sharing[P.Plan->groupKey(N)];
          ++Exact[P.Plan->prefixKey(N)];
        }
    for (Pending &P : Work) {
      if (!P.Plan)
        continue;
      size_t Best = 0;
      unsigned BestCount = 0;
      for (size_t N = 1; N <= P.Plan->Lines.size(); ++N) {
        unsigned Count = Sharing[P.Plan->groupKey(N)];
        if (Store.kept(P.Plan->prefixKey(N)))
          Count = std::max(Count, Threshold + 1);
        if (Count > Threshold && Count >= BestCount) {
          Best = N;
          BestCount = Count;
        }
      }
      if (!Best) {
        P.Plan.reset();
        continue;
      }
      P.Plan->take(Best);
      P.Plan->OwnPays = Worth(P.Plan->Key, Exact[P.Plan->Key]);
    }
  }
  // The donor of a group: a preamble kept from an earlier run, else the
  // one the most of its files would build.
  std::map<std::string, std::shared_ptr<const PreamblePlan>> Donors;
  std::map<std::string, std::pair<bool, unsigned>> DonorRank;
  for (const Pending &P : Work) {
    if (!P.Plan)
      continue;
    std::pair<bool, unsigned> Rank{Store.kept(P.Plan->Key), Exact[P.Plan->Key]};
    auto [It, New] = DonorRank.try_emplace(P.Plan->Group, Rank);
    if (New || Rank > It->second) {
      It->second = Rank;
      Donors[P.Plan->Group] = std::make_shared<const PreamblePlan>(*P.Plan);
    }
  }
  for (Pending &P : Work)
    if (P.Plan) {
      const std::shared_ptr<const PreamblePlan> &Donor = Donors[P.Plan->Group];
      if (Donor->Key != P.Plan->Key)
        P.Plan->Donor = Donor;
    }
}

/// Whether \p R used a summary that is not the one \p Summaries holds now.
static bool
usedStaleSummary(const FileResult &R,
                 const clang::devplace::ProjectSummaries &Summaries) {
  for (const auto &[Name, Hash] : R.Used) {
    uint64_t Now = 0;
    Summaries.usable(Name, Now);
    if (Now != Hash)
      return true;
  }
  return false;
}

static void analyseOnce(const std::vector<std::string> &Files,
                        const CompilationDatabase &Compilations,
                        const OptionsProviderFactory &MakeOptions,
                        const RunSettings &Settings,
                        const std::function<void(FileResult &)> &Done,
                        std::unique_ptr<PreambleStore> &Preambles, bool Replay,
                        clang::devplace::ProjectSummaries *Publish = nullptr);

void analyseFiles(const std::vector<std::string> &Files,
                  const CompilationDatabase &Compilations,
                  const OptionsProviderFactory &MakeOptions,
                  const RunSettings &Settings,
                  const std::function<void(FileResult &)> &Done) {
  // One preamble store for every round: a later round parses its files
  // over the preambles the first one built.
  std::unique_ptr<PreambleStore> Preambles;
  if (!Settings.Summaries) {
    analyseOnce(Files, Compilations, MakeOptions, Settings, Done, Preambles,
                /*Replay=*/true);
    return;
  }
  // Every file first (from the cache, or analysed with the summaries known
  // before the run); then, in rounds, the files whose callees' summaries
  // changed since they were analysed, until none did. Results are handed
  // on at the end, each file's last.
  clang::devplace::ProjectSummaries &Summaries = *Settings.Summaries;
  std::map<std::string, FileResult> Results;
  auto Keep = [&](FileResult &R) { Results[R.File] = std::move(R); };
  analyseOnce(Files, Compilations, MakeOptions, Settings, Keep, Preambles,
              /*Replay=*/true, &Summaries);
  for (unsigned Round = 0; Round < MaxSummaryRounds; ++Round) {
    std::vector<std::string> Stale;
    for (const auto &[File, R] : Results)
      if (usedStaleSummary(R, Summaries))
        Stale.push_back(File);
    if (Stale.empty())
      break;
    bool Explain = sys::Process::GetEnv("DEVPLACE_CACHE_EXPLAIN").has_value();
    for (const std::string &File : Stale) {
      if (Results[File].FromCache && Settings.Cache)
        --Settings.Cache->Hits; // its result is the new analysis's
      if (Explain)
        errs() << "devplace: " << File << " analysed again (round " << Round + 2
               << "): a summary it used changed\n";
    }
    // Stored in the cache again: the entry is the last round's.
    analyseOnce(Stale, Compilations, MakeOptions, Settings, Keep, Preambles,
                /*Replay=*/false, &Summaries);
  }
  for (const std::string &File : Files)
    if (auto It = Results.find(File); It != Results.end())
      Done(It->second);
}

/// Analyses \p Files (those the cache answers from it, when \p Replay),
/// over preambles from \p Preambles (opened on first use).
static void analyseOnce(const std::vector<std::string> &Files,
                        const CompilationDatabase &Compilations,
                        const OptionsProviderFactory &MakeOptions,
                        const RunSettings &Settings,
                        const std::function<void(FileResult &)> &Done,
                        std::unique_ptr<PreambleStore> &Preambles, bool Replay,
                        clang::devplace::ProjectSummaries *Publish) {
  // With \p Publish, each file's summaries join the project's as soon as
  // it is done, and a file starts from the summaries of the files done
  // before it (a snapshot: the project's keep changing while it runs).
  std::mutex DoneLock;
  auto Report = [&](FileResult &R) {
    std::lock_guard<std::mutex> Guard(DoneLock);
    if (Publish)
      Publish->replaceFile(R.File, R.Exports);
    Done(R);
  };
  // Answered from the cache first: what is left decides the preambles.
  std::vector<Pending> Work;
  for (const std::string &File : Files) {
    Pending P{File, {}, std::nullopt};
    if (Settings.Cache) {
      ClangTidyContext Context(MakeOptions());
      P.Key = cacheKey(*Settings.Cache, File, Compilations, Context,
                       Settings.ApplyAnyFix);
      if (std::optional<FileResult> Hit =
              Replay ? Settings.Cache->lookup(P.Key) : std::nullopt) {
        Hit->File = File;
        Hit->FromCache = true;
        Report(*Hit);
        continue;
      }
    }
    Work.push_back(std::move(P));
  }

  if (!Preambles && Settings.Preamble != PreambleUse::Never && !Work.empty()) {
    std::string Error; // without a folder for them, files parse alone
    Preambles =
        PreambleStore::open(Settings.Cache ? Settings.Cache->directory() : "",
                            Settings.ToolIdentity, Error);
  }
  if (Preambles) {
    ClangTidyContext Context(MakeOptions());
    ArgumentsAdjuster Adjust = tidyAdjuster(Context, Settings);
    for (Pending &P : Work)
      if (std::optional<CompileCommand> C = singleCommand(P.File, Compilations))
        P.Plan = Preambles->plan(P.File, *C, Adjust);
    choosePreambles(Work, *Preambles, Settings);
  }

  auto RunOne = [&](const Pending &P) {
    const PreambleFile *Preamble = nullptr;
    if (P.Plan) {
      ClangTidyContext Context(MakeOptions());
      Preamble = Preambles->get(*P.Plan, tidyAdjuster(Context, Settings));
    }
    std::optional<clang::devplace::ProjectSummaries> Snapshot;
    RunSettings Mine = Settings;
    if (Publish) {
      std::lock_guard<std::mutex> Guard(DoneLock);
      Snapshot = *Publish;
      Mine.Summaries = &*Snapshot;
    }
    FileResult R =
        analyseFile(P.File, Compilations, MakeOptions, Mine, Preamble);
    if (Settings.Cache)
      Settings.Cache->store(P.Key, R, R.Dependencies);
    Report(R);
  };
  // The files a file likely calls into go first; a worker takes the first
  // file whose likely callees are done, else the first not started.
  std::vector<std::string> Names;
  for (const Pending &P : Work)
    Names.push_back(P.File);
  std::vector<std::vector<size_t>> Callees =
      Publish ? likelyCallees(Names)
              : std::vector<std::vector<size_t>>(Work.size());
  std::vector<size_t> Order = calleesFirst(Callees);
  std::vector<char> Started(Work.size(), 0), Finished(Work.size(), 0);
  std::mutex PickLock;
  auto Next = [&]() -> std::optional<size_t> {
    std::lock_guard<std::mutex> Guard(PickLock);
    std::optional<size_t> First;
    for (size_t I : Order) {
      if (Started[I])
        continue;
      if (!First)
        First = I;
      if (llvm::all_of(Callees[I], [&](size_t J) { return Finished[J]; })) {
        First = I;
        break;
      }
    }
    if (First)
      Started[*First] = 1;
    return First;
  };
  auto Worker = [&] {
    while (std::optional<size_t> I = Next()) {
      RunOne(Work[*I]);
      std::lock_guard<std::mutex> Guard(PickLock);
      Finished[*I] = 1;
    }
  };
  unsigned Threads = std::min<size_t>(
      hardware_concurrency(Settings.Jobs).compute_thread_count(), Work.size());
  if (Settings.Jobs <= 1 || Threads <= 1) {
    Worker();
    return;
  }
  clang::devplace::compat::ThreadPool Pool(hardware_concurrency(Settings.Jobs));
  for (unsigned T = 0; T < Threads; ++T)
    Pool.async(Worker);
  Pool.wait();
}

} // namespace devplace_tool
