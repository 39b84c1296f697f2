//===--- DeviceCheck.h - base of the analysis-based checks ------*- C++ -*-===//
//
// The checks built on the device analysis (host-sink, device-mismatch,
// sync-in-loop) share their options and one analysis per translation unit:
// the first check to ask runs it, the others read its results.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_UTILS_DEVICECHECK_H
#define DEVPLACE_UTILS_DEVICECHECK_H

#include "utils/MainFileDecls.h"
#include "utils/ModelNames.h"

namespace clang::tidy::devplace {

class DeviceCheck : public MainFileCheck {
public:
  DeviceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;
  void onStartOfTranslationUnit() override;

protected:
  /// Called once per analysed function of the main file, in source order.
  virtual void report(const FunctionDecl *FD, const FunctionFacts &R,
                      ASTContext &Ctx) = 0;
  /// Called before the first report() of a translation unit.
  virtual void startTranslationUnit() {}

  /// The model of the translation unit being reported (during report()).
  const DeviceModel &model() const { return *Model; }

  /// Adds the "where it came from" notes of \p Why, source first.
  void addProvenanceNotes(const Step *Why, SourceLocation At,
                          const SourceManager &SM);

private:
  /// Hands the project (when a front end runs one) the summaries of the
  /// main file's functions.
  static void
  exportSummaries(DeviceModel &DA,
                  const std::vector<const FunctionDecl *> &Functions,
                  const SourceManager &SM);

  const DeviceModel *Model = nullptr;
  /// Also analyse functions defined outside the main file (a stress and
  /// audit mode: LibTorch's headers hold tens of thousands of them).
  const bool AnalyzeHeaders;
  /// Emit a remark for each function whose analysis a bound cut short.
  const bool ReportAnalysisLimits;
  /// AnalysisOptions::MaxVisitsPerBlock, for users who want another bound.
  const unsigned VisitsPerBlockLimit;
};

} // namespace clang::tidy::devplace

#endif
