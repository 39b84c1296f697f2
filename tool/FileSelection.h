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

/// The part of \p Files that --shard=K/N selects, in their order. The parts
/// are a function of the files' names and sizes alone, so N jobs on N
/// machines with the same checkout agree on them: sorted by size, largest
/// first, the files are dealt to the N parts in a snake order (1..N, N..1,
/// ...), which balances both the count and the bytes. None, with the reason
/// in \p Error, for a malformed K/N.
std::optional<std::vector<std::string>>
selectShard(const std::vector<std::string> &Files, llvm::StringRef Spec,
            std::string &Error);

/// The compilation database when no flags follow `--`: -p's directory
/// itself (not its parents: a -p naming the wrong directory must not quietly
/// pick up another project's database), else the nearest one above the
/// first file. Null, with the reason in \p Error, when there is none.
std::unique_ptr<clang::tooling::CompilationDatabase>
openCompilationDatabase(std::string &Error);

} // namespace devplace_tool

#endif
