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
// is rebuilt. Commands that differ only in their include directories (the
// CMake targets of one project, each with its own -I) share one preamble
// when every header its build looked up is found in the same place under
// either command's search path. A file whose parse over a preamble gives a
// compiler error is parsed again without one: an unguarded header included
// twice is the preamble's fault, not the file's.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_PREAMBLE_H
#define DEVPLACE_TOOL_PREAMBLE_H

#include "IncludeDirectories.h"
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

/// A built preamble: the precompiled file, what its build read, and the
/// name of every header it looked up (#include, __has_include), as written.
struct PreambleFile {
  std::string Pch;
  std::map<std::string, std::string> Dependencies; // DependencyRecorder's
  std::vector<std::string> Lookups;
};

/// What one file can share: its leading #include lines, of which a prefix
/// is taken (the files of a run that share the most lines decide which).
struct PreamblePlan {
  std::string CommandKey; // hash of what keys it besides its lines and
                          // include directories
  std::vector<IncludeDirectory> Directories;
  std::vector<std::string> Lines;
  clang::tooling::CompileCommand Command; // the file's, for the build
  std::string Group;  // of the prefix taken, whatever the directories
  std::string Key;    // of the prefix taken, built with these directories
  std::string Header; // the prefix taken
  /// Set when the run's plans are compared: a file of the same group with
  /// other include directories, whose preamble this file is parsed over
  /// when it finds every header alike; and whether this file's own
  /// preamble is worth building when it does not.
  std::shared_ptr<const PreamblePlan> Donor;
  bool OwnPays = true;
  /// The key of the files that may share the first \p N lines, whatever
  /// their include directories.
  std::string groupKey(size_t N) const;
  /// The key of the first \p N lines' preamble built with this command.
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
  /// checked: get() checks it), or was built earlier in this one.
  bool kept(llvm::StringRef Key);

  /// The preamble \p Plan's file is parsed over: its donor's when that
  /// finds every header alike, else its own when that pays, checked or
  /// built on first request; null when none can be built, and while
  /// another thread builds it (the caller parses its file alone rather than
  /// leave its core idle).
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
  /// \p Plan's own preamble; null when it cannot be built, or, with
  /// \p Busy set, while another thread builds it.
  const PreambleFile *own(const PreamblePlan &Plan,
                          const clang::tooling::ArgumentsAdjuster &Adjust,
                          bool &Busy);
  /// \p Donor's preamble \p P as \p Plan's file may use it, memoised for
  /// each set of include directories; null when it finds a header
  /// elsewhere.
  const PreambleFile *shared(const PreambleFile &P, const PreamblePlan &Donor,
                             const PreamblePlan &Plan);
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
  std::mutex ShareLock;
  std::map<std::string, std::optional<PreambleFile>> Shares;
};

} // namespace devplace_tool

#endif
