//===--- KernelRegistrations.h - kernels registered for a device -*- C++
//-*-===//
//
// A function that the code registers with the dispatcher for an
// accelerator's dispatch key (`TORCH_LIBRARY_IMPL(ns, CUDA, m) {
// m.impl("op", &op_cuda); }`, `m.impl("op", torch::dispatch(
// c10::DispatchKey::CUDA, TORCH_FN(op_cuda)))`) is called with its tensors
// on that accelerator: its tensor parameters start there.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_KERNELREGISTRATIONS_H
#define DEVPLACE_MODEL_KERNELREGISTRATIONS_H

#include "devplace/model/ApiTable.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace clang::devplace {

/// Where a kernel is registered, and for which accelerator.
struct KernelRegistration {
  SourceLocation At;          ///< the registering call (`m.impl(…)`)
  llvm::StringRef DeviceType; ///< as c10 spells it ("CUDA")
  std::string Key;            ///< the dispatch key as written ("AutogradCUDA")
};

/// The kernels the translation unit registers for accelerators, by
/// canonical declaration: found in the registrars at namespace scope
/// (TORCH_LIBRARY_IMPL's and TORCH_LIBRARY's static initialisers) and the
/// init functions they name, among \p Variables (the code's variables at
/// namespace scope).
llvm::DenseMap<const FunctionDecl *, KernelRegistration>
findKernelRegistrations(ASTContext &Ctx, const ApiTable &Api,
                        llvm::ArrayRef<const VarDecl *> Variables);

} // namespace clang::devplace

#endif
