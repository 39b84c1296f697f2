//===--- TupleElements.h - pairs, tuples and structs, by element *- C++ -*-===//
//
// The elements of a pair, a tuple or a struct value (made here, returned
// by the code's own function, constructed, or kept by a variable), taken
// apart by std::get, `.first`, structured bindings and std::tie; and the
// ranges algorithms read and write (std::transform's output).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_TUPLEELEMENTS_H
#define DEVPLACE_MODEL_TUPLEELEMENTS_H

#include "AnalysisUnit.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::devplace {

class TupleElements : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// The element facts of a tuple-like expression, or the member facts (by
  /// field index) of a struct that splitsIntoMembers, when they are known.
  std::optional<llvm::SmallVector<Fact, 2>> elementFacts(const Expr *E);
  /// Element \p I of the tuple-like value \p Obj; unknown (silent) when the
  /// elements cannot be told apart.
  Fact elementOf(const Expr *Obj, unsigned I);
  /// `auto [a, b] = …`: each binding takes its element.
  void bindElements(const VarDecl *VD, const Expr *Init);
  /// The container an iterator walks or writes into: `v` for `v.begin()`
  /// and `std::back_inserter(v)`; else the iterator itself.
  const Expr *rangeOf(const Expr *Iterator);
  /// std::transform's output range gets its function's results.
  void transferElementResults(const CallExpr *CE);
  /// Joins the elements of a returned pair or tuple into the summary.
  void recordReturnElements(const Expr *Value);

private:
  bool ReturnElementsSplit = true;
};

} // namespace clang::devplace

#endif
