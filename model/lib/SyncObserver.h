//===--- SyncObserver.h - host synchronisations -----------------*- C++ -*-===//
//
// In the final pass, copies of values to the host that wait for a device
// (`.item()`, `.cpu()`, printing) of tensors that may be on one, or on the
// device a caller passes in (FunctionFacts::Syncs).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_SYNCOBSERVER_H
#define DEVPLACE_MODEL_SYNCOBSERVER_H

#include "AnalysisUnit.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::devplace {

class SyncObserver : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  void observe(const Expr *E);

private:
  llvm::DenseSet<const Expr *> Synced;
};

} // namespace clang::devplace

#endif
