//===--- FixIts.cpp - source text and insertions for fix-its --------------===//

#include "utils/FixIts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::devplace {

std::string sourceText(SourceRange R, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange CR = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
  if (CR.isInvalid())
    return "";
  return Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
}

FixItHint insertStatementBefore(const Stmt *S, llvm::StringRef Code,
                                const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Start = SM.getExpansionLoc(S->getBeginLoc());
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Start));
  unsigned Offset = SM.getFileOffset(Start), LineStart = Offset;
  while (LineStart > 0 && Buffer[LineStart - 1] != '\n')
    --LineStart;
  llvm::StringRef Indent = Buffer.slice(LineStart, Offset);
  if (Indent.find_first_not_of(" \t") != llvm::StringRef::npos)
    Indent = ""; // S does not start its line
  return FixItHint::CreateInsertion(Start, (Code + "\n" + Indent).str());
}

} // namespace clang::tidy::devplace
