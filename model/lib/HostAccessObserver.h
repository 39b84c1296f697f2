//===--- HostAccessObserver.h - host code touching memory -------*- C++ -*-===//
//
// In the final pass, host code that touches memory that may not be on the
// host: a dereference or subscript of a pointer into a tensor, an accessor,
// a host-memory call or class given such a pointer, a helper of this file
// whose parameter reaches host code (FunctionFacts::Accesses); and a host
// pointer passed where device memory is expected (HostToDevice).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_HOSTACCESSOBSERVER_H
#define DEVPLACE_MODEL_HOSTACCESSOBSERVER_H

#include "AnalysisUnit.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::devplace {

class HostAccessObserver : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  void observe(const Expr *E);

private:
  void observeSinks(const Expr *E);
  void observeHelperCall(const Expr *E);
  void observeElementCalls(const CallExpr *CE);
  void access(HostAccess::Kind K, const Expr *Sink, const Expr *Operand,
              const Fact &F, llvm::StringRef Callee,
              const HostAccess *Inner = nullptr, llvm::StringRef Name = {});
  std::string tensorNameOf(const Expr *Operand, const Fact &F) const;
  /// What \p Ptr points into when that is host memory on every path: a
  /// host tensor (\p Ptr itself is returned), a standard container that
  /// owns its numbers (`buf.data()`, `&buf[0]`), an array or a number;
  /// null otherwise.
  const Expr *hostMemoryOf(const Expr *Ptr);

  llvm::DenseSet<const Expr *> Accessed;
};

} // namespace clang::devplace

#endif
