//===--- Preamble.h - one precompiled preamble for many files ---*- C++ -*-===//
//
// Most of a LibTorch file's parse is `#include <torch/torch.h>`. Files of a
// compilation database that share their compile command and the same
// leading run of #include lines are parsed over one precompiled header of
// those lines, built once (`-include-pch`; the main file's own #includes of
// the same headers are then skipped by their include guards).
//
// The shared region is deliberately narrower than clang's preamble: blank
// lines, comments, `#pragma once` and #include lines from the top of the
// file, up to the first other line (a #define or #if may change what a
// later header means). A quoted include found beside the main file is
// written with that directory, as the compiler would have found it.
//
// A preamble is keyed by everything that decides its content (devplace's
// build, the compile command without the main file, the working directory,
// the included lines) and carries the files its build depended on, as the
// result cache records them; before reuse every one of them is checked, and
// the precompiled file's own hash too. A stale, damaged or foreign preamble
// is rebuilt. A file whose parse over a preamble gives a compiler error is
// parsed again without one: an unguarded header included twice is the
// preamble's fault, not the file's.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_PREAMBLE_H
#define DEVPLACE_TOOL_PREAMBLE_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Process.h"
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
}

namespace devplace_tool {

class ResultCache;

/// The #include lines that open \p Text (a main file's contents), as a
/// preamble's header writes them: quoted includes found in \p MainDir
/// spelled with it. Empty when the file opens with none.
std::vector<std::string> leadingIncludes(llvm::StringRef Text,
                                         llvm::StringRef MainDir);

/// What every parse of a run sets in its invocation, the preambles' builds
/// included (a precompiled header must be built as it is read).
void setUpAsAnalysis(clang::CompilerInvocation &Invocation);

/// A built preamble: the precompiled file and what its build read.
struct PreambleFile {
  std::string Pch;
  std::map<std::string, std::string> Dependencies; // DependencyRecorder's
};

/// What one file can share: its leading #include lines, of which a prefix
/// is taken (the files of a run that share the most lines decide which).
struct PreamblePlan {
  std::string CommandKey; // hash of what keys it besides its lines
  std::vector<std::string> Lines;
  clang::tooling::CompileCommand Command; // the file's, for the build
  std::string Key;                        // of the prefix taken
  std::string Header;                     // the prefix taken
  /// The key of the first \p N lines.
  std::string prefixKey(size_t N) const;
  /// Takes the first \p N lines (all of them when a plan is made).
  void take(size_t N);
};

class PreambleStore {
public:
  /// Preambles kept in \p KeepDir across runs (a result cache's folder), or,
  /// when it is empty, in a temporary folder removed with the store.
  /// \p ToolIdentity names this devplace build. Null, with \p Error, when
  /// no folder can be made.
  static std::unique_ptr<PreambleStore>
  open(llvm::StringRef KeepDir, std::string ToolIdentity, std::string &Error);
  ~PreambleStore();

  /// The plan of \p File, whose one compile command is \p Command and whose
  /// arguments the run adjusts with \p Adjust, all its lines taken;
  /// std::nullopt when it has no leading includes or its command brings its
  /// own precompiled header.
  std::optional<PreamblePlan>
  plan(const std::string &File, const clang::tooling::CompileCommand &Command,
       const clang::tooling::ArgumentsAdjuster &Adjust);

  /// Whether a preamble for \p Key is on disk from an earlier run (not yet
  /// checked: get() checks it).
  bool kept(llvm::StringRef Key) const;

  /// The preamble of \p Plan, checked or built on first request; null when
  /// it cannot be built, and while another thread builds it (the caller
  /// parses its file alone rather than leave its core idle).
  const PreambleFile *get(const PreamblePlan &Plan,
                          const clang::tooling::ArgumentsAdjuster &Adjust);

  /// The arguments that parse a file over \p P.
  static std::vector<std::string> useArguments(const PreambleFile &P);

private:
  PreambleStore(std::string Dir, bool Temporary, std::string Identity)
      : Dir(std::move(Dir)), Temporary(Temporary),
        Identity(std::move(Identity)),
        Explain(
            llvm::sys::Process::GetEnv("DEVPLACE_CACHE_EXPLAIN").has_value()) {}
  /// $DEVPLACE_CACHE_EXPLAIN: say why each preamble was rebuilt.
  void explain(const llvm::Twine &What);
  struct Slot {
    enum { Unbuilt, Building, Ready };
    std::atomic<int> State{Unbuilt};
    std::optional<PreambleFile> File; // written before State is Ready
  };
  std::optional<PreambleFile> reuse(llvm::StringRef Key);
  std::optional<PreambleFile>
  build(const PreamblePlan &Plan,
        const clang::tooling::ArgumentsAdjuster &Adjust);
  std::string path(llvm::StringRef Key, llvm::StringRef Extension) const;

  std::string Dir;
  bool Temporary;
  std::string Identity;
  bool Explain;
  std::mutex Lock;
  std::map<std::string, std::unique_ptr<Slot>> Slots;
};

} // namespace devplace_tool

#endif
