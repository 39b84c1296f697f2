//===--- CommandLine.h - devplace's options and configuration ---*- C++ -*-===//
//
// The command line (clang-tidy's flags plus devplace's own) and the
// configuration it selects: which options provider answers for a file, and
// the refusal of a .clang-tidy that does not parse.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_TOOL_COMMANDLINE_H
#define DEVPLACE_TOOL_COMMANDLINE_H

#include "ProjectRun.h"
#include "Reports.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/CommandLine.h"
#include <map>
#include <memory>
#include <string>

namespace devplace_tool {

extern llvm::cl::OptionCategory DevplaceCategory;
extern const char Overview[];
extern const char DefaultChecks[];
using OutputFormat = ReportFormat;
extern llvm::cl::opt<std::string> Checks;
extern llvm::cl::opt<std::string> Config;
extern llvm::cl::opt<std::string> ConfigFile;
extern llvm::cl::opt<std::string> HeaderFilter;
extern llvm::cl::opt<bool> SystemHeaders;
extern llvm::cl::opt<bool> Fix;
extern llvm::cl::opt<std::string> ExportFixes;
extern llvm::cl::opt<bool> ListChecks;
extern llvm::cl::opt<bool> ListApi;
extern llvm::cl::opt<bool> DumpConfig;
extern llvm::cl::opt<bool> Quiet;
extern llvm::cl::opt<bool> Stats;
extern llvm::cl::list<std::string> SourcePaths;
extern llvm::cl::opt<std::string> BuildPath;
extern llvm::cl::list<std::string> Exclude;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<OutputFormat> Format;
extern llvm::cl::opt<std::string> Output;
extern llvm::cl::opt<std::string> BaselineFile;
extern llvm::cl::opt<std::string> WriteBaseline;
extern llvm::cl::opt<std::string> DocUrl;
extern llvm::cl::opt<std::string> CacheDir;
extern llvm::cl::opt<std::string> CacheMaxSize;
extern llvm::cl::opt<std::string> Shard;
extern llvm::cl::opt<PreambleUse> Preamble;
extern llvm::cl::opt<bool> TraverseHeaders;
extern llvm::cl::opt<bool> ProjectSummaries;

/// The options provider the command line selects: --config, --config-file,
/// or the .clang-tidy files next to each source (clang-tidy's own
/// providers). Null, with the reason in \p Error, when a configuration does
/// not parse.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
makeOptionsProvider(std::string &Error);

/// clang-tidy reports a .clang-tidy it cannot parse and carries on without
/// it; devplace refuses instead, as for --config-file. Checks the files that
/// would configure \p File (the nearest, and its parents while they
/// inherit); \p Seen remembers the answers. Empty when all is well.
std::string invalidConfigurationFor(llvm::StringRef File,
                                    std::map<std::string, std::string> &Seen);

} // namespace devplace_tool

#endif
