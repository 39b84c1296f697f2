//===--- Reports.h - SARIF 2.1.0, JSON and plain-text reports -------------===//

#ifndef DEVPLACE_TOOL_REPORTS_H
#define DEVPLACE_TOOL_REPORTS_H

#include "Findings.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace devplace_tool {

struct FailedFile {
  std::string File;
  std::vector<Finding> Errors; // the compiler's errors, or one with the reason
};

/// Everything a whole run produced, as the report writers see it.
struct RunReport {
  std::vector<std::string> Checks; // enabled checks, sorted
  unsigned Files = 0;
  std::vector<Finding> Findings; // reported (not suppressed by a baseline)
  std::vector<Finding> Remarks;  // functions whose analysis was cut short
  std::vector<FailedFile> Failed;
  unsigned Suppressed = 0;
  std::vector<std::string> StaleBaselineEntries;
  double Seconds = 0;
  std::string BaseDir;    // the working directory: SARIF's SRCROOT
  std::string DocBaseUri; // where rule help pages live, ending in '/'
};

/// The order findings are reported in: file, line, column, check, message.
bool reportOrder(const Finding &A, const Finding &B);
/// Puts a run's findings, remarks, failures and stale entries in report order.
void sortReport(RunReport &R);

void writeSarif(const RunReport &R, llvm::raw_ostream &OS);
void writeJson(const RunReport &R, llvm::raw_ostream &OS);
/// `file:line:col: level: message [check]` lines with their notes, no
/// colours or source excerpts: for --output files.
void writePlainText(const RunReport &R, llvm::raw_ostream &OS);

/// The API table (model/include/devplace/model/TorchApi.def) as the
/// Markdown that docs/api.md holds: the roles, then every row by role.
void writeApiTable(llvm::raw_ostream &OS);

enum class ReportFormat { Text, Sarif, Json };

/// Writes \p R in \p Format (text as writePlainText) to the file \p Path,
/// or to stdout when it is empty. "" or the reason it cannot be written.
std::string writeReport(const RunReport &R, ReportFormat Format,
                        llvm::StringRef Path);

/// Reads back a report writeSarif or writeJson wrote (what `devplace merge`
/// joins). The SARIF reader recovers what the SARIF writer uses; failed
/// files come from the notifications' translationUnit property.
std::optional<ReportFormat> readReport(llvm::StringRef Text, RunReport &R,
                                       std::string &Error);

/// A check's one-paragraph description from its doc page (compiled in).
std::string checkSummary(llvm::StringRef Check);

} // namespace devplace_tool

#endif
