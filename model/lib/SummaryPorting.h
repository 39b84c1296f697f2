//===--- SummaryPorting.h - summaries to and from their portable form ---===//
//
// A function's facts as another translation unit imports them: what callers
// read (ProjectSummaries.h) with its places as file, line and column; and
// back, the facts of a declaration whose body is in another file, with
// notes that point there.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_SUMMARYPORTING_H
#define DEVPLACE_MODEL_SUMMARYPORTING_H

#include "TranslationUnitState.h"
#include "devplace/model/Modules.h"
#include "devplace/model/ProjectSummaries.h"
#include <memory>
#include <optional>

namespace clang::devplace {

/// The summary of \p FD (defined here) that callers in other files use.
PortableSummary exportSummary(const FunctionDecl *FD, const FunctionFacts &F,
                              const SourceManager &SM);

/// The facts callers of \p FD (declared here, defined elsewhere) use, from
/// its summary \p S; steps and accesses are made in \p Unit and placed in
/// their own file, which \p SM opens where it can.
std::unique_ptr<FunctionFacts> importSummary(const PortableSummary &S,
                                             const FunctionDecl *FD,
                                             TranslationUnitState &Unit,
                                             SourceManager &SM);

/// The registrations of module class \p RD for files that see only its
/// declaration: none unless \p R, this file's scan, saw every method.
std::optional<PortableSummary>
exportRegistrations(const CXXRecordDecl *RD, const ModuleRegistrations &R);

/// \p R, a scan that did not see every method of \p RD, made whole from
/// the registrations another file exported (\p S).
void importRegistrations(const PortableSummary &S, const CXXRecordDecl *RD,
                         ModuleRegistrations &R);

} // namespace clang::devplace

#endif
