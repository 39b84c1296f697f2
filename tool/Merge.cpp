//===--- Merge.cpp - devplace merge: join the reports of shards ---------===//
//
// Shards split the files, never a file, so their findings, remarks and
// failures are disjoint: merging is reading each report back, concatenating
// and putting everything in report order, then writing with the same writer
// a single run uses. Reports of different configurations (other checks,
// another working directory or documentation base) are refused: the result
// would match no single run.
//
//===----------------------------------------------------------------------===//

#include "Merge.h"
#include "Reports.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace devplace_tool {

static int mergeError(const Twine &Msg) {
  WithColor::error(errs(), "devplace merge") << Msg << "\n";
  return 2;
}

int mergeMain(int Argc, const char **Argv) {
  std::string Output;
  std::vector<std::string> Inputs;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--help" || A == "-h") {
      outs()
          << "USAGE: devplace merge [--output=FILE] REPORT...\n\n"
             "Joins the SARIF or JSON reports of 'devplace --shard=K/N' runs "
             "into the\nreport one run over all their files writes.\n";
      return 0;
    }
    if (A.consume_front("--output=") || A.consume_front("-o=")) {
      Output = A.str();
    } else if (A == "--output" || A == "-o") {
      if (++I == Argc)
        return mergeError("--output needs a file name");
      Output = Argv[I];
    } else if (A.starts_with("-") && A != "-") {
      return mergeError("unknown option '" + A +
                        "'; run 'devplace merge --help'");
    } else {
      Inputs.push_back(A.str());
    }
  }
  if (Inputs.empty())
    return mergeError("no reports to merge; run 'devplace merge --help'");

  RunReport All;
  std::optional<ReportFormat> Format;
  for (const std::string &In : Inputs) {
    auto Text = MemoryBuffer::getFileOrSTDIN(In);
    if (!Text)
      return mergeError("cannot read '" + In +
                        "': " + Text.getError().message());
    RunReport One;
    std::string Error;
    std::optional<ReportFormat> F =
        readReport((*Text)->getBuffer(), One, Error);
    if (!F)
      return mergeError("'" + In + "': " + Error);
    if (Format && *F != *Format)
      return mergeError(
          "'" + In + "' is " + (*F == ReportFormat::Sarif ? "SARIF" : "JSON") +
          " and '" + Inputs.front() + "' is not: merge reports of one format");
    if (Format && (One.Checks != All.Checks || One.BaseDir != All.BaseDir ||
                   One.DocBaseUri != All.DocBaseUri))
      return mergeError("'" + In +
                        "' comes from a run with other checks or another "
                        "working directory than '" +
                        Inputs.front() + "'");
    if (!Format) {
      All.Checks = One.Checks;
      All.BaseDir = One.BaseDir;
      All.DocBaseUri = One.DocBaseUri;
    }
    Format = F;
    All.Files += One.Files;
    All.Suppressed += One.Suppressed;
    All.Seconds += One.Seconds;
    All.Findings.insert(All.Findings.end(), One.Findings.begin(),
                        One.Findings.end());
    All.Remarks.insert(All.Remarks.end(), One.Remarks.begin(),
                       One.Remarks.end());
    All.Failed.insert(All.Failed.end(), One.Failed.begin(), One.Failed.end());
    All.StaleBaselineEntries.insert(All.StaleBaselineEntries.end(),
                                    One.StaleBaselineEntries.begin(),
                                    One.StaleBaselineEntries.end());
  }
  sortReport(All);

  if (std::string Problem = writeReport(All, *Format, Output); !Problem.empty())
    return mergeError(Problem);
  if (!All.Failed.empty())
    return 2;
  return All.Findings.empty() ? 0 : 1;
}

} // namespace devplace_tool
