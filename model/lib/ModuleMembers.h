//===--- ModuleMembers.h - modules and what follows their moves -*- C++ -*-===//
//
// A module variable (a holder, a shared_ptr, a TorchScript module) is keyed
// by the object a call goes through; a member reached through it follows
// the module's moves when the module registers it, stays where it was made
// when the class provably never does, and is unknown when registration
// cannot be seen.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_MODULEMEMBERS_H
#define DEVPLACE_MODEL_MODULEMEMBERS_H

#include "AnalysisUnit.h"

namespace clang::devplace {

class ModuleMembers : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// The module variable a call goes through: `model->f()`, `(*model).f()`,
  /// `module.f()`, `model(x)`.
  const ValueDecl *moduleKeyOf(const Expr *Obj);
  /// The TorchScript module (or bound method) a call goes through, through
  /// `->` and `*`; null when the object is not one.
  const Expr *scriptModuleOf(const Expr *Obj) const;
  /// What a TorchScript module's call gives: the module's device joined with
  /// its inputs'.
  Fact scriptOutput(const Expr *Module, const CallExpr *Call);
  /// The module variable a member chain starts from: `net` in
  /// `net->fc->weight`; null when a member on the way does not move with
  /// its module (movesWithModule).
  const ValueDecl *moduleRootOf(const Expr *Member);
  /// Whether \p Field follows its module's moves: not when the class
  /// provably never registers it (staysBehind), nor when it is a tensor
  /// member of a class of this code whose registrations cannot all be seen
  /// (a method defined elsewhere, a class derived from): whether the code
  /// registered it is not known, and a device needs the code's choice.
  /// Submodule members are taken to be registered (an unregistered one is
  /// what devplace-unregistered-submodule reports).
  bool movesWithModule(const FieldDecl *Field);
  /// A member of a module class of this code that the class provably never
  /// registers (register_parameter, register_buffer, register_module).
  bool staysBehind(const FieldDecl *Field);
};

} // namespace clang::devplace

#endif
