//===--- ResultCache.cpp - replay a file's results when nothing changed ---===//

#include "ResultCache.h"
#include "ProjectRun.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace clang;
using namespace clang::tidy;
using namespace llvm;

namespace devplace_tool {

// Bump when the entry format or what a key covers changes.
static const char EntryFormat[] = "devplace-cache-1";

std::string ResultCache::hash(StringRef Data) {
  BLAKE3 Hasher;
  Hasher.update(Data);
  return toHex(Hasher.final<16>(), /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// Recording what the compiler looked at
//===----------------------------------------------------------------------===//

namespace {
/// A file opened for the compiler: the bytes it reads are hashed.
class RecordingFile : public vfs::File {
public:
  RecordingFile(std::unique_ptr<vfs::File> Inner, std::string Path,
                DependencyRecorder &Recorder)
      : Inner(std::move(Inner)), Path(std::move(Path)), Recorder(Recorder) {}
  ErrorOr<vfs::Status> status() override { return Inner->status(); }
  ErrorOr<std::string> getName() override { return Inner->getName(); }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name,
                                                   int64_t FileSize,
                                                   bool RequiresNullTerminator,
                                                   bool IsVolatile) override {
    auto Buffer =
        Inner->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (Buffer)
      Recorder.saw(Path, "r:" + ResultCache::hash((*Buffer)->getBuffer()));
    return Buffer;
  }
  std::error_code close() override { return Inner->close(); }

private:
  std::unique_ptr<vfs::File> Inner;
  std::string Path;
  DependencyRecorder &Recorder;
};
} // namespace

std::string DependencyRecorder::absolute(const Twine &Path) {
  SmallString<256> P;
  Path.toVector(P);
  getUnderlyingFS().makeAbsolute(P);
  return std::string(P);
}

void DependencyRecorder::saw(StringRef AbsPath, std::string What) {
  std::lock_guard<std::mutex> Guard(Lock);
  std::string &Old = Seen[AbsPath.str()];
  // What was read says the most; a later stat of the same file adds nothing.
  if (StringRef(Old).starts_with("r:") && What == "f")
    return;
  Old = std::move(What);
}

ErrorOr<vfs::Status> DependencyRecorder::status(const Twine &Path) {
  auto S = ProxyFileSystem::status(Path);
  saw(absolute(Path), !S ? "a" : S->isDirectory() ? "d" : "f");
  return S;
}

bool DependencyRecorder::exists(const Twine &Path) {
  return static_cast<bool>(status(Path));
}

ErrorOr<std::unique_ptr<vfs::File>>
DependencyRecorder::openFileForRead(const Twine &Path) {
  std::string Abs = absolute(Path);
  auto F = ProxyFileSystem::openFileForRead(Path);
  if (!F) {
    saw(Abs, "a");
    return F;
  }
  saw(Abs, "f");
  return std::unique_ptr<vfs::File>(
      std::make_unique<RecordingFile>(std::move(*F), Abs, *this));
}

std::map<std::string, std::string> DependencyRecorder::take() {
  std::lock_guard<std::mutex> Guard(Lock);
  return std::move(Seen);
}

//===----------------------------------------------------------------------===//
// Entries: clang-tidy's errors and the function extents as JSON
//===----------------------------------------------------------------------===//

static json::Object messageToJson(const tooling::DiagnosticMessage &M) {
  json::Array Ranges;
  for (const tooling::FileByteRange &R : M.Ranges)
    Ranges.push_back(json::Array{R.FilePath, R.FileOffset, R.Length});
  // json::Value and json::ObjectKey only borrow a StringRef: copy.
  json::Object Fix;
  for (const auto &Entry : M.Fix) {
    json::Array Edits;
    for (const tooling::Replacement &E : Entry.getValue())
      Edits.push_back(json::Array{E.getOffset(), E.getLength(),
                                  E.getReplacementText().str()});
    Fix[Entry.getKey().str()] = std::move(Edits);
  }
  return json::Object{{"text", M.Message},
                      {"file", M.FilePath},
                      {"offset", M.FileOffset},
                      {"ranges", std::move(Ranges)},
                      {"fix", std::move(Fix)}};
}

static json::Object resultToJson(const FileResult &R) {
  json::Array Errors;
  for (const ClangTidyError &E : R.Errors) {
    json::Array Notes, Aliases;
    for (const tooling::DiagnosticMessage &N : E.Notes)
      Notes.push_back(messageToJson(N));
    for (const std::string &A : E.EnabledDiagnosticAliases)
      Aliases.push_back(A);
    Errors.push_back(json::Object{{"name", E.DiagnosticName},
                                  {"level", static_cast<int>(E.DiagLevel)},
                                  {"dir", E.BuildDirectory},
                                  {"werror", E.IsWarningAsError},
                                  {"aliases", std::move(Aliases)},
                                  {"message", messageToJson(E.Message)},
                                  {"notes", std::move(Notes)}});
  }
  json::Object Functions;
  for (const auto &[File, Spans] : R.Functions) {
    json::Array List;
    for (const FunctionSpan &S : Spans)
      List.push_back(json::Array{S.Begin, S.End, S.Name});
    Functions[File] = std::move(List);
  }
  json::Object Used;
  for (const auto &[Name, Hash] : R.Used)
    Used[Name] = llvm::utohexstr(Hash);
  return json::Object{{"errors", std::move(Errors)},
                      {"functions", std::move(Functions)},
                      {"exports", clang::devplace::summariesToJSON(R.Exports)},
                      {"used", std::move(Used)}};
}

/// Reads what messageToJson wrote; false when anything is missing or wrong.
static bool messageFromJson(const json::Value *V,
                            tooling::DiagnosticMessage &M) {
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return false;
  auto Text = O->getString("text");
  auto File = O->getString("file");
  auto Offset = O->getInteger("offset");
  const json::Array *Ranges = O->getArray("ranges");
  const json::Object *Fix = O->getObject("fix");
  if (!Text || !File || !Offset || !Ranges || !Fix)
    return false;
  M.Message = Text->str();
  M.FilePath = File->str();
  M.FileOffset = *Offset;
  for (const json::Value &R : *Ranges) {
    const json::Array *A = R.getAsArray();
    if (!A || A->size() != 3 || !(*A)[0].getAsString() ||
        !(*A)[1].getAsInteger() || !(*A)[2].getAsInteger())
      return false;
    tooling::FileByteRange Range;
    Range.FilePath = (*A)[0].getAsString()->str();
    Range.FileOffset = *(*A)[1].getAsInteger();
    Range.Length = *(*A)[2].getAsInteger();
    M.Ranges.push_back(std::move(Range));
  }
  for (const auto &[FileName, Edits] : *Fix) {
    const json::Array *List = Edits.getAsArray();
    if (!List)
      return false;
    tooling::Replacements &Out = M.Fix[FileName.str()];
    for (const json::Value &E : *List) {
      const json::Array *A = E.getAsArray();
      if (!A || A->size() != 3 || !(*A)[0].getAsInteger() ||
          !(*A)[1].getAsInteger() || !(*A)[2].getAsString())
        return false;
      if (llvm::Error Err = Out.add(tooling::Replacement(
              FileName.str(), *(*A)[0].getAsInteger(), *(*A)[1].getAsInteger(),
              *(*A)[2].getAsString()))) {
        consumeError(std::move(Err));
        return false;
      }
    }
  }
  return true;
}

static bool resultFromJson(const json::Object *O, FileResult &R) {
  const json::Array *Errors = O ? O->getArray("errors") : nullptr;
  const json::Object *Functions = O ? O->getObject("functions") : nullptr;
  auto Exports = O ? O->getString("exports") : std::nullopt;
  const json::Object *Used = O ? O->getObject("used") : nullptr;
  if (!Errors || !Functions || !Exports || !Used)
    return false;
  if (auto M = clang::devplace::summariesFromJSON(*Exports))
    R.Exports = std::move(*M);
  else
    return false;
  for (const auto &[Name, Hash] : *Used) {
    uint64_t H = 0;
    if (!Hash.getAsString() || Hash.getAsString()->getAsInteger(16, H))
      return false;
    R.Used[Name.str()] = H;
  }
  for (const json::Value &V : *Errors) {
    const json::Object *E = V.getAsObject();
    if (!E)
      return false;
    auto Name = E->getString("name");
    auto Level = E->getInteger("level");
    auto Dir = E->getString("dir");
    auto WError = E->getBoolean("werror");
    const json::Array *Aliases = E->getArray("aliases");
    const json::Array *Notes = E->getArray("notes");
    if (!Name || !Level || !Dir || !WError || !Aliases || !Notes)
      return false;
    ClangTidyError Error(*Name, static_cast<ClangTidyError::Level>(*Level),
                         *Dir, *WError);
    if (!messageFromJson(E->get("message"), Error.Message))
      return false;
    for (const json::Value &N : *Notes) {
      Error.Notes.emplace_back();
      if (!messageFromJson(&N, Error.Notes.back()))
        return false;
    }
    for (const json::Value &A : *Aliases) {
      if (!A.getAsString())
        return false;
      Error.EnabledDiagnosticAliases.push_back(A.getAsString()->str());
    }
    R.Errors.push_back(std::move(Error));
  }
  for (const auto &[File, Spans] : *Functions) {
    const json::Array *List = Spans.getAsArray();
    if (!List)
      return false;
    std::vector<FunctionSpan> &Out = R.Functions[File.str()];
    for (const json::Value &S : *List) {
      const json::Array *A = S.getAsArray();
      if (!A || A->size() != 3 || !(*A)[0].getAsInteger() ||
          !(*A)[1].getAsInteger() || !(*A)[2].getAsString())
        return false;
      Out.push_back({static_cast<unsigned>(*(*A)[0].getAsInteger()),
                     static_cast<unsigned>(*(*A)[1].getAsInteger()),
                     (*A)[2].getAsString()->str()});
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

std::unique_ptr<ResultCache> ResultCache::open(StringRef Dir, uint64_t MaxBytes,
                                               std::string ToolIdentity,
                                               std::string &Error) {
  SmallString<256> Abs(Dir);
  sys::fs::make_absolute(Abs);
  if (std::error_code EC = sys::fs::create_directories(Abs)) {
    Error =
        "cannot use the cache directory '" + Dir.str() + "': " + EC.message();
    return nullptr;
  }
  if (sys::fs::access(Abs, sys::fs::AccessMode::Write)) {
    Error = "cannot write to the cache directory '" + Dir.str() + "'";
    return nullptr;
  }
  auto Cache = std::unique_ptr<ResultCache>(
      new ResultCache(std::string(Abs), MaxBytes, std::move(ToolIdentity)));
  Cache->Explain = sys::Process::GetEnv("DEVPLACE_CACHE_EXPLAIN").has_value();
  return Cache;
}

std::string ResultCache::key(StringRef File, StringRef Configuration,
                             ArrayRef<std::string> CompileCommands,
                             bool ApplyAnyFix) {
  std::string Text;
  raw_string_ostream OS(Text);
  auto Main = MemoryBuffer::getFile(File);
  OS << EntryFormat << '\0' << Identity << '\0' << File << '\0'
     << (Main ? hash((*Main)->getBuffer()) : std::string("unreadable")) << '\0'
     << Configuration << '\0' << ApplyAnyFix << '\0';
  for (const std::string &C : CompileCommands)
    OS << C << '\0';
  return hash(OS.str());
}

std::string ResultCache::entryPath(StringRef Key) const {
  SmallString<256> P(Dir);
  sys::path::append(P, Key.take_front(2), Key + ".json");
  return std::string(P);
}

std::string observePath(StringRef Path, bool Contents) {
  sys::fs::file_status S;
  if (sys::fs::status(Path, S) || !sys::fs::exists(S))
    return "a";
  if (sys::fs::is_directory(S))
    return "d";
  if (!Contents)
    return "f";
  if (auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false))
    return "r:" + ResultCache::hash((*Buffer)->getBuffer());
  return "a";
}

std::optional<json::Value> readRecord(StringRef Path, StringRef Format,
                                      StringRef Key, std::string &Why) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Why = "none on disk";
    return std::nullopt;
  }
  Expected<json::Value> Record = json::parse((*Buffer)->getBuffer());
  if (!Record) {
    consumeError(Record.takeError());
    Why = "it is not JSON";
    return std::nullopt;
  }
  const json::Object *O = Record->getAsObject();
  if (!O || O->getString("format") != Format || O->getString("key") != Key) {
    Why = "it is of another format or key";
    return std::nullopt;
  }
  return std::move(*Record);
}

std::string
changedDependency(const json::Object &Dependencies,
                  function_ref<std::string(StringRef, bool)> Observe) {
  for (const auto &[File, Seen] : Dependencies) {
    auto Recorded = Seen.getAsString();
    if (!Recorded)
      return "its dependencies are damaged";
    std::string Now = Observe(File, Recorded->starts_with("r:"));
    if (Now != *Recorded)
      return (File + " was " + *Recorded + ", is " + Now).str();
  }
  return "";
}

void markUsed(StringRef Path) {
  int FD;
  if (!sys::fs::openFileForWrite(Path, FD, sys::fs::CD_OpenExisting,
                                 sys::fs::OF_Append)) {
    (void)sys::fs::setLastAccessAndModificationTime(
        FD, std::chrono::system_clock::now());
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
}

std::string ResultCache::observe(StringRef Path, bool Contents) {
  std::string MemoKey = (Contents ? "r" : "s") + Path.str();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Observed.find(MemoKey);
    if (It != Observed.end())
      return It->second;
  }
  std::string What = observePath(Path, Contents);
  std::lock_guard<std::mutex> Guard(Lock);
  Observed[MemoKey] = What;
  return What;
}

std::optional<FileResult> ResultCache::lookup(StringRef Key) {
  auto Miss = [&](const Twine &Why) -> std::optional<FileResult> {
    if (Explain) {
      std::lock_guard<std::mutex> Guard(Lock);
      errs() << "devplace: cache miss " << Key << ": " << Why << "\n";
    }
    return std::nullopt;
  };
  std::string Path = entryPath(Key);
  std::string Why;
  std::optional<json::Value> Entry = readRecord(Path, EntryFormat, Key, Why);
  if (!Entry)
    return Miss(Why);
  const json::Object *O = Entry->getAsObject();
  const json::Object *Dependencies = O->getObject("dependencies");
  if (!Dependencies)
    return Miss("the entry lists no dependencies");
  std::string Changed =
      changedDependency(*Dependencies, [&](StringRef File, bool Contents) {
        return observe(File, Contents);
      });
  if (!Changed.empty())
    return Miss(Changed);
  FileResult R;
  if (!resultFromJson(O->getObject("result"), R))
    return Miss("the entry's result is damaged");
  markUsed(Path);
  ++Hits;
  return R;
}

void ResultCache::store(
    StringRef Key, const FileResult &R,
    const std::map<std::string, std::string> &Dependencies) {
  json::Object Seen;
  for (const auto &[File, What] : Dependencies)
    Seen[File] = What;
  json::Object Entry{{"format", EntryFormat},
                     {"key", Key},
                     {"file", R.File},
                     {"dependencies", std::move(Seen)},
                     {"result", resultToJson(R)}};
  std::string Final = entryPath(Key);
  if (sys::fs::create_directories(sys::path::parent_path(Final)))
    return;
  // Written under a unique name, then renamed: a reader sees the old entry,
  // the new one, or none, never half of one.
  SmallString<256> Temporary;
  int FD;
  if (sys::fs::createUniqueFile(Final + ".tmp-%%%%%%%%", FD, Temporary))
    return;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << json::Value(std::move(Entry));
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Temporary);
      return;
    }
  }
  if (sys::fs::rename(Temporary, Final))
    sys::fs::remove(Temporary);
}

void ResultCache::evict() {
  struct Held {
    bool Entry; // a result entry, else a preamble or its record
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Used;
  };
  std::vector<Held> Entries;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC)) {
    sys::fs::file_status S;
    if (sys::fs::status(I->path(), S) || !sys::fs::is_regular_file(S))
      continue;
    StringRef Name = sys::path::filename(I->path());
    // A temporary file an interrupted writer left behind.
    if (Name.contains(".tmp-")) {
      if (Now - S.getLastModificationTime() > std::chrono::hours(1))
        sys::fs::remove(I->path());
      continue;
    }
    // Result entries, and the preambles kept beside them (each with its
    // record: a preamble whose record went first is rebuilt, never used).
    if (!Name.ends_with(".json") && !Name.ends_with(".pch"))
      continue;
    bool InPreambles =
        sys::path::filename(sys::path::parent_path(I->path())) == "preambles";
    Entries.push_back(
        {!InPreambles, I->path(), S.getSize(), S.getLastModificationTime()});
    Total += S.getSize();
  }
  if (Total <= MaxBytes)
    return;
  // Preambles go first: one costs a single parse to rebuild, where each
  // entry saves one, and it is a hundred megabytes.
  llvm::sort(Entries, [](const Held &A, const Held &B) {
    return std::tie(A.Entry, A.Used, A.Path) <
           std::tie(B.Entry, B.Used, B.Path);
  });
  for (const Held &H : Entries) {
    if (Total <= MaxBytes / 10 * 9)
      break;
    if (!sys::fs::remove(H.Path))
      Total -= H.Size;
  }
}

std::optional<uint64_t> parseSize(StringRef Text) {
  Text = Text.trim();
  uint64_t Scale = 1;
  if (!Text.empty()) {
    switch (toUpper(Text.back())) {
    case 'K':
      Scale = 1ull << 10;
      break;
    case 'M':
      Scale = 1ull << 20;
      break;
    case 'G':
      Scale = 1ull << 30;
      break;
    }
    if (Scale != 1)
      Text = Text.drop_back();
  }
  uint64_t N;
  if (Text.empty() || Text.getAsInteger(10, N) || N == 0)
    return std::nullopt;
  return N * Scale;
}

} // namespace devplace_tool
