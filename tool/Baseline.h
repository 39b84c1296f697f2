//===--- Baseline.h - findings accepted once, not reported again ----------===//
//
// A baseline records findings by key — check, file relative to the baseline,
// enclosing function and the normalised reported line — with a count, so
// that edits elsewhere in a file (moved lines, new functions) keep matching
// while a new bug, even in a known function, does not.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_BASELINE_H
#define DEVPLACE_TOOL_BASELINE_H

#include "Findings.h"
#include "llvm/Support/Error.h"
#include <map>
#include <mutex>
#include <set>

namespace devplace_tool {

class Baseline {
public:
  static llvm::Expected<Baseline> load(llvm::StringRef Path);
  static llvm::Error write(llvm::StringRef Path, llvm::ArrayRef<Finding> Findings);

  /// True when `F` is in the baseline (each entry absorbs `count` findings).
  bool absorbs(const Finding &F);
  /// Entries of analysed files that matched nothing in this run.
  std::vector<std::string> stale(const std::set<std::string> &AnalysedFiles) const;

  Baseline(const Baseline &Other) : Dir(Other.Dir), Entries(Other.Entries) {}

private:
  Baseline() = default;
  struct Entry {
    std::string Check, File, Function, Snippet;
    unsigned Left = 0;
  };
  std::string Dir; // paths in the baseline are relative to its directory
  std::map<std::string, Entry> Entries;
  std::mutex Lock;
};

} // namespace devplace_tool

#endif
