//===--- FileSelection.h - which files a run analyses -----------*- C++ -*-===//
#ifndef DEVPLACE_TOOL_FILESELECTION_H
#define DEVPLACE_TOOL_FILESELECTION_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace devplace_tool {

/// An argument with *, ? or [ selects files of the database by glob.
bool isGlob(llvm::StringRef Arg);
std::string currentDirectory();

/// The files to analyse: the arguments that are files, and the database's
/// files matching the arguments that are globs (all of them when there are
/// no arguments), less --exclude. None, with the reason in \p Error, for a
/// bad glob, a missing file or a file the database does not list.
std::optional<std::vector<std::string>>
selectFiles(const clang::tooling::CompilationDatabase &DB, bool FromDatabase,
            std::string &Error);

/// The part of \p Files that --shard=K/N selects, in their order: the K-th
/// of N runs of equal length (within one file) of the files sorted by path.
/// By count, because a LibTorch file's time is mostly <torch/torch.h>'s
/// (docs/design/tool.md); by path, so N jobs on N machines agree, and so
/// editing a file never moves it to another shard (each shard's cache stays
/// warm).
/// None, with the reason in \p Error, for a malformed K/N.
std::optional<std::vector<std::string>>
selectShard(const std::vector<std::string> &Files, llvm::StringRef Spec,
            std::string &Error);

/// The compilation database when no flags follow `--`: -p's directory
/// itself (not its parents: a -p naming the wrong directory must not quietly
/// pick up another project's database), else the nearest one above the
/// first file. Null, with the reason in \p Error, when there is none.
std::unique_ptr<clang::tooling::CompilationDatabase>
openCompilationDatabase(std::string &Error);

/// \p Base with every command's main file named by its absolute path, in
/// the command and its arguments alike. A database may name a file relative
/// to its command's directory (Meson's, Bazel's do); clang-tidy finds the
/// file's configuration and spells its diagnostics with the working
/// directory changed to that one, which a run on many threads cannot do.
std::unique_ptr<clang::tooling::CompilationDatabase> withAbsoluteMainFiles(
    std::unique_ptr<clang::tooling::CompilationDatabase> Base);

} // namespace devplace_tool

#endif
