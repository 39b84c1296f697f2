//===--- StatementTransfer.h - what a statement does -----------*- C++ -*-===//
//
// Declarations, returns, assignments (to variables, members, containers and
// tuples of references), structured bindings, module moves, container
// insertions and lambda captures; before them, what the statement's calls
// do (pending copies, helpers' writes through references, writes no
// summary says, methods that change a local object).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_STATEMENTTRANSFER_H
#define DEVPLACE_MODEL_STATEMENTTRANSFER_H

#include "AnalysisUnit.h"

namespace clang::devplace {

class StatementTransfer : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  void transfer(const Stmt *S);
  /// Member initialisers: `device_(is_available() ? kCUDA : kCPU)`.
  void transferInitializer(const CXXCtorInitializer *I);

private:
  void transferDecl(const VarDecl *VD);
};

} // namespace clang::devplace

#endif
