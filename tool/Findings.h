//===--- Findings.h - one finding, as every output format sees it ---------===//
//
// clang-tidy hands the CLI ClangTidyErrors: file offsets, no lines, no
// enclosing function. The CLI turns each into a Finding once, with 1-based
// lines and columns, the enclosing function and a normalised snippet of the
// reported line. Baselines, SARIF fingerprints, JSON and the summary all read
// the same Finding, so a finding is keyed the same way everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_FINDINGS_H
#define DEVPLACE_TOOL_FINDINGS_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace devplace_tool {

struct SourcePoint {
  std::string File; // absolute path
  unsigned Line = 0, Column = 0; // 1-based; 0 when the file is unknown
};

struct Edit {
  SourcePoint Begin, End;
  unsigned Offset = 0, Length = 0;
  std::string Text;
};

struct Step {
  SourcePoint Where;
  std::string Message;
};

struct Finding {
  std::string Check;
  std::string Level; // "warning", "error" or "remark"
  SourcePoint Where;
  std::string Message;
  std::vector<Step> Notes;
  std::vector<Edit> Fixes;
  std::string Function; // qualified name of the enclosing function, or ""
  std::string Snippet;  // the reported line, whitespace and comments removed
  unsigned Occurrence = 0; // among findings with the same key, in file order
  std::string Fingerprint; // hash of key and occurrence: stable across edits

  /// What a baseline compares: check, file (as given), function, snippet.
  std::string key(llvm::StringRef RelativeFile) const;
};

/// Where each function defined in a translation unit's non-system files
/// begins and ends, so that a diagnostic's offset names its function.
struct FunctionSpan {
  unsigned Begin, End;
  std::string Name;
};
using FunctionIndex = std::map<std::string, std::vector<FunctionSpan>>;

/// Reads source files once per run; thread-safe.
class SourceCache {
public:
  /// The file's text, or "" when it cannot be read.
  llvm::StringRef text(llvm::StringRef AbsPath);
  /// The line and column of \p Offset in the file (both 0 when the file
  /// cannot be read or is shorter): a search in the file's line starts, so
  /// that a file with many findings is not counted through once for each.
  SourcePoint point(llvm::StringRef AbsPath, unsigned Offset);

private:
  struct File {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<unsigned> LineStarts; // offsets; made when first asked
  };
  File &file(llvm::StringRef AbsPath); // with Lock held
  std::mutex Lock;
  llvm::StringMap<File> Files;
};

/// Absolute, dot-free path of a diagnostic's file, resolved against the
/// build directory of its compile command.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef BuildDirectory);

/// Names every file of \p E (its message's, its notes', their ranges' and
/// fixes') by its absolutePath. The compiler spells a header as its search
/// found it (relative to the build directory, or absolute when read from a
/// precompiled preamble); a report spells it one way, whatever the parse.
void makePathsAbsolute(clang::tidy::ClangTidyError &E);

/// Converts clang-tidy's errors of one translation unit into findings.
std::vector<Finding> makeFindings(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors,
                                  const FunctionIndex &Functions,
                                  SourceCache &Sources);

/// Numbers findings that share a key and gives each a fingerprint. Needs
/// the whole run's findings, sorted by file and position.
void assignFingerprints(std::vector<Finding> &All, llvm::StringRef BaseDir);

/// `Path` relative to `BaseDir` when it lies under it, else unchanged.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef BaseDir);

} // namespace devplace_tool

#endif
