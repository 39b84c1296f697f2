//===--- ResultCache.h - replay a file's results when nothing changed -----===//
//
// A translation unit's results (clang-tidy's errors with their notes,
// fix-its and remarks, and the function extents) are stored under a key
// made of everything that is known before parsing: devplace's executable,
// the LLVM version, the effective configuration, the compile commands and
// the main file's text. The entry also lists every file the compiler looked
// at, as seen through the file system it was given: the files it read (with
// a hash of the bytes it read), the files and directories it found, and the
// paths it looked for and did not find (an include search that missed). A
// lookup answers only when every one of them is still as recorded — ccache's
// "direct mode", without its blind spot for a header that appears earlier
// in the include path. docs/design/tool.md has the measurements behind the
// choice.
//
// Entries are single files written to a temporary name and renamed, so
// processes and machines can share a directory; anything unreadable,
// damaged or written for another key is a miss.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_RESULTCACHE_H
#define DEVPLACE_TOOL_RESULTCACHE_H

#include "Findings.h"
#include "devplace/Compat.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <atomic>
#include <map>
#include <mutex>
#include <optional>

namespace devplace_tool {

struct FileResult;

/// What the analysis of one file depended on, recorded through the file
/// system the compiler used. Paths are absolute as the compiler spelled them.
class DependencyRecorder : public llvm::vfs::ProxyFileSystem {
public:
  explicit DependencyRecorder(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS)
      : ProxyFileSystem(std::move(FS)) {}

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override;
  bool exists(const llvm::Twine &Path) DEVPLACE_VFS_EXISTS_OVERRIDE;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override;

  /// path -> what was seen there: "a" absent, "d" a directory, "f" a file
  /// whose contents were not read, "r:<hash>" a file read with that content.
  std::map<std::string, std::string> take();

  /// Records what a path holds; called from the files this opens too.
  void saw(llvm::StringRef AbsPath, std::string What);
  std::string absolute(const llvm::Twine &Path);

private:
  std::mutex Lock;
  std::map<std::string, std::string> Seen;
};

class ResultCache {
public:
  /// A cache in \p Dir (created when missing) holding at most \p MaxBytes.
  /// \p ToolIdentity names this devplace build; entries of another are
  /// never answered. Null, with the reason in \p Error, when the directory
  /// cannot be used.
  static std::unique_ptr<ResultCache> open(llvm::StringRef Dir,
                                           uint64_t MaxBytes,
                                           std::string ToolIdentity,
                                           std::string &Error);

  /// The key of everything known before parsing.
  std::string key(llvm::StringRef File, llvm::StringRef Configuration,
                  llvm::ArrayRef<std::string> CompileCommands,
                  bool ApplyAnyFix);

  /// The stored result for \p Key when every file it depended on is as it
  /// was; std::nullopt otherwise (a damaged or foreign entry included).
  std::optional<FileResult> lookup(llvm::StringRef Key);

  /// Stores \p R under \p Key with the files it depended on. Does nothing
  /// when a file read has changed since (its hash differs now).
  void store(llvm::StringRef Key, const FileResult &R,
             const std::map<std::string, std::string> &Dependencies);

  /// Removes the least recently used entries until the cache holds at most
  /// nine tenths of its bound, when it holds more than the bound.
  void evict();

  /// The cache's folder (preambles are kept in it too).
  const std::string &directory() const { return Dir; }

  std::atomic<unsigned> Hits{0}; // misses are the files analysed less these

  /// The hexadecimal BLAKE3 hash of \p Data (128 bits).
  static std::string hash(llvm::StringRef Data);

private:
  ResultCache(std::string Dir, uint64_t MaxBytes, std::string Identity)
      : Dir(std::move(Dir)), MaxBytes(MaxBytes), Identity(std::move(Identity)) {
  }
  std::string entryPath(llvm::StringRef Key) const;
  /// What \p Path holds now, in DependencyRecorder's terms, memoised for
  /// the run (files do not change under a run that reads them).
  std::string observe(llvm::StringRef Path, bool Contents);

  std::string Dir;
  uint64_t MaxBytes;
  bool Explain = false; // $DEVPLACE_CACHE_EXPLAIN: say why each miss missed
  std::string Identity;
  std::mutex Lock;
  llvm::StringMap<std::string> Observed;
};

/// What \p Path holds now, in DependencyRecorder's terms (with \p Contents,
/// the hash of a file's bytes).
std::string observePath(llvm::StringRef Path, bool Contents);

/// A record of devplace's on disk (a cache entry, a preamble's record) when
/// \p Path holds one of \p Format written for \p Key (a JSON object);
/// otherwise std::nullopt, with why in \p Why.
std::optional<llvm::json::Value> readRecord(llvm::StringRef Path,
                                            llvm::StringRef Format,
                                            llvm::StringRef Key,
                                            std::string &Why);

/// The first of a record's \p Dependencies no longer as recorded ("FILE
/// was X, is Y"), or "" when all are; \p Observe says what a path holds
/// now (observePath, or a memoised form of it).
std::string changedDependency(
    const llvm::json::Object &Dependencies,
    llvm::function_ref<std::string(llvm::StringRef, bool)> Observe);

/// Marks \p Path as just used: the least recently used entry goes first
/// when the cache is full.
void markUsed(llvm::StringRef Path);

/// "512K", "200M", "2G" or a number of bytes; std::nullopt when malformed.
std::optional<uint64_t> parseSize(llvm::StringRef Text);

} // namespace devplace_tool

#endif
