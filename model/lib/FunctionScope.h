//===--- FunctionScope.h - the function and its code -----------*- C++ -*-===//
//
// What one function's analysis asks of its code, with no state of the
// flow: names, the variable an expression names, lambdas, the shape of
// types, which callees have summaries to use. Places (where values live)
// and the body's writes are read once, before the flow.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_FUNCTIONSCOPE_H
#define DEVPLACE_MODEL_FUNCTIONSCOPE_H

#include "MutationScanner.h"
#include "Places.h"
#include "TranslationUnitState.h"
#include "devplace/model/DeviceModel.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang::devplace {

/// Where a callee's summary may be used: all non-system code, or only the
/// main file (where accesses inside helpers can be shown).
enum class CalleeScope { NonSystem, MainFile };

class FunctionScope {
public:
  FunctionScope(DeviceModel &Model, const FunctionDecl *FD)
      : Model(Model), Api(Model.api()), Ctx(Model.context()),
        SM(Ctx.getSourceManager()), FD(FD), Storage(Model) {}

  DeviceModel &Model;
  const ApiTable &Api;
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl *FD;
  /// Where the body's values live and the names that reach them.
  Places Storage;
  /// The variables and fields the body writes.
  MutationScanner Mutations;

  /// The qualified name of a call's callee (or a construction's class).
  llvm::StringRef calleeName(const Expr *Call) const;
  bool isTupleLike(QualType T) const;
  bool splitsIntoMembers(QualType T) const {
    return Storage.splitsIntoMembers(T);
  }
  bool hasMemberFact(const FieldDecl *Field) const {
    return Storage.hasMemberPlace(Field);
  }
  /// The lambda \p Fn is: a lambda expression, or a local variable (`auto`
  /// or std::function) that holds one lambda all its life; else null.
  const LambdaExpr *lambdaOf(const Expr *Fn) const;
  bool sameLine(SourceLocation A, SourceLocation B) const;
  const ValueDecl *canonical(const ValueDecl *D) const {
    return Storage.canonical(D);
  }
  /// The variable or this-field an lvalue expression names, if any.
  const ValueDecl *keyOf(const Expr *E) const;
  /// The container variable an element access reads or writes (v[i],
  /// v.at(i), v.back()), if any.
  const ValueDecl *containerOf(const Expr *E) const;
  /// \p E is a member of, or a method call on, this object (in a method).
  bool onThis(const Expr *E) const;
  /// A non-const lvalue reference parameter of a tracked type: what the
  /// function leaves in it is part of its summary.
  bool isOutParam(const ParmVarDecl *P) const;
  /// \p LHS writes through a pointer (`*p`, `p[i]`).
  static bool throughPointer(const Expr *LHS);
  /// The definition behind \p CE whose summary can be used (a
  /// non-dependent body in \p Where, not under analysis: recursion is cut),
  /// or null. \p ArgShift is 1 when the call's first argument is the object
  /// (a member operator call), so that parameter i is argument i + ArgShift.
  const FunctionDecl *summarisable(const CallExpr *CE,
                                   const FunctionDecl *Callee,
                                   CalleeScope Where, unsigned &ArgShift) const;

private:
  /// For a local declared without a value (`std::function<…> f;`) and
  /// assigned once in the function (`f = […](…) {…};`): that value.
  const Expr *onlyAssignedValue(const VarDecl *VD) const;
  mutable std::optional<llvm::DenseMap<const VarDecl *, const Expr *>>
      OnlyAssigned;
};

} // namespace clang::devplace

#endif
