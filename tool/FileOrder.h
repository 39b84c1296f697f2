//===--- FileOrder.h - which files a run analyses first ---------*- C++ -*-===//
//
// With project summaries, a file analysed after the files it calls into
// sees their summaries at once; before them, it is analysed again in a
// later round. The call graph is what the analysis finds, so the order is
// a guess read from the sources: a file that includes "model.h" in quotes
// most likely calls into the project's model.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_TOOL_FILEORDER_H
#define DEVPLACE_TOOL_FILEORDER_H

#include <cstddef>
#include <string>
#include <vector>

namespace devplace_tool {

/// For each of \p Files, the indices of the others it most likely calls
/// into: those whose stem is the stem of a header it includes in quotes,
/// and that define no `main`. A file that cannot be read calls into none.
std::vector<std::vector<size_t>>
likelyCallees(const std::vector<std::string> &Files);

/// The indices of \p Callees' files, each after the files it calls into
/// where a cycle allows, otherwise in the given order.
std::vector<size_t>
calleesFirst(const std::vector<std::vector<size_t>> &Callees);

} // namespace devplace_tool

#endif
