//===--- FixIts.h - source text and insertions for fix-its ------*- C++ -*-===//
#ifndef DEVPLACE_UTILS_FIXITS_H
#define DEVPLACE_UTILS_FIXITS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class ASTContext;
class Stmt;
namespace tidy::devplace {

/// The text of \p R as written in the file, or "" inside a macro.
std::string sourceText(SourceRange R, const ASTContext &Ctx);

/// Inserts the statement \p Code on a line of its own before \p S, indented
/// like \p S.
FixItHint insertStatementBefore(const Stmt *S, llvm::StringRef Code,
                                const ASTContext &Ctx);

} // namespace tidy::devplace
} // namespace clang

#endif
