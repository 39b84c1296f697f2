//===--- Preamble.cpp - one precompiled preamble for many files -----------===//

#include "Preamble.h"
#include "ResultCache.h"
#include "devplace/Compat.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/FrontendOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <set>

using namespace clang;
using namespace clang::tooling;
using namespace llvm;

namespace devplace_tool {

static const char MetaFormat[] = "devplace-preamble-2";

void setUpAsAnalysis(CompilerInvocation &Invocation) {
  // As clang-tidy does: code may test __clang_analyzer__.
  Invocation.getPreprocessorOpts().SetUpStaticAnalyzer = true;
}

std::vector<std::string> leadingIncludes(StringRef Text, StringRef MainDir) {
  std::vector<std::string> Header;
  bool InComment = false;
  Text.consume_front("\xEF\xBB\xBF");
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    StringRef L = Line.trim();
    if (L.ends_with("\\"))
      break; // a continued line: not worth following
    if (InComment) {
      size_t End = L.find("*/");
      if (End == StringRef::npos)
        continue;
      InComment = false;
      L = L.drop_front(End + 2).trim();
    }
    if (L.starts_with("/*")) {
      size_t End = L.find("*/", 2);
      if (End == StringRef::npos) {
        InComment = true;
        continue;
      }
      L = L.drop_front(End + 2).trim();
    }
    if (L.empty() || L.starts_with("//"))
      continue;
    if (!L.consume_front("#"))
      break;
    L = L.ltrim();
    if (L.consume_front("pragma")) {
      if (L.trim() == "once")
        continue;
      break;
    }
    if (!L.consume_front("include"))
      break;
    L = L.ltrim();
    char Close = L.starts_with("<") ? '>' : L.starts_with("\"") ? '"' : 0;
    if (!Close)
      break; // a macro naming the header
    size_t End = L.find(Close, 1);
    if (End == StringRef::npos)
      break;
    StringRef Name = L.substr(1, End - 1);
    StringRef After = L.drop_front(End + 1).trim();
    if (!After.empty() && !After.starts_with("//"))
      break;
    if (Close == '"' && !sys::path::is_absolute(Name)) {
      SmallString<256> Beside(MainDir);
      sys::path::append(Beside, Name);
      if (sys::fs::exists(Beside)) {
        Header.push_back("#include \"" + std::string(Beside) + "\"\n");
        continue;
      }
    }
    Header.push_back("#include " + std::string(1, Close == '>' ? '<' : '"') +
                     Name.str() + Close + "\n");
  }
  return Header;
}

/// The headers of the C++ standard library, which a translation unit may
/// include in any order ([using.headers]).
static bool isStandardLibraryHeader(StringRef Name) {
  // clang-format off
  static const char *const Names[] = {
      "algorithm", "any", "array", "atomic", "barrier", "bit", "bitset",
      "cassert", "cctype", "cerrno", "cfenv", "cfloat", "charconv", "chrono",
      "cinttypes", "climits", "clocale", "cmath", "codecvt", "compare",
      "complex", "concepts", "condition_variable", "coroutine", "csetjmp",
      "csignal", "cstdarg", "cstddef", "cstdint", "cstdio", "cstdlib",
      "cstring", "ctime", "cuchar", "cwchar", "cwctype", "deque", "exception",
      "execution", "expected", "filesystem", "format", "forward_list",
      "fstream", "functional", "future", "initializer_list", "iomanip", "ios",
      "iosfwd", "iostream", "istream", "iterator", "latch", "limits", "list",
      "locale", "map", "memory", "memory_resource", "mutex", "new", "numbers",
      "numeric", "optional", "ostream", "print", "queue", "random", "ranges",
      "ratio", "regex", "scoped_allocator", "semaphore", "set", "shared_mutex",
      "source_location", "span", "sstream", "stack", "stdexcept",
      "stop_token", "streambuf", "string", "string_view", "syncstream",
      "system_error", "thread", "tuple", "type_traits", "typeindex",
      "typeinfo", "unordered_map", "unordered_set", "utility", "valarray",
      "variant", "vector", "version"};
  // clang-format on
  return llvm::is_contained(Names, Name);
}

/// Moves the standard library's #include lines after the others, keeping
/// each group's order. Files list <vector>, <string> and the like before
/// <torch/torch.h> in every order; the standard lets them be included in
/// any, so with them last, files that include the same other headers
/// share those. A project header that relied on a standard header before it
/// then fails to compile alone, and its preamble is not built: the files
/// are parsed as they are.
static void setStandardHeadersLast(std::vector<std::string> &Lines) {
  std::stable_partition(Lines.begin(), Lines.end(), [](StringRef L) {
    return !(L.consume_front("#include <") && L.consume_back(">\n") &&
             isStandardLibraryHeader(L));
  });
}

namespace {
/// The one command that compiles a generated header as the main file's
/// command would compile the main file.
class HeaderDatabase : public CompilationDatabase {
public:
  explicit HeaderDatabase(CompileCommand C) : C(std::move(C)) {}
  std::vector<CompileCommand> getCompileCommands(StringRef) const override {
    return {C};
  }

private:
  CompileCommand C;
};

/// Collects the names of the headers a build looks up.
class LookupRecorder : public clang::devplace::compat::HeaderLookupCallbacks {
public:
  explicit LookupRecorder(std::set<std::string> &Names) : Names(Names) {}
  void lookedUp(StringRef Name) override { Names.insert(Name.str()); }

private:
  std::set<std::string> &Names;
};

/// A PCH build that hears every header name looked up.
class RecordingPchAction : public GeneratePCHAction {
public:
  explicit RecordingPchAction(std::set<std::string> &Names) : Names(Names) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<LookupRecorder>(Names));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }

private:
  std::set<std::string> &Names;
};

/// Runs the driver's syntax-only job as a PCH build into \p Output.
class PchFactory : public FrontendActionFactory {
public:
  explicit PchFactory(std::string Output) : Output(std::move(Output)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RecordingPchAction>(Lookups);
  }
  std::set<std::string> Lookups;
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    setUpAsAnalysis(*Invocation); // a PCH's predefined macros must match
    Invocation->getFrontendOpts().OutputFile = Output;
    Invocation->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    return FrontendActionFactory::runInvocation(Invocation, Files,
                                                PCHContainerOps, DiagConsumer);
  }

private:
  std::string Output;
};

/// Counts the errors of a build; prints nothing.
class ErrorCounter : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const clang::Diagnostic &) override {
    if (L >= DiagnosticsEngine::Error)
      ++Errors;
  }
  unsigned Errors = 0;
};

bool writeAtomically(StringRef Final, StringRef Text) {
  SmallString<256> Temporary;
  int FD;
  if (sys::fs::createUniqueFile(Final + ".tmp-%%%%%%%%", FD, Temporary))
    return false;
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  OS.close();
  if (OS.has_error() || sys::fs::rename(Temporary, Final)) {
    OS.clear_error();
    sys::fs::remove(Temporary);
    return false;
  }
  return true;
}
} // namespace

void PreambleStore::explain(const Twine &What) {
  if (!Explain)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  errs() << "devplace: " << What << "\n";
}

std::unique_ptr<PreambleStore> PreambleStore::open(StringRef KeepDir,
                                                   std::string ToolIdentity,
                                                   std::string &Error) {
  SmallString<256> Dir;
  bool Temporary = KeepDir.empty();
  std::error_code EC;
  if (Temporary) {
    EC = sys::fs::createUniqueDirectory("devplace-preamble", Dir);
  } else {
    Dir = KeepDir;
    sys::path::append(Dir, "preambles");
    EC = sys::fs::create_directories(Dir);
  }
  if (EC) {
    Error = "cannot make a folder for preambles in '" + std::string(Dir) +
            "': " + EC.message();
    return nullptr;
  }
  return std::unique_ptr<PreambleStore>(
      new PreambleStore(std::string(Dir), Temporary, std::move(ToolIdentity)));
}

PreambleStore::~PreambleStore() {
  if (Temporary)
    sys::fs::remove_directories(Dir);
}

std::string PreambleStore::path(StringRef Key, StringRef Extension) const {
  SmallString<256> P(Dir);
  sys::path::append(P, Key + Extension);
  return std::string(P);
}

std::optional<PreamblePlan>
PreambleStore::plan(const std::string &File, const CompileCommand &Command,
                    const ArgumentsAdjuster &Adjust) {
  for (const std::string &Arg : Command.CommandLine)
    if (StringRef(Arg).contains("-include-pch") ||
        StringRef(Arg).starts_with("-emit-"))
      return std::nullopt; // the build brings its own precompiled header
  auto Text = MemoryBuffer::getFile(File, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
  if (!Text)
    return std::nullopt;
  // Relative to the command's directory. Spelled out: the two-argument
  // make_absolute moved from sys::fs to sys::path in LLVM 22.
  SmallString<256> Abs(File);
  if (!sys::path::is_absolute(Abs)) {
    Abs = Command.Directory;
    sys::path::append(Abs, File);
  }
  std::vector<std::string> Lines =
      leadingIncludes((*Text)->getBuffer(), sys::path::parent_path(Abs));
  if (Lines.empty())
    return std::nullopt;
  setStandardHeadersLast(Lines);
  // What keys it besides its lines: the command as the analysis will run
  // it, ClangTool's own adjustments first (the output file is left out),
  // the main file left out.
  // Its include directories apart: commands that differ only there may
  // share a preamble. Its folder only where an argument is relative to it.
  ArgumentsAdjuster AsRun = combineAdjusters(
      combineAdjusters(getClangSyntaxOnlyAdjuster(),
                       getClangStripOutputAdjuster()),
      combineAdjusters(getClangStripDependencyFileAdjuster(), Adjust));
  std::vector<IncludeDirectory> Directories;
  std::vector<std::string> Rest =
      splitIncludeDirectories(AsRun(Command.CommandLine, Command.Filename),
                              Command.Directory, Directories);
  std::string CommandKey = Identity;
  if (namesRelativePath(Rest, Command.Directory))
    CommandKey += '\0' + Command.Directory;
  for (const std::string &Arg : Rest)
    CommandKey +=
        '\0' + (Arg == Command.Filename ? std::string("<main>") : Arg);
  PreamblePlan Plan;
  Plan.CommandKey = ResultCache::hash(CommandKey);
  Plan.Directories = std::move(Directories);
  Plan.Lines = std::move(Lines);
  Plan.Command = Command;
  Plan.take(Plan.Lines.size());
  return Plan;
}

std::string PreamblePlan::groupKey(size_t N) const {
  std::string Text = CommandKey;
  for (size_t I = 0; I < N && I < Lines.size(); ++I)
    Text += '\0' + Lines[I];
  return ResultCache::hash(Text);
}

std::string PreamblePlan::prefixKey(size_t N) const {
  std::string Text = groupKey(N);
  for (const IncludeDirectory &D : Directories)
    Text += '\0' + D.Option + '\0' + D.Path;
  return ResultCache::hash(Text);
}

void PreamblePlan::take(size_t N) {
  Header.clear();
  for (size_t I = 0; I < N && I < Lines.size(); ++I)
    Header += Lines[I];
  Group = groupKey(N);
  Key = prefixKey(N);
}

bool PreambleStore::kept(StringRef Key) {
  {
    // Built earlier in this run (a later round of project summaries).
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Slots.find(Key.str());
    if (It != Slots.end() && It->second->State == Slot::Ready &&
        It->second->File)
      return true;
  }
  return !Temporary && sys::fs::exists(path(Key, ".json")) &&
         sys::fs::exists(path(Key, ".pch"));
}

std::optional<PreambleFile> PreambleStore::reuse(StringRef Key) {
  auto Rebuild = [&](const Twine &Why) -> std::optional<PreambleFile> {
    explain("preamble " + Key + " rebuilt: " + Why);
    return std::nullopt;
  };
  std::string Why;
  std::optional<json::Value> Meta =
      readRecord(path(Key, ".json"), MetaFormat, Key, Why);
  if (!Meta)
    return Rebuild(Why);
  const json::Object *O = Meta->getAsObject();
  const json::Object *Dependencies = O->getObject("dependencies");
  const json::Array *Lookups = O->getArray("lookups");
  if (!Dependencies || !Lookups)
    return Rebuild("its record lists no dependencies or lookups");
  PreambleFile P{path(Key, ".pch"), {}, {}};
  for (const json::Value &Name : *Lookups) {
    if (!Name.getAsString())
      return Rebuild("its record lists a lookup that is not a name");
    P.Lookups.push_back(Name.getAsString()->str());
  }
  // A damaged or replaced precompiled file is never loaded.
  if (O->getString("pch") != StringRef(observePath(P.Pch, /*Contents=*/true)))
    return Rebuild("the precompiled file is not the one recorded");
  std::string Changed = changedDependency(*Dependencies, observePath);
  if (!Changed.empty())
    return Rebuild(Changed);
  for (const auto &[File, Seen] : *Dependencies)
    P.Dependencies[File.str()] = Seen.getAsString()->str();
  explain("preamble " + Key + " reused");
  markUsed(P.Pch);
  return P;
}

std::optional<PreambleFile>
PreambleStore::build(const PreamblePlan &Plan,
                     const ArgumentsAdjuster &Adjust) {
  std::string Header = path(Plan.Key, ".h");
  if (!writeAtomically(Header, Plan.Header))
    return std::nullopt;
  // The main file's command, adjusted as the analysis adjusts it for the
  // main file (a .clang-tidy's ExtraArgs are found from the main file's
  // folder, not this one), with the header in its place, compiled as one.
  // The templates its headers use are instantiated in the preamble, once,
  // rather than at the end of every file parsed over it: a file that adds
  // nothing to <torch/torch.h> then parses in 1.3 s instead of 3.8 s.
  CompileCommand C = Plan.Command;
  C.Filename = Header;
  std::vector<std::string> Args;
  for (const std::string &Arg :
       Adjust(Plan.Command.CommandLine, Plan.Command.Filename)) {
    if (Arg == Plan.Command.Filename) {
      Args.insert(Args.end(),
                  {"-fpch-instantiate-templates", "-x", "c++-header", Header});
      continue;
    }
    Args.push_back(Arg);
  }
  C.CommandLine = std::move(Args);
  HeaderDatabase Database(C);
  auto Recorder =
      makeIntrusiveRefCnt<DependencyRecorder>(vfs::createPhysicalFileSystem());
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Recorder);
  ClangTool Tool(Database, {Header}, std::make_shared<PCHContainerOperations>(),
                 FS);
  Tool.setPrintErrorMessage(false);
  ErrorCounter Errors;
  Tool.setDiagnosticConsumer(&Errors);
  std::string Pch = path(Plan.Key, ".pch");
  std::string Building =
      Pch + ".tmp-" + std::to_string(sys::Process::getProcessId());
  PchFactory Factory(Building);
  if (Tool.run(&Factory) != 0 || Errors.Errors ||
      sys::fs::rename(Building, Pch)) {
    sys::fs::remove(Building);
    explain("preamble " + Plan.Key +
            " not built: its headers do not compile alone");
    return std::nullopt;
  }
  PreambleFile P{
      Pch, Recorder->take(), {Factory.Lookups.begin(), Factory.Lookups.end()}};
  P.Dependencies.erase(Header); // written here, from the key's own text
  if (!Temporary) {
    json::Object Seen;
    for (const auto &[File, What] : P.Dependencies)
      Seen[File] = What;
    json::Array Lookups;
    for (const std::string &Name : P.Lookups)
      Lookups.push_back(Name);
    json::Object Meta{{"format", MetaFormat},
                      {"key", Plan.Key},
                      {"pch", observePath(Pch, /*Contents=*/true)},
                      {"dependencies", std::move(Seen)},
                      {"lookups", std::move(Lookups)}};
    std::string Text;
    raw_string_ostream(Text) << json::Value(std::move(Meta));
    writeAtomically(path(Plan.Key, ".json"), Text);
  }
  return P;
}

const PreambleFile *PreambleStore::get(const PreamblePlan &Plan,
                                       const ArgumentsAdjuster &Adjust) {
  bool Busy = false;
  if (Plan.Donor) {
    if (const PreambleFile *D = own(*Plan.Donor, Adjust, Busy))
      if (const PreambleFile *S = shared(*D, *Plan.Donor, Plan))
        return S;
    // While the donor is built, whether it can be shared is not known.
    if (Busy || !Plan.OwnPays)
      return nullptr;
  }
  return own(Plan, Adjust, Busy);
}

const PreambleFile *PreambleStore::own(const PreamblePlan &Plan,
                                       const ArgumentsAdjuster &Adjust,
                                       bool &Busy) {
  Slot *S;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    std::unique_ptr<Slot> &Entry = Slots[Plan.Key];
    if (!Entry)
      Entry = std::make_unique<Slot>();
    S = Entry.get();
  }
  int Unbuilt = Slot::Unbuilt;
  if (S->State.compare_exchange_strong(Unbuilt, Slot::Building)) {
    S->File = Temporary ? std::nullopt : reuse(Plan.Key);
    if (!S->File)
      S->File = build(Plan, Adjust);
    S->State = Slot::Ready;
  }
  Busy = S->State != Slot::Ready;
  if (Busy)
    return nullptr;
  return S->File ? &*S->File : nullptr;
}

const PreambleFile *PreambleStore::shared(const PreambleFile &P,
                                          const PreamblePlan &Donor,
                                          const PreamblePlan &Plan) {
  std::lock_guard<std::mutex> Guard(ShareLock);
  std::string Key = ResultCache::hash(Donor.Key + '\0' + Plan.Key);
  auto [It, New] = Shares.try_emplace(Key);
  if (New) {
    std::vector<std::string> MustStayAbsent;
    std::string Why;
    if (findsHeadersAlike(Donor.Directories, Plan.Directories, P.Lookups,
                          MustStayAbsent, Why)) {
      PreambleFile Copy = P;
      // What the file's own search would have found there instead.
      for (const std::string &Path : MustStayAbsent)
        Copy.Dependencies.try_emplace(Path, "a");
      It->second = std::move(Copy);
      explain("preamble " + Donor.Key +
              " shared with the include directories of " +
              Plan.Command.Filename);
    } else {
      explain("preamble " + Donor.Key + " not shared with " +
              Plan.Command.Filename + ": " + Why);
    }
  }
  return It->second ? &*It->second : nullptr;
}

std::vector<std::string> PreambleStore::useArguments(const PreambleFile &P) {
  return {"-include-pch", P.Pch};
}

} // namespace devplace_tool
