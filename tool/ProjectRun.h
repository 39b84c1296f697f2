//===--- ProjectRun.h - analyse many files, in parallel -------------------===//
//
// Each file gets its own ClangTidyContext and ClangTool, so files can be
// analysed on several threads at once (the checks keep their per-TU state in
// thread_local storage). A file that does not parse is a result (its
// compiler errors are among the errors), not an abort: the run goes on.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_PROJECTRUN_H
#define DEVPLACE_TOOL_PROJECTRUN_H

#include "Findings.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "devplace/model/ProjectSummaries.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>
#include <map>

namespace devplace_tool {

class ResultCache;

struct FileResult {
  std::string File;
  bool FromCache = false;
  std::vector<clang::tidy::ClangTidyError> Errors; // NOLINT already applied
  FunctionIndex Functions;
  /// What the parse read (DependencyRecorder's), with a cache.
  std::map<std::string, std::string> Dependencies;
  /// With project summaries: those of the functions this file defines, and
  /// each function of another file it looked up, with the hash of the
  /// summary it found (0: none).
  std::map<std::string, clang::devplace::PortableSummary> Exports;
  std::map<std::string, uint64_t> Used;
};

using OptionsProviderFactory =
    std::function<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>()>;

/// When files are parsed over a shared precompiled preamble (Preamble.h).
enum class PreambleUse {
  Auto,   ///< for groups of more files to analyse than jobs, or one kept
  Always, ///< for every file whose leading includes can be shared
  Never
};

struct RunSettings {
  bool ApplyAnyFix = false;
  unsigned Jobs = 1;
  /// With a cache, a file whose inputs are unchanged is replayed from it
  /// instead, and each file analysed is stored in it; preambles are kept
  /// in it across runs.
  ResultCache *Cache = nullptr;
  /// Traverse only the main file's top-level declarations (clangd's
  /// traversal scope) unless diagnostics in headers are asked for.
  bool MainFileTraversal = true;
  PreambleUse Preamble = PreambleUse::Auto;
  std::string ToolIdentity; ///< names this build in preamble keys
  /// Clang's headers installed beside the binary (the wheel's); "" for
  /// LLVM's own. A command's own -resource-dir comes after it and wins.
  std::string ResourceDir;
  /// The project's summaries (ProjectSummaries.h): each file is analysed
  /// with those of the functions it calls but does not define, and leaves
  /// its own in it; a file whose callees' summaries changed after it was
  /// analysed (or cached) is analysed again, for at most MaxSummaryRounds
  /// rounds. None: each file alone.
  clang::devplace::ProjectSummaries *Summaries = nullptr;
};

/// Rounds of re-analysis after the first: a chain of calls across files
/// settles in one round per file it crosses; the bound keeps a run short.
inline constexpr unsigned MaxSummaryRounds = 3;

/// Analyses `Files` on `Settings.Jobs` threads; `Done` is called once per
/// file, on the worker's thread but never concurrently with itself.
void analyseFiles(const std::vector<std::string> &Files,
                  const clang::tooling::CompilationDatabase &Compilations,
                  const OptionsProviderFactory &MakeOptions,
                  const RunSettings &Settings,
                  const std::function<void(FileResult &)> &Done);

} // namespace devplace_tool

#endif
