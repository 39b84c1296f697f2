//===--- WheelLinkStubs.cpp - what the wheel's static link lacks ----------===//
//
// Debian builds LLVM with Z3 and links Polly into its shared libLLVM, so its
// static archives name both, but it ships no archive of either. devplace
// never runs the static analyzer's Z3 cross-check nor an optimisation
// pipeline; these are what LLVM itself defines when it is built without Z3,
// and a Polly that registers no passes. Compiled into the wheel's binaries
// only (DEVPLACE_WHEEL).
//
//===----------------------------------------------------------------------===//

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SMTAPI.h"
#include "llvm/Support/raw_ostream.h"

// As llvm/lib/Support/Z3Solver.cpp without LLVM_WITH_Z3.
llvm::SMTSolverRef llvm::CreateZ3Solver() {
  llvm::report_fatal_error("devplace is built without Z3 (the static "
                           "analyzer's crosscheck-with-z3 is unavailable)");
}
LLVM_DUMP_METHOD void llvm::SMTSort::dump() const { print(llvm::errs()); }
LLVM_DUMP_METHOD void llvm::SMTExpr::dump() const { print(llvm::errs()); }
LLVM_DUMP_METHOD void llvm::SMTSolver::dump() const { print(llvm::errs()); }
LLVM_DUMP_METHOD void llvm::SMTSolverStatistics::dump() const {
  print(llvm::errs());
}

// Clang's and LTO's optimisation pipelines ask Polly to register its passes.
llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly", LLVM_VERSION_STRING,
          [](llvm::PassBuilder &) {}};
}
