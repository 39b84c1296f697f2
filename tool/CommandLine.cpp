//===--- CommandLine.cpp - devplace's options and configuration -----------===//

#include "CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang::tidy;
using namespace llvm;

namespace devplace_tool {

cl::OptionCategory DevplaceCategory("devplace options");

const char Overview[] =
    "devplace finds device-placement bugs in LibTorch code: tensors that are\n"
    "or may be on a CUDA device when host code touches their memory.\n"
    "\n"
    "With -p BUILD_DIR and no files, every file of BUILD_DIR's\n"
    "compile_commands.json is analysed, in parallel; arguments with *, ? or [\n"
    "select files of the database by glob.\n"
    "\n"
    "Exit status: 0 when nothing is reported, 1 when findings are reported,\n"
    "2 for usage errors and for files that cannot be analysed.\n"
    "\n"
    "'devplace merge [--output=FILE] REPORT...' joins the SARIF or JSON\n"
    "reports of --shard runs into the report one run would have written.\n";

const char DefaultChecks[] = "-*,devplace-*";

cl::opt<std::string> Checks(
    "checks",
    cl::desc("Comma-separated globs of checks, as in clang-tidy; appended to\n"
             "the default '-*,devplace-*' and to .clang-tidy files."),
    cl::init(""), cl::cat(DevplaceCategory));
cl::opt<std::string>
    Config("config",
           cl::desc("Configuration in YAML/JSON, as in clang-tidy's --config."),
           cl::init(""), cl::cat(DevplaceCategory));
cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("A .clang-tidy-format file to use instead of searching for one."),
    cl::init(""), cl::cat(DevplaceCategory));
cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc("Regex of headers whose diagnostics are shown."),
                 cl::init(""), cl::cat(DevplaceCategory));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Show diagnostics in system headers."),
                            cl::init(false), cl::cat(DevplaceCategory));
cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes."),
                  cl::init(false), cl::cat(DevplaceCategory));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the suggested fixes to this YAML file (clang-apply-"
             "replacements format)."),
    cl::value_desc("filename"), cl::cat(DevplaceCategory));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the enabled checks and exit."),
                         cl::init(false), cl::cat(DevplaceCategory));
cl::opt<bool>
    ListApi("list-api",
            cl::desc("Print the table of library names devplace knows, by "
                     "role (Markdown), and exit."),
            cl::init(false), cl::cat(DevplaceCategory));
cl::opt<bool> DumpConfig("dump-config",
                         cl::desc("Print the effective configuration."),
                         cl::init(false), cl::cat(DevplaceCategory));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Print neither progress nor the summary line."),
                    cl::init(false), cl::cat(DevplaceCategory));
cl::opt<bool> Stats("analysis-stats",
                    cl::desc("Print the analysis' work: functions, CFG blocks, "
                             "block visits."),
                    cl::init(false), cl::cat(DevplaceCategory));
cl::list<std::string> SourcePaths(cl::Positional,
                                  cl::desc("[<file or glob> ...]"),
                                  cl::cat(DevplaceCategory));
cl::opt<std::string>
    BuildPath("p", cl::desc("Build directory holding compile_commands.json."),
              cl::value_desc("build-dir"), cl::cat(DevplaceCategory));
cl::list<std::string>
    Exclude("exclude", cl::desc("Skip database files matching this glob."),
            cl::value_desc("glob"), cl::cat(DevplaceCategory));
cl::opt<unsigned>
    Jobs("j",
         cl::desc("Files analysed in parallel (default: the number of cores)."),
         cl::Prefix, cl::init(0), cl::cat(DevplaceCategory));
cl::opt<OutputFormat> Format(
    "format", cl::desc("Report format."), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "clang-tidy's diagnostics"),
               clEnumValN(OutputFormat::Sarif, "sarif", "SARIF 2.1.0"),
               clEnumValN(OutputFormat::Json, "json", "devplace's JSON")),
    cl::cat(DevplaceCategory));
cl::opt<std::string>
    Output("output",
           cl::desc("Write the report to this file instead of stdout."),
           cl::value_desc("file"), cl::cat(DevplaceCategory));
cl::opt<std::string> BaselineFile(
    "baseline", cl::desc("Report only findings that are not in this baseline."),
    cl::value_desc("file"), cl::cat(DevplaceCategory));
cl::opt<std::string>
    WriteBaseline("write-baseline",
                  cl::desc("Record this run's findings as the baseline."),
                  cl::value_desc("file"), cl::cat(DevplaceCategory));
cl::opt<std::string> DocUrl(
    "doc-url",
    cl::desc("Base URL of the check pages for SARIF help links (default: the\n"
             "installed docs)."),
    cl::value_desc("url"), cl::cat(DevplaceCategory));

cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc(
        "Keep each file's results in this directory and replay them while\n"
        "the file, its headers, its compile command, the configuration and\n"
        "devplace are unchanged (default: $DEVPLACE_CACHE_DIR)."),
    cl::value_desc("dir"), cl::cat(DevplaceCategory));
cl::opt<std::string> CacheMaxSize(
    "cache-max-size",
    cl::desc("Bound of the cache, e.g. 500M or 2G; least recently used\n"
             "entries go first (default: $DEVPLACE_CACHE_MAX_SIZE, else 1G)."),
    cl::value_desc("size"), cl::cat(DevplaceCategory));
cl::opt<std::string> Shard(
    "shard",
    cl::desc("Analyse only the K-th of N parts of the selected files (K from\n"
             "1), so that N CI jobs share a project; 'devplace merge' joins\n"
             "their reports."),
    cl::value_desc("K/N"), cl::cat(DevplaceCategory));

cl::opt<PreambleUse> Preamble(
    "preamble",
    cl::desc("Parse files that share their compile command and leading\n"
             "#include lines over one precompiled header of those lines."),
    cl::init(PreambleUse::Auto),
    cl::values(
        clEnumValN(PreambleUse::Auto, "auto",
                   "for more such files than -j, or one kept in the cache"),
        clEnumValN(PreambleUse::Always, "always",
                   "for every file with leading #includes"),
        clEnumValN(PreambleUse::Never, "never", "parse every file alone")),
    cl::cat(DevplaceCategory));
cl::opt<bool> TraverseHeaders(
    "traverse-headers",
    cl::desc(
        "Walk every header's declarations, not only the main file's\n"
        "(clang-tidy's own traversal: slower, the same devplace findings;\n"
        "implied by --header-filter and --system-headers)."),
    cl::init(false), cl::cat(DevplaceCategory));

cl::opt<bool> ProjectSummaries(
    "project-summaries",
    cl::desc("With a compilation database (-p, or one found above the files),\n"
             "follow calls into the project's other files: each file is\n"
             "analysed with the summaries of the functions they define, and\n"
             "again when one it used changes (kept in the cache folder as\n"
             "summaries.json). --project-summaries=false: each file alone."),
    cl::init(true), cl::cat(DevplaceCategory));

/// Parses a configuration; on failure `Problem` is one line: where and why
/// (the YAML parser's own multi-line report is not printed).
static llvm::ErrorOr<ClangTidyOptions>
parseQuietly(StringRef Text, StringRef Source, std::string &Problem) {
  std::string Where;
  auto Parsed = parseConfigurationWithDiags(
      MemoryBufferRef(Text, Source), [&](const SMDiagnostic &D) {
        if (Where.empty())
          Where =
              formatv(" (line {0}: {1})", D.getLineNo(), D.getMessage()).str();
      });
  if (!Parsed)
    Problem = ("invalid configuration in " + Source + ": " +
               Parsed.getError().message() + Where)
                  .str();
  return Parsed;
}

std::unique_ptr<ClangTidyOptionsProvider>
makeOptionsProvider(std::string &Error) {
  ClangTidyGlobalOptions GlobalOptions;
  ClangTidyOptions DefaultOptions = ClangTidyOptions::getDefaults();
  DefaultOptions.Checks = DefaultChecks;
  DefaultOptions.WarningsAsErrors = "";
  DefaultOptions.HeaderFilterRegex = "";
  DefaultOptions.SystemHeaders = false;
  DefaultOptions.User = llvm::sys::Process::GetEnv("USER");
  // A CI step says when a bound cut an analysis short (the checks' own
  // default, for the plugin and clangd, is to stay quiet).
  DefaultOptions.CheckOptions["ReportAnalysisLimits"] =
      ClangTidyOptions::ClangTidyValue("true");

  ClangTidyOptions OverrideOptions;
  if (Checks.getNumOccurrences())
    OverrideOptions.Checks = Checks;
  if (HeaderFilter.getNumOccurrences())
    OverrideOptions.HeaderFilterRegex = HeaderFilter;
  if (SystemHeaders.getNumOccurrences())
    OverrideOptions.SystemHeaders = SystemHeaders;

  auto FromText =
      [&](StringRef Text,
          StringRef Source) -> std::unique_ptr<ClangTidyOptionsProvider> {
    auto Parsed = parseQuietly(Text, Source, Error);
    if (!Parsed)
      return nullptr;
    return std::make_unique<ConfigOptionsProvider>(
        std::move(GlobalOptions), std::move(DefaultOptions), std::move(*Parsed),
        std::move(OverrideOptions));
  };
  if (!Config.empty() && !ConfigFile.empty()) {
    Error = "--config and --config-file are mutually exclusive";
    return nullptr;
  }
  if (!ConfigFile.empty()) {
    auto Text = MemoryBuffer::getFile(ConfigFile);
    if (!Text) {
      Error = "cannot read config file '" + ConfigFile +
              "': " + Text.getError().message();
      return nullptr;
    }
    return FromText((*Text)->getBuffer(), ConfigFile);
  }
  if (!Config.empty())
    return FromText(Config, "--config");
  return std::make_unique<FileOptionsProvider>(
      std::move(GlobalOptions), std::move(DefaultOptions),
      std::move(OverrideOptions), vfs::getRealFileSystem());
}

std::string invalidConfigurationFor(StringRef File,
                                    std::map<std::string, std::string> &Seen) {
  if (!Config.empty() || !ConfigFile.empty())
    return "";
  SmallString<256> Dir(sys::path::parent_path(File));
  for (; !Dir.empty(); Dir = sys::path::parent_path(Dir)) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, ".clang-tidy");
    auto It = Seen.find(std::string(Candidate));
    if (It == Seen.end()) {
      std::string Problem;
      bool Inherit = false;
      if (sys::fs::exists(Candidate)) {
        auto Text = MemoryBuffer::getFile(Candidate);
        if (!Text) {
          Problem = "cannot read '" + std::string(Candidate) +
                    "': " + Text.getError().message();
        } else if (auto Parsed =
                       parseQuietly((*Text)->getBuffer(), Candidate, Problem);
                   !Parsed) {
          // Problem says where and why.
        } else {
          Inherit = Parsed->InheritParentConfig.value_or(false);
        }
        if (Problem.empty() && !Inherit)
          Problem = "-"; // found, valid, and the search stops here
      }
      It = Seen.emplace(std::string(Candidate), Problem).first;
    }
    if (It->second == "-")
      return "";
    if (!It->second.empty())
      return It->second;
  }
  return "";
}

} // namespace devplace_tool
