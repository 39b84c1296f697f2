//===--- DevplaceMain.cpp - the devplace command --------------------------===//
//
// clang-tidy's engine with the devplace checks built in and enabled by
// default, with clang-tidy's familiar flags and exit statuses a CI step can
// use: 0 clean, 1 findings, 2 usage errors or files that cannot be analysed.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::tidy;
using namespace llvm;

namespace clang::tidy {
extern volatile int DevplaceModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED DevplaceModuleAnchorDestination =
    DevplaceModuleAnchorSource;
} // namespace clang::tidy

static cl::OptionCategory DevplaceCategory("devplace options");

static const char Overview[] =
    "devplace finds device-placement bugs in LibTorch code: tensors that are\n"
    "or may be on a CUDA device when host code touches their memory.\n"
    "\n"
    "Exit status: 0 when nothing is reported, 1 when findings are reported,\n"
    "2 for usage errors and for files that cannot be analysed.\n";

static const char DefaultChecks[] = "-*,devplace-*";

static cl::opt<std::string> Checks(
    "checks",
    cl::desc("Comma-separated globs of checks, as in clang-tidy; appended to\n"
             "the default '-*,devplace-*' and to .clang-tidy files."),
    cl::init(""), cl::cat(DevplaceCategory));
static cl::opt<std::string>
    Config("config",
           cl::desc("Configuration in YAML/JSON, as in clang-tidy's --config."),
           cl::init(""), cl::cat(DevplaceCategory));
static cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("A .clang-tidy-format file to use instead of searching for one."),
    cl::init(""), cl::cat(DevplaceCategory));
static cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc("Regex of headers whose diagnostics are shown."),
                 cl::init(""), cl::cat(DevplaceCategory));
static cl::opt<bool> SystemHeaders("system-headers",
                                   cl::desc("Show diagnostics in system headers."),
                                   cl::init(false), cl::cat(DevplaceCategory));
static cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes."),
                         cl::init(false), cl::cat(DevplaceCategory));
static cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the suggested fixes to this YAML file (clang-apply-"
             "replacements format)."),
    cl::value_desc("filename"), cl::cat(DevplaceCategory));
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit."),
                                cl::init(false), cl::cat(DevplaceCategory));
static cl::opt<bool> DumpConfig("dump-config",
                                cl::desc("Print the effective configuration."),
                                cl::init(false), cl::cat(DevplaceCategory));
static cl::opt<bool> Quiet("quiet", cl::desc("Do not print the summary line."),
                           cl::init(false), cl::cat(DevplaceCategory));

static void printVersion(raw_ostream &OS) {
  OS << "devplace " << DEVPLACE_VERSION << " (clang-tidy engine "
     << LLVM_VERSION_STRING << ")\n";
}

static int usageError(const Twine &Msg) {
  WithColor::error(errs(), "devplace") << Msg << "\n";
  return 2;
}

static std::unique_ptr<ClangTidyOptionsProvider>
makeOptionsProvider(std::string &Error) {
  ClangTidyGlobalOptions GlobalOptions;
  ClangTidyOptions DefaultOptions = ClangTidyOptions::getDefaults();
  DefaultOptions.Checks = DefaultChecks;
  DefaultOptions.WarningsAsErrors = "";
  DefaultOptions.HeaderFilterRegex = "";
  DefaultOptions.SystemHeaders = false;
  DefaultOptions.User = llvm::sys::Process::GetEnv("USER");

  ClangTidyOptions OverrideOptions;
  if (Checks.getNumOccurrences())
    OverrideOptions.Checks = Checks;
  if (HeaderFilter.getNumOccurrences())
    OverrideOptions.HeaderFilterRegex = HeaderFilter;
  if (SystemHeaders.getNumOccurrences())
    OverrideOptions.SystemHeaders = SystemHeaders;

  auto FromText = [&](StringRef Text, StringRef Source)
      -> std::unique_ptr<ClangTidyOptionsProvider> {
    auto Parsed = parseConfiguration(MemoryBufferRef(Text, Source));
    if (!Parsed) {
      Error = ("invalid configuration in " + Source + ": " +
               Parsed.getError().message())
                  .str();
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(
        std::move(GlobalOptions), std::move(DefaultOptions),
        std::move(*Parsed), std::move(OverrideOptions));
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

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(DevplaceCategory);

  std::string ParseErrors;
  raw_string_ostream ErrOS(ParseErrors);
  auto Parser = tooling::CommonOptionsParser::create(
      argc, argv, DevplaceCategory, cl::ZeroOrMore, Overview);
  if (!Parser) {
    WithColor::error(errs(), "devplace") << toString(Parser.takeError());
    errs() << "run 'devplace --help' for usage\n";
    return 2;
  }

  std::string Error;
  auto Provider = makeOptionsProvider(Error);
  if (!Provider)
    return usageError(Error);

  std::vector<std::string> Files = Parser->getSourcePathList();
  std::string FileForOptions = Files.empty() ? "dummy.cpp" : Files.front();
  SmallString<256> AbsFile(FileForOptions);
  sys::fs::make_absolute(AbsFile);
  ClangTidyOptions Effective = Provider->getOptions(AbsFile);
  std::vector<std::string> Enabled = getCheckNames(Effective, false);

  if (DumpConfig) {
    Effective.CheckOptions = getCheckOptions(Effective, false);
    outs() << configurationAsText(ClangTidyOptions::getDefaults().merge(
                  Effective, 0))
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
  if (Files.empty())
    return usageError("no input files; give source files, or see --help");
  if (Enabled.empty())
    return usageError("no checks enabled by --checks '" + Checks +
                      "' and the configuration");
  for (const std::string &F : Files)
    if (!sys::fs::exists(F))
      return usageError("no such file: '" + F + "'");

  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      vfs::getRealFileSystem());
  ClangTidyContext Context(std::move(Provider));
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, Parser->getCompilations(), Files, BaseFS,
                   Fix || !ExportFixes.empty());

  unsigned CompilerErrors = 0, Findings = 0;
  for (const ClangTidyError &E : Errors) {
    if (E.DiagnosticName.find("clang-diagnostic-error") == 0 ||
        E.DiagLevel == ClangTidyError::Error)
      ++CompilerErrors;
    else
      ++Findings;
  }
  unsigned WErrors = 0;
  handleErrors(Errors, Context, Fix ? FB_Fix : FB_NoFix, WErrors, BaseFS);

  if (!ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_None);
    if (EC)
      return usageError("cannot write '" + ExportFixes + "': " + EC.message());
    exportReplacements(Files.front(), Errors, OS);
  }

  if (!Quiet)
    errs() << "devplace: " << Files.size()
           << (Files.size() == 1 ? " file, " : " files, ") << Findings
           << (Findings == 1 ? " finding" : " findings")
           << (CompilerErrors ? ", " + std::to_string(CompilerErrors) +
                                    " compiler error(s): the file could not "
                                    "be analysed"
                              : std::string())
           << "\n";
  if (CompilerErrors)
    return 2;
  return Findings ? 1 : 0;
}
