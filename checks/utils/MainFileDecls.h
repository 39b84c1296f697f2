//===--- MainFileDecls.h - what the checks look at --------------*- C++ -*-===//
//
// The declarations of the main file that the checks examine. Every check
// registers one translation-unit matcher and walks these itself: LibTorch's
// headers hold tens of thousands of inline functions, and a matcher on
// functionDecl() would be tried against each of them.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_UTILS_MAINFILEDECLS_H
#define DEVPLACE_UTILS_MAINFILEDECLS_H

#include "clang-tidy/ClangTidyCheck.h"
#include "utils/ModelNames.h"
#include <optional>
#include <vector>

namespace clang {
namespace tidy::devplace {

/// The base of every devplace check: one match per translation unit (the
/// check walks the declarations below itself), C++ only. The declarations
/// are collected once per translation unit for all checks, and forgotten
/// when the next one starts. Every check asks the API table through api():
/// the builtin rows and those its options add.
class MainFileCheck : public ClangTidyCheck {
public:
  MainFileCheck(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void onStartOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

protected:
  /// The table with the rows of the HostSinkFunctions, SourceFunctions and
  /// SanitizerFunctions options.
  const ApiTable &api() const {
    return Configured ? *Configured : ApiTable::builtin();
  }
  /// The options that add rows, as one string: checks with the same table
  /// can share one model.
  std::string tableOptions() const;

private:
  const std::string HostSinkFunctions;
  const std::string SourceFunctions;
  const std::string SanitizerFunctions;
  /// The builtin table with the options' rows; none when the options add
  /// none (every check then shares the builtin table).
  std::optional<ApiTable> Configured;
};

/// Every non-dependent function, method, constructor, lambda body and
/// template instantiation whose definition is in the main file, in source
/// order. With \p AllFiles (the AnalyzeHeaders option), those of every file
/// of the translation unit, headers and system headers included.
std::vector<const FunctionDecl *> mainFileFunctions(ASTContext &Ctx,
                                                    bool AllFiles = false);

/// Every non-dependent class definition in the main file (nested classes and
/// template instantiations included), in source order; \p AllFiles as above.
std::vector<const CXXRecordDecl *> mainFileClasses(ASTContext &Ctx,
                                                   bool AllFiles = false);

} // namespace tidy::devplace
} // namespace clang

#endif
