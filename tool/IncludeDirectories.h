//===--- IncludeDirectories.h - a command's include search, for sharing ---===//
//
// Which compile commands may share one precompiled preamble: commands that
// differ only in their include directories do, where every header the
// preamble looked up is found in the same place by both.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_TOOL_INCLUDEDIRECTORIES_H
#define DEVPLACE_TOOL_INCLUDEDIRECTORIES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace devplace_tool {

/// An include directory of a compile command, in the command's order: its
/// option (-I, -isystem, -iquote, -idirafter) and its absolute path.
struct IncludeDirectory {
  std::string Option;
  std::string Path;
  bool operator==(const IncludeDirectory &O) const {
    return Option == O.Option && Path == O.Path;
  }
};

/// Whether a preamble built by a command that searches \p Built finds every
/// header of \p Lookups where a command that searches \p Other would. So it
/// does when no directory of one list and not the other holds any of them
/// (the lookup then ends in a directory both search), and the directories
/// both search are searched in the same order with the same option. When
/// it does, \p MustStayAbsent gets the paths in \p Other's own directories
/// that this rests on (a cache entry depends on them); when not, \p Why
/// says which header would be found elsewhere.
bool findsHeadersAlike(const std::vector<IncludeDirectory> &Built,
                       const std::vector<IncludeDirectory> &Other,
                       const std::vector<std::string> &Lookups,
                       std::vector<std::string> &MustStayAbsent,
                       std::string &Why);

/// Moves the include directories of \p Args (-I, -isystem, -iquote,
/// -idirafter, joined or not) into \p Directories, made absolute against
/// \p WorkingDir, and returns the other arguments. Where the search path
/// has more to it than these lists (frameworks, prefixes, a sysroot's '=',
/// arguments handed to cc1 itself), nothing is moved: such commands share
/// a preamble only when all their arguments are the same.
std::vector<std::string>
splitIncludeDirectories(std::vector<std::string> Args,
                        llvm::StringRef WorkingDir,
                        std::vector<IncludeDirectory> &Directories);

/// Whether an argument of \p Args names a file or folder that is there
/// relative to \p WorkingDir: the compiler itself (its folder is where the
/// driver looks for its toolchain), an argument, the value after its '=',
/// or an option's own value, joined or separate. A command none of whose
/// arguments names one means the same in any folder, so the folders of
/// CMake's targets do not keep their files from sharing a preamble.
bool namesRelativePath(const std::vector<std::string> &Args,
                       llvm::StringRef WorkingDir);

} // namespace devplace_tool

#endif
