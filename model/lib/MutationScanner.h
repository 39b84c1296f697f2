//===--- MutationScanner.h - the variables a body writes --------*- C++ -*-===//
#ifndef DEVPLACE_MODEL_MUTATIONSCANNER_H
#define DEVPLACE_MODEL_MUTATIONSCANNER_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::devplace {

/// Collects the variables and fields a function writes, so that a boolean
/// flag is taken as a stable condition only when it is not reassigned.
class MutationScanner : public RecursiveASTVisitor<MutationScanner> {
public:
  llvm::DenseSet<const ValueDecl *> Mutated;
  void note(const Expr *E);
  bool VisitBinaryOperator(BinaryOperator *BO);
  bool VisitUnaryOperator(UnaryOperator *UO);
  bool VisitCallExpr(CallExpr *CE);
};

} // namespace clang::devplace

#endif
