//===--- Types.h - the LibTorch types whose device the model follows -*- C++
//-*-===//
//
// Which clang types are the LibTorch value types whose device devplace
// tracks, and naming helpers. Recognition is by qualified class name, from
// the API table (TorchApi.def), so that it works the same on the real headers
// and on the test mocks.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_TYPES_H
#define DEVPLACE_MODEL_TYPES_H

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class NamedDecl;
class FunctionDecl;
class Expr;
class CXXMemberCallExpr;
namespace devplace {

/// The kinds of values whose device the analysis follows.
enum class DeviceCarrier {
  None,
  Tensor,     ///< at::Tensor, at::TensorBase and subclasses
  IValue,     ///< c10::IValue (TorchScript values wrapping tensors)
  Device,     ///< c10::Device, c10::optional<c10::Device>
  DeviceType, ///< c10::DeviceType (kCUDA, kCPU, …)
  Options,    ///< c10::TensorOptions
  Module,     ///< torch::nn::Module subclasses, ModuleHolders, shared_ptrs
              ///< to modules, torch::jit::Module
  Pointer,    ///< a raw pointer, tracked only when it points into a tensor
  Container,  ///< a std container, array or tuple of any of the above
};

/// Classifies \p T (references and cv-qualifiers are looked through).
DeviceCarrier classifyType(QualType T);

/// A value of this kind holds tensors: an operation's inputs.
inline bool carriesTensors(DeviceCarrier C) {
  return C == DeviceCarrier::Tensor || C == DeviceCarrier::IValue ||
         C == DeviceCarrier::Container;
}

/// True for at::Tensor / at::TensorBase and classes derived from them.
bool isTensorType(QualType T);

/// True for torch::nn::Module and classes derived from it.
bool isNNModuleClass(const CXXRecordDecl *RD);

/// True for a TorchScript module or bound method (torch::jit::Module,
/// torch::jit::Method), or a shared pointer to one.
bool isScriptModuleType(QualType T);

/// The name of the module class a module-typed value holds ("ReLU" for
/// torch::nn::ReLU, its ReLUImpl, or a shared_ptr to either; "Net" for a
/// NetImpl of the project's own), or "" when there is none.
std::string moduleClassName(QualType T);

/// The module class a module-typed value holds (NetImpl for Net, a
/// shared_ptr<NetImpl> or NetImpl itself), or null.
const CXXRecordDecl *moduleClassOf(QualType T);

/// The fully qualified name of \p D without template arguments or inline
/// namespaces ("std::vector", "torch::zeros").
std::string qualifiedName(const NamedDecl *D);

/// A method that returns a pointer into the tensor's memory (data_ptr, …:
/// the PointerToMemory rows of the API table).
bool isDataPtrMethod(llvm::StringRef Name);

/// The value \p E denotes, through parentheses, implicit casts, cleanups,
/// temporaries and copy or move constructions.
const Expr *stripValue(const Expr *E);

/// The object a call goes through, behind `->` and `*`: `model` in
/// `model->f()`, `(*model).f()` and `model.f()` (a module holder, a
/// shared_ptr, an iterator).
const Expr *objectBehind(const Expr *Obj);

/// The two sides of an assignment (`a = b`, built in or an operator=
/// call); both null when \p E is none.
struct AssignmentSides {
  const Expr *LHS = nullptr, *RHS = nullptr;
};
AssignmentSides assignmentSides(const Expr *E);

/// The callee's qualified name, or "" when there is no named callee.
std::string calleeName(const Expr *Call);

/// The function does not compile: an invalid declaration, or a body with an
/// expression clang could only recover from (an undeclared name, a call
/// that matches nothing). Such code is not analysed.
bool hasErrors(const FunctionDecl *FD);

/// The name of the method \p MC calls ("to", "data_ptr"), or "" for an
/// operator or a conversion.
llvm::StringRef methodName(const CXXMemberCallExpr *MC);

/// Source text of \p E as written (for messages); trimmed to a short length.
std::string exprText(const Expr *E, const class ASTContext &Ctx,
                     unsigned MaxLen = 48);

} // namespace devplace
} // namespace clang

#endif
