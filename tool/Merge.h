//===--- Merge.h - devplace merge: join the reports of shards -----------===//
#ifndef DEVPLACE_TOOL_MERGE_H
#define DEVPLACE_TOOL_MERGE_H

namespace devplace_tool {

/// `devplace merge [--output=FILE] REPORT...`: reads the SARIF or JSON
/// reports of --shard runs and writes the report one run over all their
/// files writes (JSON's "seconds" is the shards' sum). Exit status as for a
/// run: 2 when a file failed (or for a usage error), 1 with findings, else 0.
int mergeMain(int Argc, const char **Argv);

} // namespace devplace_tool

#endif
