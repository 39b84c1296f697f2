//===--- CalleeSummaries.h - a callee's summary at its call ----*- C++ -*-===//
//
// Callees are analysed on demand, bottom-up, with a recursion cut-off: a
// call's result follows the callee's return summary (in terms of its
// parameters, its flags and atoms as this call sets them), a by-reference
// argument the callee moves takes the value it leaves, and lambdas see
// their captures as they were where the lambda was made.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_CALLEESUMMARIES_H
#define DEVPLACE_MODEL_CALLEESUMMARIES_H

#include "AnalysisUnit.h"
#include "FunctionScope.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::devplace {

/// The argument of a call that binds a callee's parameter i: argument
/// i + First (First is 1 for a member operator call), or null.
struct ArgsOf {
  ArgsOf(const CallExpr *CE, unsigned First)
      : Args(CE->getArgs()), NumArgs(CE->getNumArgs()), First(First) {}
  explicit ArgsOf(const CXXConstructExpr *CE)
      : Args(CE->getArgs()), NumArgs(CE->getNumArgs()), First(0) {}
  const Expr *const *Args;
  unsigned NumArgs, First;
  const Expr *operator()(unsigned I) const {
    return I + First < NumArgs ? Args[I + First] : nullptr;
  }
};

/// A call to code whose summary can be used (CalleeSummaries::helperCall).
struct HelperCall {
  const CallExpr *Call = nullptr;
  const FunctionDecl *Def = nullptr;
  const FunctionFacts *Sum = nullptr;
  unsigned First = 0; ///< argument that binds parameter 0
};

class CalleeSummaries : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// A callee's summary fact \p Ret (its return value, or one element of
  /// it) seen by the caller: its parameters become \p CE's arguments.
  Fact fromSummary(const CallExpr *CE, const FunctionDecl *Def, unsigned First,
                   const Fact &Ret);
  /// The same, with parameter i bound to \p ArgOf(i) (none when null).
  Fact fromSummary(const Expr *Call, const FunctionDecl *Def, const Fact &Ret,
                   llvm::function_ref<const Expr *(unsigned)> ArgOf);
  /// The caller's valuations under which the callee \p Def's summary mask
  /// \p CalleeWhen holds at this call: its flag parameters are the
  /// arguments \p ArgOf gives, its availability atoms the caller's own,
  /// and, when \p Call runs on this object, its constructor-set member
  /// flags the caller's tests of the same flags. An argument on a device of
  /// \p OnDeviceType proves that accelerator available. Atoms the call does
  /// not fix are free.
  Mask callerValuations(const Expr *Call, const FunctionDecl *Def,
                        Mask CalleeWhen,
                        llvm::function_ref<const Expr *(unsigned)> ArgOf,
                        llvm::StringRef OnDeviceType = {});
  /// \p F, passed to \p Def, where \p Sink reaches host code: only under
  /// the helper's guards, as this call sets them.
  Fact guarded(const Fact &F, const Expr *Call, const FunctionDecl *Def,
               const ParamSink &Sink,
               llvm::function_ref<const Expr *(unsigned)> ArgOf);
  /// How notes name the callee \p Def of \p CE: its name, or for a lambda
  /// the variable that holds it.
  std::string calleeText(const CallExpr *CE, const FunctionDecl *Def) const;
  /// A direct call to a function in \p Where whose summary can be used,
  /// with that summary; Sum is null when \p E is no such call. In
  /// non-system scope LibTorch's own functions count as not summarised,
  /// even where its headers are not system headers (-I, not -isystem).
  HelperCall helperCall(const Expr *E, CalleeScope Where);
  /// Updates the arguments a helper writes through its references, as its
  /// summary \p Writer says (`to_device(x)` with
  /// `void to_device(torch::Tensor &t) { t = t.cuda(); }`).
  void applyParamMoves(const HelperCall &Writer);
  void recordCaptures(const LambdaExpr *LE);
};

} // namespace clang::devplace

#endif
