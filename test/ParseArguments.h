//===--- ParseArguments.h - FILE [OPTIONS] -- FLAGS, parsed ------*- C++ -*-===//
//
// The command line of the suite's small AST tools (devplace-api-resolve,
// devplace-rewrite-sites): one source file, the tool's own options, and
// after `--` the compiler's flags; the file parsed with them.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_TEST_PARSEARGUMENTS_H
#define DEVPLACE_TEST_PARSEARGUMENTS_H

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace devplace_test {

struct ToolInput {
  std::string File;
  llvm::StringSet<> Options;          ///< the given ones of the tool's own
  std::unique_ptr<clang::ASTUnit> AST; ///< null when FILE did not parse
};

/// Parses the command line of tool \p Name (usage \p Usage), whose own
/// options are \p Known, and then FILE with the flags after `--`. Returns
/// false, having said why, on a bad command line or an unreadable file; a
/// file that does not compile gives a null AST.
inline bool parseArguments(int argc, char **argv, llvm::StringRef Name,
                           llvm::StringRef Usage,
                           std::vector<llvm::StringRef> Known,
                           ToolInput &In) {
  std::vector<std::string> Flags;
  bool AfterDashes = false;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    if (AfterDashes) {
      Flags.push_back(A.str());
    } else if (A == "--") {
      AfterDashes = true;
    } else if (llvm::is_contained(Known, A)) {
      In.Options.insert(A);
    } else if (In.File.empty() && !A.starts_with("-")) {
      In.File = A.str();
    } else {
      llvm::errs() << Name << ": unknown argument '" << A << "'\nusage: "
                   << Usage << "\n";
      return false;
    }
  }
  auto Code = llvm::MemoryBuffer::getFile(In.File);
  if (In.File.empty() || !Code) {
    llvm::errs() << Name << ": cannot read '" << In.File << "'\nusage: "
                 << Usage << "\n";
    return false;
  }
  In.AST = clang::tooling::buildASTFromCodeWithArgs((*Code)->getBuffer(),
                                                    Flags, In.File);
  if (In.AST && In.AST->getDiagnostics().hasErrorOccurred())
    In.AST.reset();
  return true;
}

} // namespace devplace_test

#endif
