//===--- FileSelection.cpp - which files a run analyses -------------------===//

#include "FileSelection.h"
#include "CommandLine.h"
#include "Findings.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include <set>

using namespace clang;
using namespace llvm;

namespace devplace_tool {

bool isGlob(StringRef Arg) {
  return Arg.find_first_of("*?[") != StringRef::npos;
}

std::string currentDirectory() {
  SmallString<256> CWD;
  sys::fs::current_path(CWD);
  return std::string(CWD);
}

std::optional<std::vector<std::string>>
selectShard(const std::vector<std::string> &Files, StringRef Spec,
            std::string &Error) {
  auto [KText, NText] = Spec.split('/');
  unsigned K, N;
  if (KText.getAsInteger(10, K) || NText.getAsInteger(10, N) || N == 0 ||
      K == 0 || K > N) {
    Error = "invalid --shard '" + Spec.str() +
            "': expected K/N with 1 <= K <= N, e.g. --shard=2/4";
    return std::nullopt;
  }
  std::vector<std::string> ByPath = Files;
  llvm::sort(ByPath);
  std::set<std::string> Mine(ByPath.begin() + (K - 1) * ByPath.size() / N,
                             ByPath.begin() + K * ByPath.size() / N);
  std::vector<std::string> Out;
  for (const std::string &F : Files)
    if (Mine.count(F))
      Out.push_back(F);
  return Out;
}

std::optional<std::vector<std::string>>
selectFiles(const tooling::CompilationDatabase &DB, bool FromDatabase,
            std::string &Error) {
  std::vector<GlobPattern> Include, Skip;
  for (const auto *List : {&SourcePaths, &Exclude})
    for (const std::string &G : *List) {
      if (List == &SourcePaths && !isGlob(G))
        continue;
      auto P = GlobPattern::create(G);
      if (!P) {
        Error = "invalid glob '" + G + "': " + toString(P.takeError());
        return std::nullopt;
      }
      (List == &SourcePaths ? Include : Skip).push_back(std::move(*P));
    }
  std::string CWD = currentDirectory();
  auto Matches = [&](const std::vector<GlobPattern> &Globs, StringRef Abs) {
    std::string Rel = relativeTo(Abs, CWD);
    for (const GlobPattern &G : Globs)
      if (G.match(Abs) || G.match(Rel))
        return true;
    return false;
  };
  // Clang's JSON database answers for any file by borrowing a neighbour's
  // command; only the files it lists count as in it.
  std::set<std::string> Listed;
  if (FromDatabase)
    for (const std::string &F : DB.getAllFiles())
      Listed.insert(absolutePath(F, ""));
  std::vector<std::string> Files;
  std::set<std::string> Seen;
  for (const std::string &Arg : SourcePaths) {
    if (isGlob(Arg))
      continue;
    if (!sys::fs::exists(Arg)) {
      Error = "no such file: '" + Arg + "'";
      return std::nullopt;
    }
    std::string Abs = absolutePath(Arg, "");
    if (FromDatabase && !Listed.count(Abs)) {
      Error = "'" + Arg +
              "' is not in the compilation database; add it to the "
              "build, or give its flags after --";
      return std::nullopt;
    }
    if (!Matches(Skip, Abs) && Seen.insert(Abs).second)
      Files.push_back(Abs);
  }
  if (FromDatabase && (Include.size() || SourcePaths.empty()))
    for (const std::string &Abs : Listed) {
      if ((SourcePaths.empty() || Matches(Include, Abs)) &&
          !Matches(Skip, Abs) && Seen.insert(Abs).second)
        Files.push_back(Abs);
    }
  return Files;
}

std::unique_ptr<tooling::CompilationDatabase>
openCompilationDatabase(std::string &Error) {
  std::string Ignored;
  if (!BuildPath.empty()) {
    if (auto DB =
            tooling::CompilationDatabase::loadFromDirectory(BuildPath, Ignored))
      return DB;
    Error = "no compile_commands.json in '" + BuildPath +
            "' (give the build directory that holds it)";
    return nullptr;
  }
  if (SourcePaths.empty()) {
    Error = "no input files; give source files, or -p BUILD_DIR to analyse a "
            "whole project (see --help)";
    return nullptr;
  }
  for (const std::string &A : SourcePaths)
    if (!isGlob(A) && !sys::fs::exists(A)) {
      Error = "no such file: '" + A + "'";
      return nullptr;
    }
  if (auto DB = tooling::CompilationDatabase::autoDetectFromSource(
          absolutePath(SourcePaths.front(), ""), Ignored))
    return DB;
  Error = "no compile_commands.json found for '" + SourcePaths.front() +
          "' in its directory or above; give -p BUILD_DIR, or the compiler "
          "flags after --";
  return nullptr;
}

namespace {
class AbsoluteMainFiles : public tooling::CompilationDatabase {
public:
  explicit AbsoluteMainFiles(std::unique_ptr<CompilationDatabase> Base)
      : Base(std::move(Base)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    return absolute(Base->getCompileCommands(FilePath));
  }
  std::vector<std::string> getAllFiles() const override {
    return Base->getAllFiles();
  }
  std::vector<tooling::CompileCommand> getAllCompileCommands() const override {
    return absolute(Base->getAllCompileCommands());
  }

private:
  static std::vector<tooling::CompileCommand>
  absolute(std::vector<tooling::CompileCommand> Commands) {
    for (tooling::CompileCommand &C : Commands) {
      if (sys::path::is_absolute(C.Filename))
        continue;
      std::string Abs = absolutePath(C.Filename, C.Directory);
      for (std::string &Arg : C.CommandLine)
        if (Arg == C.Filename)
          Arg = Abs;
      C.Filename = std::move(Abs);
    }
    return Commands;
  }
  std::unique_ptr<CompilationDatabase> Base;
};
} // namespace

std::unique_ptr<tooling::CompilationDatabase>
withAbsoluteMainFiles(std::unique_ptr<tooling::CompilationDatabase> Base) {
  return std::make_unique<AbsoluteMainFiles>(std::move(Base));
}

} // namespace devplace_tool
