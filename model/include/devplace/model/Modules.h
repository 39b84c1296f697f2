//===--- Modules.h - which members of a module class are registered -*- C++
//-*-===//
//
// A torch::nn::Module subclass moves, trains and saves only what it
// registers (register_module, register_parameter, register_buffer). The
// device model needs to know it (an unregistered tensor stays where it was
// made when the module moves), and so does the unregistered-submodule rule:
// one scan of the class's methods, here.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_MODULES_H
#define DEVPLACE_MODEL_MODULES_H

#include "devplace/model/ApiTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CXXRecordDecl;
class Expr;
class FieldDecl;
namespace devplace {

/// Where one member gets its value, and whether a register_* call covers it.
struct MemberRegistration {
  bool Registered = false;
  bool InitialisedInConstructor = false;
  const Expr *FirstValue = nullptr; ///< the first value given to it
  unsigned Values = 0;              ///< how many values it is given
  /// A method other than a constructor gives it a value not computed from
  /// it (`mu_ = torch::tanh(fc->forward(x));`): a cache or the last output,
  /// which that method gives a value again after ->to(), not a parameter
  /// or buffer.
  bool ReplacedInMethod = false;
  /// The class's own `to()` moves it (`backbone.to(d, nb)` in an override
  /// that also calls Module::to).
  bool MovedByOwnTo = false;
  /// Reads of the member in the class's methods, and how many of them do
  /// not depend on its device: moved to another tensor's device first
  /// (`win.to(x.device())`, `w.type_as(x)`) or read as a host number
  /// (`scale.item<float>()`).
  unsigned Reads = 0;
  unsigned ReadsOnAnyDevice = 0;
};

struct ModuleRegistrations {
  /// Every method the class declares has its body in this translation unit:
  /// a member not registered there is not registered at all.
  bool AllMethodsSeen = true;
  /// Every constructor the class declares has its body in this translation
  /// unit (where LibTorch modules register what they hold).
  bool ConstructorsSeen = true;
  /// The members the class's methods give a value or register.
  llvm::DenseMap<const FieldDecl *, MemberRegistration> Members;
  /// Some method registers something (a member or not).
  bool RegistersAnything = false;
  /// Some method asks whether the module is in training mode.
  bool ReadsTrainingMode = false;
};

/// Scans the methods (constructors' initialisers included) of \p RD.
ModuleRegistrations scanRegistrations(const CXXRecordDecl *RD,
                                      const ApiTable &Api);

/// Derived from the module base alone, with no module, tensor or container
/// member: whether the class holds parameters is up to what its
/// constructors register by name.
bool shapeHoldsNothing(const CXXRecordDecl *RD, const ApiTable &Api);

/// A module class of the code's own that holds nothing ->to() would move
/// and nothing eval() would change: every constructor seen, derived from the
/// module base alone, no module or tensor member, no registration and no
/// question about training mode in the methods seen (a `forward` defined in
/// another file has nothing of its own to keep a device in). It runs on
/// inputs of any device. \p Scan gives the class's registrations (a
/// memoised one, where the caller keeps them; scanRegistrations otherwise),
/// asked only of a class whose shape could hold nothing.
bool holdsNoState(
    const CXXRecordDecl *RD, const ApiTable &Api,
    llvm::function_ref<const ModuleRegistrations &(const CXXRecordDecl *)>
        Scan = nullptr);

} // namespace devplace
} // namespace clang

#endif
