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
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>

namespace devplace_tool {

class ResultCache;

struct FileResult {
  std::string File;
  bool FromCache = false;
  std::vector<clang::tidy::ClangTidyError> Errors; // NOLINT already applied
  FunctionIndex Functions;
};

using OptionsProviderFactory =
    std::function<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>()>;

/// Analyses `Files` on `Jobs` threads; `Done` is called once per file, on the
/// worker's thread but never concurrently with itself. With a `Cache`, a
/// file whose inputs are unchanged is replayed from it instead, and each
/// file analysed is stored in it.
void analyseFiles(const std::vector<std::string> &Files,
                  const clang::tooling::CompilationDatabase &Compilations,
                  const OptionsProviderFactory &MakeOptions, bool ApplyAnyFix,
                  unsigned Jobs, ResultCache *Cache,
                  const std::function<void(FileResult &)> &Done);

} // namespace devplace_tool

#endif
