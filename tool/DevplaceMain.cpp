//===--- DevplaceMain.cpp - the devplace command --------------------------===//
//
// clang-tidy's engine with the devplace checks built in and enabled by
// default, with clang-tidy's familiar flags and exit statuses a CI step can
// use: 0 clean, 1 findings, 2 usage errors or files that cannot be analysed.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "BundledHeaders.h"
#include "CommandLine.h"
#include "FileSelection.h"
#include "Merge.h"
#include "ProjectRun.h"
#include "Reports.h"
#include "ResultCache.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "devplace/Compat.h"
#include "devplace/model/Facts.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <map>
#include <optional>
#include <set>

using namespace clang;
using namespace clang::tidy;
using namespace llvm;
using namespace devplace_tool;

namespace clang::tidy {
extern volatile int DevplaceModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED DevplaceModuleAnchorDestination =
    DevplaceModuleAnchorSource;
} // namespace clang::tidy

static void printVersion(raw_ostream &OS) {
  OS << "devplace " << DEVPLACE_VERSION << " (clang-tidy engine "
     << LLVM_VERSION_STRING << ")\n";
}

static int usageError(const Twine &Msg) {
  WithColor::error(errs(), "devplace") << Msg << "\n";
  return 2;
}

/// Help links for SARIF: --doc-url, else the installed docs next to this
/// binary, else the source tree's docs.
static std::string docBaseUri(const char *Argv0) {
  if (!DocUrl.empty())
    return StringRef(DocUrl).ends_with("/") ? DocUrl : DocUrl + "/";
  SmallString<256> Installed(installPrefix(Argv0, (void *)&docBaseUri));
  sys::path::append(Installed, "share", "doc", "devplace", "checks");
  std::string Dir = sys::fs::is_directory(Installed)
                        ? std::string(Installed)
                        : std::string(DEVPLACE_SOURCE_DIR "/docs/checks");
  return "file://" + Dir + "/";
}

static std::string plural(size_t N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// What names this build in cache keys: a rebuilt devplace never answers
/// from the entries of the one before.
static std::string toolIdentity(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, (void *)&toolIdentity);
  auto Binary = MemoryBuffer::getFile(Exe, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  return std::string("devplace ") + DEVPLACE_VERSION + ", LLVM " +
         LLVM_VERSION_STRING + ", " +
         (Binary ? ResultCache::hash((*Binary)->getBuffer()) : Exe);
}

/// --cache-dir or $DEVPLACE_CACHE_DIR; no cache when neither is set.
static std::unique_ptr<ResultCache> openCache(const char *Argv0,
                                              std::string &Error) {
  std::string Dir = CacheDir;
  if (Dir.empty())
    Dir = sys::Process::GetEnv("DEVPLACE_CACHE_DIR").value_or("");
  if (Dir.empty())
    return nullptr;
  std::string SizeText = CacheMaxSize;
  if (SizeText.empty())
    SizeText = sys::Process::GetEnv("DEVPLACE_CACHE_MAX_SIZE").value_or("1G");
  std::optional<uint64_t> Size = parseSize(SizeText);
  if (!Size) {
    Error = "invalid cache size '" + SizeText +
            "': expected a number of bytes, or "
            "one with K, M or G, e.g. 500M";
    return nullptr;
  }
  return ResultCache::open(Dir, *Size, toolIdentity(Argv0), Error);
}

static std::string summaryLine(const RunReport &R, const ResultCache *Cache) {
  std::string S = "devplace: " + plural(R.Files, "file", "files");
  if (Cache)
    S += " (" + std::to_string(Cache->Hits.load()) + " from the cache)";
  S += ", " + plural(R.Findings.size(), "finding", "findings");
  std::map<std::string, unsigned> PerCheck;
  for (const Finding &F : R.Findings)
    ++PerCheck[StringRef(F.Check).starts_with("devplace-") ? F.Check.substr(9) : F.Check];
  if (!PerCheck.empty()) {
    S += " (";
    for (auto It = PerCheck.begin(); It != PerCheck.end(); ++It)
      S += (It == PerCheck.begin() ? "" : ", ") + It->first + " " +
           std::to_string(It->second);
    S += ")";
  }
  if (!BaselineFile.empty())
    S += ", " + std::to_string(R.Suppressed) + " suppressed by the baseline";
  if (!R.Failed.empty()) {
    S += ", " + plural(R.Failed.size(), "file", "files") + " failed to parse:";
    for (const FailedFile &F : R.Failed)
      S += " " + relativeTo(F.File, R.BaseDir);
  }
  if (!R.Remarks.empty())
    S += ", " + plural(R.Remarks.size(), "function", "functions") +
         " cut short (see the remarks)";
  return S + formatv(", {0:f1} s", R.Seconds).str();
}

/// A progress line on a terminal, rewritten in place.
class Progress {
public:
  Progress(size_t Total)
      : Total(Total), Shown(!Quiet && Total > 1 && sys::Process::StandardErrIsDisplayed()) {}
  void fileDone(StringRef File) {
    if (!Shown)
      return;
    errs() << "\r\x1b[K[" << ++Done << "/" << Total << "] "
           << sys::path::filename(File);
    errs().flush();
  }
  void clear() {
    if (Shown)
      errs() << "\r\x1b[K";
  }

private:
  size_t Total, Done = 0;
  bool Shown;
};

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  if (argc > 1 && StringRef(argv[1]) == "merge")
    return mergeMain(argc - 1, argv + 1);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(DevplaceCategory);

  // Flags after `--` are the compile command, as for clang-tidy.
  std::string DBError;
  std::unique_ptr<tooling::CompilationDatabase> Compilations =
      tooling::FixedCompilationDatabase::loadFromCommandLine(argc, argv, DBError);
  if (!DBError.empty())
    return usageError(DBError);
  std::string ParseErrors;
  raw_string_ostream ParseOS(ParseErrors);
  if (!cl::ParseCommandLineOptions(argc, argv, Overview, &ParseOS)) {
    // LLVM writes "<argv0>: <problem>.  Try: '<argv0> --help'": keep the problem.
    StringRef Problem = StringRef(ParseErrors).trim().split('\n').first;
    Problem = Problem.split(": ").second.split("  Try:").first.rtrim(" .!");
    if (Problem.empty()) // a value parser already printed its one line
      return 2;
    return usageError(Problem + "; run 'devplace --help' for usage");
  }

  if (ListApi) {
    writeApiTable(outs());
    return 0;
  }

  std::string Error;
  auto Provider = makeOptionsProvider(Error);
  if (!Provider)
    return usageError(Error);

  std::string FileForOptions = "dummy.cpp";
  for (const std::string &A : SourcePaths)
    if (!isGlob(A)) {
      FileForOptions = A;
      break;
    }
  std::map<std::string, std::string> ConfigsSeen;
  if (std::string Problem =
          invalidConfigurationFor(absolutePath(FileForOptions, ""), ConfigsSeen);
      !Problem.empty())
    return usageError(Problem);
  ClangTidyOptions Effective = Provider->getOptions(absolutePath(FileForOptions, ""));
  std::vector<std::string> Enabled =
      clang::devplace::compat::enabledCheckNames(Effective);

  if (DumpConfig) {
    Effective.CheckOptions =
        clang::devplace::compat::enabledCheckOptions(Effective);
    outs() << configurationAsText(ClangTidyOptions::getDefaults().merge(Effective, 0))
           << "\n";
    return 0;
  }
  if (ListChecks) {
    outs() << "Enabled checks:";
    for (const std::string &C : Enabled)
      outs() << "\n    " << C;
    outs() << "\n\n";
    return 0;
  }
  if (Enabled.empty())
    return usageError("no checks enabled by --checks '" + Checks +
                      "' and the configuration");

  bool FromDatabase = !Compilations;
  if (!Compilations) {
    Compilations = openCompilationDatabase(Error);
    if (!Compilations)
      return usageError(Error);
  }
  Compilations = withAbsoluteMainFiles(std::move(Compilations));
  if (SourcePaths.empty() && !FromDatabase)
    return usageError("no input files; give source files, or -p BUILD_DIR to "
                      "analyse a whole project (see --help)");
  std::optional<std::vector<std::string>> Files =
      selectFiles(*Compilations, FromDatabase, Error);
  if (!Files)
    return usageError(Error);
  if (Files->empty())
    return usageError("no files to analyse: nothing in the compilation database "
                      "matches the arguments");
  if (!Shard.empty()) {
    Files = selectShard(*Files, Shard, Error);
    if (!Files)
      return usageError(Error);
  }
  std::unique_ptr<ResultCache> Cache = openCache(argv[0], Error);
  if (!Cache && !Error.empty())
    return usageError(Error);

  for (const std::string &F : *Files)
    if (std::string Problem = invalidConfigurationFor(F, ConfigsSeen); !Problem.empty())
      return usageError(Problem);

  std::optional<Baseline> Known;
  if (!BaselineFile.empty()) {
    auto Loaded = Baseline::load(BaselineFile);
    if (!Loaded)
      return usageError(toString(Loaded.takeError()));
    Known.emplace(std::move(*Loaded));
  }

  RunReport Report;
  Report.Checks = Enabled;
  Report.Files = Files->size();
  Report.BaseDir = currentDirectory();
  Report.DocBaseUri = docBaseUri(argv[0]);
  SourceCache Sources;
  std::vector<Finding> AllFindings; // before the baseline, for --write-baseline
  // What --fix and --export-fixes apply, per file: they take the files in
  // the database's order, not the order threads finish them.
  std::map<std::string, std::vector<ClangTidyError>> KeptByFile;
  std::set<std::string> Analysed;
  bool StreamText = Format == OutputFormat::Text && Output.empty() && !Fix;
  ClangTidyContext PrintContext(makeOptionsProvider(Error));
  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  Progress Bar(Files->size());
  auto Start = std::chrono::steady_clock::now();

  auto OnFileDone = [&](FileResult &R) {
    Analysed.insert(R.File);
    std::vector<Finding> Found = makeFindings(R.Errors, R.Functions, Sources);
    assignFingerprints(Found, Report.BaseDir);
    std::vector<ClangTidyError> Shown;
    FailedFile Failure{R.File, {}};
    for (size_t I = 0; I < Found.size(); ++I) {
      Finding &F = Found[I];
      bool CompilerDiag = StringRef(F.Check).starts_with("clang-diagnostic-");
      if (CompilerDiag && F.Level == "error") {
        Failure.Errors.push_back(F);
      } else if (F.Level == "remark") {
        Report.Remarks.push_back(F);
      } else {
        AllFindings.push_back(F);
        if (Known && !CompilerDiag && Known->absorbs(F)) {
          ++Report.Suppressed;
          continue;
        }
        Report.Findings.push_back(F);
      }
      Shown.push_back(R.Errors[I]);
    }
    if (!Failure.Errors.empty()) // the compiler's errors: it did not parse
      Report.Failed.push_back(std::move(Failure));
    KeptByFile[R.File] = Shown;
    Bar.fileDone(R.File);
    if (StreamText && !Shown.empty()) {
      Bar.clear();
      unsigned WErrors = 0;
      handleErrors(Shown, PrintContext, FB_NoFix, WErrors, BaseFS);
    }
  };
  RunSettings Settings;
  Settings.ApplyAnyFix = Fix || !ExportFixes.empty();
  Settings.Jobs = Jobs ? Jobs : hardware_concurrency().compute_thread_count();
  Settings.Cache = Cache.get();
  Settings.MainFileTraversal = !TraverseHeaders;
  Settings.Preamble = Preamble;
  Settings.ToolIdentity = toolIdentity(argv[0]);
  Settings.ResourceDir = bundledResourceDir(argv[0], (void *)&toolIdentity);
  // Summaries across files need the project's files: a database's.
  clang::devplace::ProjectSummaries Summaries;
  std::string SummariesPath =
      Cache ? Cache->directory() + "/summaries.json" : std::string();
  if (ProjectSummaries && FromDatabase) {
    if (!SummariesPath.empty())
      if (auto Text = MemoryBuffer::getFile(SummariesPath))
        if (auto Kept = clang::devplace::ProjectSummaries::fromJSON(
                (*Text)->getBuffer()))
          Summaries = std::move(*Kept);
    Settings.Summaries = &Summaries;
  }
  analyseFiles(
      *Files, *Compilations,
      [] {
        std::string Ignored; // the configuration was read once above
        return makeOptionsProvider(Ignored);
      },
      Settings, OnFileDone);
  if (Cache)
    Cache->evict();
  if (Settings.Summaries && !SummariesPath.empty())
    // Through a temporary file, renamed: a concurrent reader sees one or
    // the other. A cache folder that cannot take it only loses the reuse.
    consumeError(writeToOutput(SummariesPath, [&](raw_ostream &OS) {
      OS << Summaries.toJSON();
      return Error::success();
    }));
  Bar.clear();
  Report.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (Known)
    Report.StaleBaselineEntries = Known->stale(Analysed);
  sortReport(Report);

  std::vector<ClangTidyError> Kept;
  for (const std::string &F : *Files)
    Kept.insert(Kept.end(), KeptByFile[F].begin(), KeptByFile[F].end());
  if (Fix) {
    unsigned WErrors = 0;
    handleErrors(Kept, PrintContext, FB_Fix, WErrors, BaseFS);
  }
  if (!ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_None);
    if (EC)
      return usageError("cannot write '" + ExportFixes + "': " + EC.message());
    exportReplacements(Files->empty() ? std::string() : Files->front(), Kept,
                       OS);
  }
  if (!StreamText && (Format != OutputFormat::Text || !Output.empty()))
    if (std::string Problem = writeReport(Report, Format, Output);
        !Problem.empty())
      return usageError(Problem);
  if (!WriteBaseline.empty()) {
    if (llvm::Error E = Baseline::write(WriteBaseline, AllFindings))
      return usageError(toString(std::move(E)));
    if (!Quiet)
      errs() << "devplace: wrote " << plural(AllFindings.size(), "finding", "findings")
             << " to the baseline '" << WriteBaseline << "'\n";
  }
  if (!Quiet) {
    for (const std::string &S : Report.StaleBaselineEntries)
      errs() << "devplace: baseline entry matches nothing any more: " << S << "\n";
    errs() << summaryLine(Report, Cache.get()) << "\n";
  }
  if (Stats) {
    clang::devplace::AnalysisStats &S = clang::devplace::analysisStats();
    errs() << formatv("devplace: stats: {0} function analyses, {1} CFG blocks, {2} "
                      "block visits, at most {3:f2} visits per block in one "
                      "function, {4} cut short\n",
                      S.Functions.load(), S.Blocks.load(), S.Visits.load(),
                      S.MaxVisitsPerBlockX100.load() / 100.0, S.CutShort.load());
  }
  if (!Report.Failed.empty())
    return 2;
  if (!WriteBaseline.empty())
    return 0;
  return Report.Findings.empty() ? 0 : 1;
}
